#!/usr/bin/env node
// Type-checks every workspace that has a tsconfig.json (apps/*, packages/*), one tsc run each.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
let failed = 0;
for (const group of ['packages', 'apps']) {
  for (const name of readdirSync(join(root, group))) {
    const project = join(group, name, 'tsconfig.json');
    if (!existsSync(join(root, project))) continue;
    const r = spawnSync(process.execPath, [tsc, '-p', project], { cwd: root, stdio: 'inherit' });
    console.log(`[typecheck] ${project}: ${r.status === 0 ? 'ok' : 'errors'}`);
    if (r.status !== 0) failed++;
  }
}
process.exit(failed ? 1 : 0);
