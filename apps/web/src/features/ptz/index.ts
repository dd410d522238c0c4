/** The public face of the PTZ feature: the app shell and the phone's live view import only from here. */
export { PTZ_CONTROL } from './components/PtzControl.tsx';
export { MobilePtzPad } from './components/MobilePtzPad.tsx';
