// Loaded before every test file of every project (setupFiles): notes, in a file of its own per
// worker process, which test file and test the worker is in, and how it ends. When
// a worker dies — a crash, a signal — Vitest says only "Worker exited unexpectedly"; the run's
// reporter (worker-watch-reporter.mjs) then names what that worker was running.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { workerWatchDir } from './watch-dir.mjs';

const dir = workerWatchDir(process.ppid);
const notes = join(dir, `${process.pid}.json`);
/** What this worker is in now; kept across files (a worker runs many: `isolate: false`). */
const state = (globalThis.__shipCctvWorkerWatch ??= { file: undefined, test: undefined, since: undefined });

function write(extra = {}) {
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(notes, JSON.stringify({ pid: process.pid, ...state, ...extra }));
  } catch {
    // A note that cannot be written only leaves a crash unnamed.
  }
}

if (!state.listening) {
  state.listening = true;
  process.on('exit', (code) => write({ exitCode: code }));
  // How the run stops a worker it is done with: noted, then the signal's own default (the end).
  process.once('SIGTERM', () => {
    write({ exitCode: 0, stoppedBy: 'SIGTERM' });
    process.kill(process.pid, 'SIGTERM');
  });
}

beforeAll(() => {
  state.file = expect.getState().testPath;
  state.test = '(before its first test)';
  state.since = new Date().toISOString();
  write();
});
beforeEach(() => {
  state.test = expect.getState().currentTestName;
  state.since = new Date().toISOString();
  write();
});
afterAll(() => {
  state.test = '(after its last test)';
  state.since = new Date().toISOString();
  write();
});
