/**
 * The public face of stills mode (issue 19 item 3): the player cell's 'stills' surface. The app
 * shell loads it lazily through cell-control.ts.
 */
export { STILLS_SURFACE, StillsSurface } from './components/StillsSurface.tsx';
export { bytesPerHour, stillsModeFor, type StillsMode } from './still-mode.ts';
