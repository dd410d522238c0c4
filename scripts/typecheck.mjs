#!/usr/bin/env node
// Type-checks every workspace that has a tsconfig.json (apps/*, packages/*, tests/*), and the end-to-end
// specs (e2e/: they name the app's texts by key), one tsc run each, TYPECHECK_JOBS at once (default:
// the cores, at least two: `npm test` runs it beside ESLint and the build, which end sooner). Each
// run's output is printed whole when it ends.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
// The largest first (they import the most), so that the runs end close together.
const projects = ['tests', 'apps', 'packages']
  .flatMap((group) => readdirSync(join(root, group)).map((name) => join(group, name, 'tsconfig.json')))
  .concat(join('e2e', 'tsconfig.json'))
  .filter((project) => existsSync(join(root, project)));
const jobs = Number(process.env.TYPECHECK_JOBS) || Math.max(2, availableParallelism());

function check(project) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', project], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (d) => output.push(d));
    child.stderr.on('data', (d) => output.push(d));
    child.on('close', (code) => {
      process.stdout.write(Buffer.concat(output));
      console.log(`[typecheck] ${project}: ${code === 0 ? 'ok' : 'errors'} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
      resolve(code === 0);
    });
  });
}

const queue = [...projects];
let failed = 0;
await Promise.all(
  Array.from({ length: Math.min(jobs, queue.length) }, async () => {
    for (let project = queue.shift(); project; project = queue.shift()) if (!(await check(project))) failed++;
  }),
);
process.exit(failed ? 1 : 0);
