/** Types of worker-watch-reporter.mjs (names the test a dead test worker was in). */
export function deadWorkers(dir: string, isAlive?: (pid: number) => boolean): string[];
export function cpuTable(dir: string, root?: string, top?: number): string[];
export default class WorkerWatchReporter {
  onInit(): void;
  onTestRunEnd(): void;
}
