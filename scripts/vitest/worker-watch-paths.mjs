import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The setup file every Vitest project loads first (worker-watch.mjs), as an absolute path: for the
 * configs only (in a jsdom test environment this module's URL is not a file's).
 */
export function workerWatchSetup() {
  return fileURLToPath(new URL('./worker-watch.mjs', import.meta.url));
}

/** Where the test workers of the Vitest run whose main process is `mainPid` note what they run. */
export function workerWatchDir(mainPid) {
  return join(tmpdir(), `ship-cctv-vitest-${mainPid}`);
}
