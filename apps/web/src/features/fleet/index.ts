/** The public face of the fleet feature: other features, the app shell and the mobile screens import only from here. */
export * from './api/channels.ts';
export * from './api/org-ship-tree.ts';
export * from './components/SourceTree.tsx';
export * from './components/StatisticsPanel.tsx';
export * from './hooks/useShipChannels.ts';
export * from './selection.ts';
export * from './tree.ts';
