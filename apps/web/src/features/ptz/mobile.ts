/** The PTZ feature's face on the phone (no desktop UI modules: the mobile bundle has a budget). */
export { MobilePtzPad } from './components/MobilePtzPad.tsx';
