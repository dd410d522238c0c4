/** The public face of the fleet feature (statistics and link usage): other features and the app shell import only from here. */
export * from './components/StatisticsPanel.tsx';
export * from './components/WatchLimitDialog.tsx';
