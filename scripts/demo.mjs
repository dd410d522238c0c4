#!/usr/bin/env node
// `npm run demo`: installs what is missing, builds the web app, starts the shore server with the
// embedded database and the simulated fleet, and prints the URL and the demo sign-ins.
// `npm run demo -- --instances N` (or DEMO_INSTANCES=N): N shore instances behind haproxy on PORT,
// sharing PostgreSQL, Redis and NATS (scripts/demo-cluster.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { showLog } from './demo-log.mjs';
import { onSupportedNode } from './node-runtime.mjs';
import {
  DEMO_DATABASE_URL,
  HAPROXY,
  ensureDatabase,
  fleetThroughProxy,
  haproxyConfig,
  instanceCount,
  instancePlan,
  sharedJwtSecret,
  watchOwners,
} from './demo-cluster.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.PORT ?? 8080);
const say = (msg) => console.log(`[demo] ${msg}`);
// Node 20 is past its end of life: on it the demo runs again on Node 24 from .tools/node24.
await onSupportedNode(import.meta.url, say);

function step(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...readdirSync(path).map((n) => newest(join(path, n))));
}

// `npm run demo -- --rtsp`: one demo ship gets a real RTSP camera (scripts/rtsp-camera.py,
// Debian's GStreamer RTSP server, two slices a picture like many IP cameras) on RTSP_PORT.
const rtsp = process.argv.includes('--rtsp');
let instances;
try {
  instances = instanceCount(process.argv.slice(2), process.env);
} catch (err) {
  say(err.message);
  process.exit(2);
}
const cluster = instances > 1;
step(process.execPath, ['scripts/setup.mjs', '--for=demo', ...(rtsp ? ['--rtsp'] : []), ...(cluster ? ['--cluster'] : [])]);

const web = join(root, 'apps/web');
// WEB_DIST (also read by the server) lets several checkouts' test runs build side by side.
const webDist = process.env.WEB_DIST ?? join(web, 'dist');
const builtAt = newest(join(webDist, 'index.html'));
const sourcesAt = Math.max(newest(join(web, 'src')), newest(join(web, 'index.html')), newest(join(root, 'packages')));
if (builtAt === 0 || sourcesAt > builtAt) {
  say('building the web app…');
  if (process.env.WEB_DIST) step('npm', ['run', 'build', '--silent', '-w', '@ship-cctv/web', '--', '--outDir', webDist, '--emptyOutDir']);
  else step('npm', ['run', 'build', '--silent']);
} else say('web app is up to date');

const dataDir = process.env.DATA_DIR ?? join(root, 'data');
const fleetFile = join(dataDir, 'demo-fleet.json');
// The server keeps the ships' keys of an earlier file (a restarted server must not lock out a
// running fleet); the fleet starts once the server has written the file anew.
const startedAt = Date.now();
// /metrics stays closed without a token; the demo opens it with one of its own unless one is given.
const metricsToken = process.env.METRICS_TOKEN || randomBytes(12).toString('hex');
const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, FLEET_FILE: fleetFile, METRICS_TOKEN: metricsToken };
const children = [];
if (rtsp) {
  const rtspPort = Number(process.env.RTSP_PORT ?? 8554);
  say(`starting the RTSP camera on 127.0.0.1:${rtspPort}…`);
  const camera = spawn('/usr/bin/python3', ['scripts/rtsp-camera.py', '--port', String(rtspPort), '--width', '640', '--height', '360', '--fps', '10', '--slices', '2', '--bitrate', '600'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(camera);
  const url = await new Promise((resolve) => {
    let out = '';
    camera.stdout.on('data', (d) => {
      out += d.toString();
      const m = /ready (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    camera.once('exit', () => resolve(undefined));
  });
  if (!url) {
    say('the RTSP camera did not start (see above)');
    process.exit(1);
  }
  env.FLEET_RTSP_CAMERA = url;
}
function launch(name, args, opts = {}) {
  const command = opts.command ?? process.execPath;
  const argv = opts.command ? args : ['--import', 'tsx', ...args];
  // A shore server's JSON log is shown as one readable line per event that matters (demo-log.mjs).
  const readable = opts.readableLog === true;
  const child = spawn(command, argv, { cwd: root, env: { ...env, ...opts.env }, stdio: ['ignore', readable ? 'pipe' : 'inherit', 'inherit'] });
  if (readable && child.stdout) showLog(child.stdout, name);
  children.push(child);
  child.on('exit', (code, signal) => {
    // One instance of several gone is what the cluster is for: the others carry on. Any other
    // part gone means the demo is gone: stop the rest.
    if (opts.onExit?.(code, signal)) return;
    if (!stopping) say(`${name} stopped (${signal ?? code}); stopping the demo`);
    stop(code ?? 0);
  });
  return child;
}
let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  stopOwners();
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 3000).unref();
  Promise.all(children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.once('exit', r))))).then(() => process.exit(code));
}
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => stop(0));

