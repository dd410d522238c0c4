/** The public face of the live feature: other features, the app shell and the mobile screens import only from here. */
export * from './components/PlayGrid.tsx';
export * from './hooks/useLivePreviewActions.ts';
export * from './playlist.ts';
