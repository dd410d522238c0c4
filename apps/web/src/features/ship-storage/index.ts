/**
 * The public face of the ship recorder's storage: notices when a ship's recorder cannot keep the
 * days of recordings asked. The app shell loads it lazily (a chunk of its own, small: it is loaded
 * with the shell, not when a panel opens).
 */
export * from './components/RecorderStorageNotices.tsx';
