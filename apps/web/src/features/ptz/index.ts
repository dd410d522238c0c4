/**
 * The public face of the PTZ feature: the app shell's cell control, and the phone's pad (which
 * loads no desktop UI: the mobile bundle takes only what it imports, see the mobile budget).
 */
export { PTZ_CONTROL } from './components/PtzControl.tsx';
export { MobilePtzPad } from './components/MobilePtzPad.tsx';
