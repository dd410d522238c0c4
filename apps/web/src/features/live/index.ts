/** The public face of the live feature: other features, the app shell and the mobile screens import only from here. */
export * from './api/get-ship-config.ts';
export * from './components/PlayGrid.tsx';
export * from './hooks/useMsePlayer.ts';
export * from './hooks/useNow.ts';
export * from './media-url.ts';
export * from './player-view.ts';
export * from './playlist.ts';
