/** The public face of the pictures feature: the app shell imports only from here. */
export * from './components/ShipPhotoPage.tsx';
export * from './components/ShorePhotoPage.tsx';
export { SNAPSHOT_CONTROL } from './components/SnapshotButton.tsx';
