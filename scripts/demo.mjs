#!/usr/bin/env node
// `npm run demo`: installs what is missing, builds the web app, starts the shore server with the
// embedded database and the simulated fleet, and prints the URL and the demo sign-ins.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.PORT ?? 8080);
const say = (msg) => console.log(`[demo] ${msg}`);

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
step(process.execPath, ['scripts/setup.mjs', '--for=demo', ...(rtsp ? ['--rtsp'] : [])]);

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
say('starting the shore server…');
function launch(name, args) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  children.push(child);
  child.on('exit', (code, signal) => {
    // One part gone means the demo is gone: stop the rest.
    if (!stopping) say(`${name} stopped (${signal ?? code}); stopping the demo`);
    stop(code ?? 0);
  });
  return child;
}
let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 3000).unref();
  Promise.all(children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.once('exit', r))))).then(() => process.exit(code));
}
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => stop(0));

launch('shore server', ['apps/server/src/server.ts']);

const started = Date.now();
let up = false;
while (!up && Date.now() - started < 120_000) {
  try {
    up = (await fetch(`http://127.0.0.1:${port}/healthz`)).ok && existsSync(fleetFile) && statSync(fleetFile).mtimeMs >= startedAt;
  } catch {
    // not up yet
  }
  if (!up) await new Promise((r) => setTimeout(r, 300));
}
if (!up) {
  say('the shore server did not come up within 120 s');
  stop(1);
} else {
  say('starting the simulated fleet (each ship behind its own emulated satellite link)…');
  launch('simulated fleet', ['apps/agent/src/fleet.ts', fleetFile]);
  console.log(`
  Ship CCTV is running:  http://localhost:${port}/monitor/
  API documentation:     http://localhost:${port}/docs
  Metrics:               curl -H 'Authorization: Bearer ${metricsToken}' http://localhost:${port}/metrics

  Demo sign-ins (password demo-pass):
    demo    sees every demo organisation
    njzsz   sees only the organisation njzsz
    duty    sees Blue Ocean Shipping (a second operator on its ships)

  Stop with Ctrl+C.
`);
}