async function healthy(at, fleetWritten) {
  const started = Date.now();
  while (Date.now() - started < 120_000) {
    try {
      if ((await fetch(`http://127.0.0.1:${at}/healthz`)).ok && (!fleetWritten || (existsSync(fleetFile) && statSync(fleetFile).mtimeMs >= startedAt))) return true;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return false;
}

let up;
let stopOwners = () => undefined;
if (!cluster) {
  say('starting the shore server…');
  launch('shore', ['apps/server/src/server.ts'], { readableLog: true });
  up = await healthy(port, true);
  if (!up) say('the shore server did not come up within 120 s');
} else up = await startCluster();

async function startCluster() {
  const plan = instancePlan(instances, port, dataDir);
  const databaseUrl = process.env.DATABASE_URL || DEMO_DATABASE_URL;
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  try {
    await ensureDatabase(databaseUrl);
  } catch (err) {
    say(err.message);
    return false;
  }
  Object.assign(env, {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    STORAGE: 'nats',
    NATS_URL: process.env.NATS_URL || 'nats://127.0.0.1:4222',
    JWT_SECRET: process.env.JWT_SECRET || sharedJwtSecret(dataDir),
    // Behind the proxy, which alone is reached from outside; it names the client in X-Forwarded-For.
    HOST: '127.0.0.1',
    TRUST_PROXY: '127.0.0.1',
  });
  let alive = plan.length;
  const startInstance = (i) => {
    say(`starting ${i.name} on 127.0.0.1:${i.port} (data in ${i.dataDir})…`);
    launch(i.name, ['apps/server/src/server.ts'], {
      readableLog: true,
      // Only the first provisions the fleet file: each provisioning issues every ship a new key.
      env: { PORT: String(i.port), DATA_DIR: i.dataDir, INSTANCE_NAME: i.name, FLEET_FILE: i === plan[0] ? fleetFile : '' },
      onExit: (code, signal) => {
        if (stopping) return true;
        alive -= 1;
        if (alive === 0) return false;
        say(`${i.name} stopped (${signal ?? code}); haproxy sends its ships and browsers to the ${alive} other instance(s)`);
        return true;
      },
    });
  };
  // The first alone: it migrates and seeds the shared database before the others open it.
  startInstance(plan[0]);
  if (!(await healthy(plan[0].port, true))) {
    say(`${plan[0].name} did not come up within 120 s`);
    return false;
  }
  plan.slice(1).forEach(startInstance);
  for (const i of plan.slice(1)) {
    if (!(await healthy(i.port, false))) {
      say(`${i.name} did not come up within 120 s`);
      return false;
    }
  }
  const config = join(dataDir, 'haproxy.cfg');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(config, haproxyConfig(port, plan), { mode: 0o600 });
  say(`starting haproxy on :${port} → ${plan.map((i) => `${i.name} :${i.port}`).join(', ')}…`);
  launch('haproxy', ['-f', config, '-db'], { command: HAPROXY });
  if (!(await healthy(port, false))) {
    say(`haproxy did not answer on :${port}`);
    return false;
  }
  fleetThroughProxy(fleetFile, port);
  stopOwners = await watchOwners(redisUrl, plan, say);
  return true;
}

if (!up) {
  stop(1);
} else {
  say(`starting the simulated fleet (each ship behind its own emulated satellite link${cluster ? ', through haproxy' : ''})…`);
  launch('simulated fleet', ['packages/simulator/src/fleet.ts', fleetFile]);
  console.log(`
  Ship CCTV is running:  http://localhost:${port}/monitor/${cluster ? `  (haproxy → ${instances} instances on :${port + 1}–:${port + instances})` : ''}
  API documentation:     http://localhost:${port}/docs
  Metrics:               curl -H 'Authorization: Bearer ${metricsToken}' http://localhost:${port}/metrics

  Demo sign-ins (password demo-pass):
    demo    sees every demo organisation
    njzsz   sees only the organisation njzsz
    duty    sees Blue Ocean Shipping (a second operator on its ships)
    viewer  sees Blue Ocean Shipping as an operator, not a manager (changes no settings)

  Stop with Ctrl+C.
`);
}
