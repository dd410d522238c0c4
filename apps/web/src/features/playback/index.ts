/** The public face of the playback feature: other features, the app shell and the mobile screens import only from here. */
export * from './components/ShipPlaybackPage.tsx';
export * from './hooks/usePlaybackOptionsForm.ts';
export * from './hooks/usePlaybackScreen.ts';
export * from './options.ts';
export * from './playback-view.ts';
export * from './play-at.ts';
export { toPlaybackSource, type PlaybackSource } from './components/PlaybackSourceTree.tsx';
