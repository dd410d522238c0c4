/**
 * The source tree every screen that picks channels uses (live preview, ship playback, pictures,
 * carousel): organisation picker, search, ships and their channels with live status. A screen
 * passes SourceTreeActions to say what a double-click, right-click or selection does.
 */
export * from './api/channels.ts';
export * from './api/org-ship-tree.ts';
export * from './SourceTree.tsx';
export * from './selection.ts';
export * from './tree.ts';
export * from './useShipChannels.ts';
export * from './ship-extra.tsx';
