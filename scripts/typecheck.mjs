#!/usr/bin/env node
// Type-checks every workspace that has a tsconfig.json (apps/*, packages/*, tests/*), and the end-to-end
// specs (e2e/: they name the app's texts by key), one tsc run each.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
let failed = 0;
const projects = ['packages', 'apps', 'tests'].flatMap((group) => readdirSync(join(root, group)).map((name) => join(group, name, 'tsconfig.json')));
projects.push(join('e2e', 'tsconfig.json'));
for (const project of projects) {
  if (!existsSync(join(root, project))) continue;
  const r = spawnSync(process.execPath, [tsc, '-p', project], { cwd: root, stdio: 'inherit' });
  console.log(`[typecheck] ${project}: ${r.status === 0 ? 'ok' : 'errors'}`);
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
