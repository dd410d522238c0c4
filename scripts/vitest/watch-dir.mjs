import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the test workers of the Vitest run whose main process is `mainPid` note what they run. */
export function workerWatchDir(mainPid) {
  return join(tmpdir(), `ship-cctv-vitest-${mainPid}`);
}
