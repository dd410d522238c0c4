// The Node.js the project runs on. Supported: Node 22.13 or newer (22 and 24 are the LTS lines;
// Node 20 reached its end of life in April 2026). On an older Node — these machines have 20 — the
// setup installs Node 24 LTS from the npm registry's `node` package into `.tools/node24/` and
// `npm test`, `npm run demo` and `npm start` run on it. Plain Node, no dependencies: it runs before
// npm install.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const toolsDir = join(root, '.tools', 'node24');
const bundledNode = join(toolsDir, 'node_modules', 'node', 'bin', 'node');

/** Whether a Node version (`process.versions.node`) is one the project supports. */
export function isSupportedNode(version) {
  const [major, minor] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 13);
}

function versionOf(binary) {
  const r = spawnSync(binary, ['-p', 'process.versions.node'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/**
 * The path of a supported node binary: this process's own when it is supported, otherwise Node 24
 * in `.tools/node24/`, installed from the npm registry when it is not there yet (`say` tells).
 */
export function supportedNode(say = () => undefined) {
  if (isSupportedNode(process.versions.node)) return process.execPath;
  const present = existsSync(bundledNode) ? versionOf(bundledNode) : undefined;
  if (present && isSupportedNode(present)) return bundledNode;
  say(`Node ${process.versions.node} is past its end of life: installing Node 24 LTS from the npm registry into .tools/node24…`);
  mkdirSync(toolsDir, { recursive: true });
  const r = spawnSync('npm', ['install', '--prefix', toolsDir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', 'node@24'], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const installed = r.status === 0 && existsSync(bundledNode) ? versionOf(bundledNode) : undefined;
  if (!installed || !isSupportedNode(installed)) {
    throw new Error('could not install Node 24 from the npm registry (npm install node@24); install Node 22.13 or newer and run again.');
  }
  say(`Node ${installed} is in .tools/node24`);
  return bundledNode;
}

/** The environment for children that must run on `node`: its folder first on PATH, so that `node`, `npm` and `npx` in them use it. */
export function envFor(node, env = process.env) {
  return { ...env, PATH: `${dirname(node)}:${env.PATH ?? ''}` };
}

/**
 * Runs this script again on a supported Node when the current one is older, passing on its
 * arguments, signals and exit code; returns (and the script goes on) when the current Node is
 * supported. `script` is the caller's `import.meta.url`.
 */
export async function onSupportedNode(script, say) {
  if (isSupportedNode(process.versions.node)) return;
  const node = supportedNode(say);
  const child = spawn(node, [...process.execArgv, fileURLToPath(script), ...process.argv.slice(2)], { stdio: 'inherit', env: envFor(node) });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  const code = await new Promise((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
  process.exit(code);
}

// `node scripts/node-runtime.mjs ARGS…`: `node ARGS…` on a supported Node (npm start uses it).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const node = supportedNode((m) => console.log(`[node] ${m}`));
  const child = spawn(node, process.argv.slice(2), { stdio: 'inherit', env: envFor(node) });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (c, signal) => process.exit(c ?? (signal ? 1 : 0)));
}
