/** The public face of the PTZ feature on the desktop: the app shell imports only from here (the phone: ./mobile.ts). */
export { PTZ_CONTROL } from './components/PtzControl.tsx';
