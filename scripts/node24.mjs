#!/usr/bin/env node
/**
 * The server, agent, simulator and cross-application (integration) suites again on Node 24 LTS
 * (Node 20, what these machines have, reached its end of life in April 2026 and stays supported
 * from 20.19). Node 24 comes from the npm registry's
 * `node` package (`npx -p node@24`), nothing else is downloaded; the installed node_modules are
 * shared (native parts are N-API or WebAssembly, the same on both).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = 'node_modules/vitest/vitest.mjs';
const node24 = ['-y', '-p', 'node@24', 'node'];
const version = spawnSync('npx', [...node24, '-p', 'process.version'], { cwd: root, encoding: 'utf8' });
if (version.status !== 0 || !/^v24\./.test(version.stdout.trim())) {
  console.error(`[node24] could not run Node 24 from the npm registry: ${version.stderr || version.stdout}`);
  process.exit(1);
}
const args = [...node24, vitest, 'run', '--project', 'server', '--project', 'agent', '--project', 'simulator', '--project', 'integration', ...process.argv.slice(2)];
console.log(`[node24] ${version.stdout.trim()}: npx ${args.join(' ')}`);
const r = spawnSync('npx', args, { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
