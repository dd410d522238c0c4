// Loaded before every test file of every project (setupFiles): notes, in a file of its own per
// worker process, which test file and test the worker is in, and how it ends. When
// a worker dies — a crash, a signal — Vitest says only "Worker exited unexpectedly"; the run's
// reporter (worker-watch-reporter.mjs) then names what that worker was running. It also notes the
// CPU each test file took, its own (all the worker's threads) and its child processes' (ffmpeg, a
// server): a worker runs one file at a time, so the differences are the file's.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { workerWatchDir } from './worker-watch-paths.mjs';

const dir = workerWatchDir(process.ppid);
const notes = join(dir, `${process.pid}.json`);
/** What this worker is in now; kept across files (a worker runs many: `isolate: false`). */
const state = (globalThis.__shipCctvWorkerWatch ??= { file: undefined, test: undefined, since: undefined });

// The run's reporter makes the folder at its start and removes it at its end: a note written
// without it (after the run, or in a run without the reporter) is not kept.
function write(extra = {}) {
  try {
    writeFileSync(notes, JSON.stringify({ pid: process.pid, ...state, ...extra }));
  } catch {
    // A note that cannot be written only leaves a crash unnamed.
  }
}

/** CPU ms so far: this process (every thread) and its children that have ended (/proc/self/stat). */
function cpuNow() {
  const { user, system } = process.cpuUsage();
  let childMs = 0;
  try {
    const stat = readFileSync('/proc/self/stat', 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // cutime and cstime, fields 16 and 17 of the whole line, in clock ticks of 10 ms.
    childMs = (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    // No /proc: children's CPU unknown.
  }
  return { ownMs: (user + system) / 1000, childMs };
}

/** CPU at the start of the file running now: before it is imported (setup files run first). */
const fileStart = cpuNow();

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
  const end = cpuNow();
  const used = { file: state.file, ownMs: Math.round(end.ownMs - fileStart.ownMs), childMs: Math.round(end.childMs - fileStart.childMs) };
  try {
    appendFileSync(join(dir, `${process.pid}.cpu.jsonl`), `${JSON.stringify(used)}\n`);
  } catch {
    // Only the CPU table misses the file.
  }
});
