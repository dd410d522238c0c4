/** This feature's control on live player cells, for the app shell to load lazily (app/cell-controls.tsx): importing this file, not index.ts, keeps it out of the chunks that import the rest of the feature. */
export { PTZ_CONTROL } from './components/PtzControl.tsx';
