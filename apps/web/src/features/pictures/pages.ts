/** The screens of this feature, for the app's route table to load lazily (app/routes/lazy-pages.ts): importing this file, not index.ts, keeps them out of the chunks that import the rest of the feature. */
export { ShipPhotoPage } from './components/ShipPhotoPage.tsx';
export { ShorePhotoPage } from './components/ShorePhotoPage.tsx';
