/** This feature's surface on live player cells, for the app shell to load lazily (app/cell-controls.tsx). */
export { STILLS_SURFACE } from './components/StillsSurface.tsx';
