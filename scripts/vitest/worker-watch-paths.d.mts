/** Types of worker-watch-paths.mjs. */
export function workerWatchSetup(): string;
export function workerWatchDir(mainPid: number): string;
