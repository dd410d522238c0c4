// A Vitest reporter beside the default one: at the end of the run, names each test worker that
// died without exiting (a crash or a signal) or exited with an error code, with the test file and
// test it was in (noted by worker-watch.mjs), so that "Worker exited unexpectedly" can be traced.
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { workerWatchDir } from './watch-dir.mjs';

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** What the notes in `dir` say of workers that did not end well: one line each. */
export function deadWorkers(dir, isAlive = alive) {
  let names;
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const lines = [];
  for (const name of names) {
    let note;
    try {
      note = JSON.parse(readFileSync(join(dir, name), 'utf8'));
    } catch {
      continue;
    }
    const where = `${note.file ?? '(no file yet)'} › ${note.test ?? '(no test yet)'}, since ${note.since ?? '?'}`;
    if (note.exitCode === undefined && !isAlive(note.pid)) lines.push(`test worker ${note.pid} died without exiting (a crash or a signal) in ${where}`);
    else if (note.exitCode !== undefined && note.exitCode !== 0) lines.push(`test worker ${note.pid} exited with code ${note.exitCode} in ${where}`);
  }
  return lines;
}

export default class WorkerWatchReporter {
  dir = workerWatchDir(process.pid);

  onInit() {
    mkdirSync(this.dir, { recursive: true });
  }

  onTestRunEnd() {
    for (const line of deadWorkers(this.dir)) console.error(`[worker-watch] ${line}`);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
