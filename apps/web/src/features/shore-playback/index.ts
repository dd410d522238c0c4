/** The public face of the shore-playback feature: other features, the app shell and the mobile screens import only from here. */
export * from './components/ShorePlaybackPage.tsx';
