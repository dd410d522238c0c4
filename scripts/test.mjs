#!/usr/bin/env node
// `npm test`: every suite, in stages, each timed, on a supported Node (scripts/node-runtime.mjs).
//   1. setup      what is missing (npm packages, Debian packages, local services, Node 24)
//   2. unit       Vitest: every project of vitest.config.ts (TEST_WORKERS files at a time), and
//                 beside it at the lowest priority the checks: typecheck, lint and the web build
//   3. e2e        Playwright: the app's suite (E2E_WORKERS demo stacks), then the player's harness
// A stage that fails stops the run after its group; the times of the stages run so far are printed
// at the end either way. `npm test -- unit` (or e2e) runs only those stages.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { envFor, supportedNode } from './node-runtime.mjs';
import { formatStageTable, runGroups } from './test-stages.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const say = (msg) => console.log(`[test] ${msg}`);
const bin = (path) => join(root, 'node_modules', path);

const setupStarted = performance.now();
const setup = spawn(process.execPath, [join(root, 'scripts/setup.mjs'), '--quiet'], { cwd: root, stdio: 'inherit' });
const setupCode = await new Promise((resolve) => setup.on('exit', (c) => resolve(c ?? 1)));
if (setupCode !== 0) process.exit(setupCode);
say(`setup: ${Math.round((performance.now() - setupStarted) / 1000)} s`);

const node = supportedNode(say);
const env = envFor(node, { ...process.env });
if (node !== process.execPath) say(`every stage runs on ${node}`);

/** One command of a stage: `node` with arguments, in the repository root. */
const onNode = (...args) => ({ command: node, args, env });

/**
 * The checks run beside the unit tests at the lowest priority (`nice -n 19`): they only compute,
 * and take what the unit tests, which mostly wait on cameras, links and ffmpeg, leave of the CPU
 * (a quarter of it on two cores) instead of taking a stage of their own.
 */
const niced = ({ command, args, env: stageEnv }) => ({ command: 'nice', args: ['-n', '19', command, ...args], env: stageEnv });

const groups = [
  {
    name: 'unit',
    parallel: true,
    stages: [
      // TEST_WORKERS: how many test files at once (vitest.config.ts).
      { name: 'unit', ...onNode(bin('vitest/vitest.mjs'), 'run') },
      { name: 'typecheck', ...niced(onNode('scripts/typecheck.mjs')) },
      { name: 'lint', ...niced(onNode(bin('eslint/bin/eslint.js'), '.', '--max-warnings', '0')) },
      { name: 'build', ...niced({ command: 'npm', args: ['run', 'build', '--silent', '-w', '@ship-cctv/web'], env }) },
    ],
  },
  {
    name: 'e2e',
    stages: [
      // E2E_WORKERS: how many workers, each with a demo stack of its own (playwright.config.ts).
      { name: 'e2e', ...onNode(bin('@playwright/test/cli.js'), 'test') },
      { name: 'e2e-player', ...onNode(bin('@playwright/test/cli.js'), 'test', '-c', 'packages/player/playwright.config.ts') },
    ],
  },
];

const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = only.filter((name) => !groups.some((g) => g.name === name));
if (unknown.length > 0) {
  console.error(`[test] unknown stage ${unknown.join(', ')}: ${groups.map((g) => g.name).join(', ')}`);
  process.exit(2);
}
const chosen = only.length > 0 ? groups.filter((g) => only.includes(g.name)) : groups;
const started = performance.now();
const results = await runGroups(chosen, { cwd: root, say });
console.log(`\n${formatStageTable(results, (performance.now() - started) / 1000)}`);
process.exit(results.every((r) => r.code === 0) && results.length === chosen.flatMap((g) => g.stages).length ? 0 : 1);
