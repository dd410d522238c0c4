// A Vitest reporter beside the default one: at the end of the run, prints where the test files'
// CPU went, and names each test worker that died without exiting (a crash or a signal) or exited
// with an error code, with the test file and test it was in (noted by worker-watch.mjs), so that
// "Worker exited unexpectedly" can be traced.
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { workerWatchDir } from './worker-watch-paths.mjs';

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** Every note in `dir`'s files whose names end with `suffix`, one JSON value a line; torn ones left out. */
function readNotes(dir, suffix) {
  let names;
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(suffix));
  } catch {
    return [];
  }
  const notes = [];
  for (const name of names) {
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      if (!line) continue;
      try {
        notes.push(JSON.parse(line));
      } catch {
        // A note cut short (its process died writing it).
      }
    }
  }
  return notes;
}

/** What the notes in `dir` say of workers that did not end well: one line each. */
export function deadWorkers(dir, isAlive = alive) {
  const lines = [];
  for (const note of readNotes(dir, '.json')) {
    const where = `${note.file ?? '(no file yet)'} › ${note.test ?? '(no test yet)'}, since ${note.since ?? '?'}`;
    if (note.exitCode === undefined && !isAlive(note.pid)) lines.push(`test worker ${note.pid} died without exiting (a crash or a signal) in ${where}`);
    else if (note.exitCode !== undefined && note.exitCode !== 0) lines.push(`test worker ${note.pid} exited with code ${note.exitCode} in ${where}`);
  }
  return lines;
}

/**
 * The CPU the test files took (noted by worker-watch.mjs as each ended): the `top` files that took
 * the most, and the total of each project folder, in seconds. Empty when no file left a note.
 */
export function cpuTable(dir, root = process.cwd(), top = 12) {
  const files = readNotes(dir, '.cpu.jsonl').map((note) => ({ file: relative(root, note.file ?? '?'), ownMs: note.ownMs, childMs: note.childMs }));
  if (files.length === 0) return [];
  const seconds = (ms) => (ms / 1000).toFixed(1).padStart(6);
  const costlierFirst = (a, b) => b.ownMs + b.childMs - (a.ownMs + a.childMs);
  const byProject = new Map();
  for (const f of files) {
    const project = f.file.split('/').slice(0, 2).join('/');
    const sum = byProject.get(project) ?? { ownMs: 0, childMs: 0, n: 0 };
    byProject.set(project, { ownMs: sum.ownMs + f.ownMs, childMs: sum.childMs + f.childMs, n: sum.n + 1 });
  }
  const total = files.reduce((s, f) => s + f.ownMs + f.childMs, 0);
  return [
    `CPU of the ${files.length} test files: ${(total / 1000).toFixed(0)} s (own = the test process's threads, children = processes it ran and reaped)`,
    `  ${'own'.padStart(6)} ${'child'.padStart(6)}  project`,
    ...[...byProject].sort((a, b) => costlierFirst(a[1], b[1])).map(([p, s]) => `  ${seconds(s.ownMs)} ${seconds(s.childMs)}  ${p} (${s.n} files)`),
    `  ${'own'.padStart(6)} ${'child'.padStart(6)}  the ${top} files that took the most`,
    ...files
      .sort(costlierFirst)
      .slice(0, top)
      .map((f) => `  ${seconds(f.ownMs)} ${seconds(f.childMs)}  ${f.file}`),
  ];
}

export default class WorkerWatchReporter {
  dir = workerWatchDir(process.pid);

  onInit() {
    mkdirSync(this.dir, { recursive: true });
  }

  onTestRunEnd() {
    for (const line of cpuTable(this.dir)) console.log(`[unit cpu] ${line}`);
    for (const line of deadWorkers(this.dir)) console.error(`[worker-watch] ${line}`);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
