#!/usr/bin/env node
// Makes this machine ready to run or test Ship CCTV: Node version, npm packages, and the Debian
// packages and local services the tests use. Plain Node, no dependencies: it runs before npm install.
//   node scripts/setup.mjs [--for=demo|test|bench] [--cluster] [--quiet]
// --for=bench: what the tests need plus the benchmarks' own peers (Debian's Janus WebRTC gateway,
// the live-video benchmark's WebRTC comparison; scikit-image's photographs, the codec benchmark's
// scenes; never used by the product or npm test).
// --cluster (the demo with several instances): haproxy in front of them, and the local PostgreSQL,
// Redis and NATS they share (each unless DATABASE_URL, REDIS_URL or NATS_URL names another).
import { execSync, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { envFor, supportedNode } from './node-runtime.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const requested = (args.find((a) => a.startsWith('--for=')) ?? '--for=test').slice('--for='.length);
if (!['demo', 'test', 'bench'].includes(requested)) {
  console.error(`[setup] unknown --for=${requested}: demo, test or bench`);
  process.exit(1);
}
/** The benchmarks run on a test machine: `bench` is `test` and its own extras. */
const mode = requested === 'bench' ? 'test' : requested;
const forBench = requested === 'bench';
const quiet = args.includes('--quiet');
const cluster = args.includes('--cluster');
const say = (msg) => console.log(`[setup] ${msg}`);
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function fail(msg) {
  console.error(`[setup] ${msg}`);
  process.exit(1);
}

function run(cmd, opts = {}) {
  const r = spawnSync(cmd, { shell: true, stdio: 'inherit', cwd: root, ...opts });
  if (r.status !== 0) fail(`command failed (${r.status}): ${cmd}`);
}

function has(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

// 1. Node: 22.13 or newer; on an older one (20.19 at least, for npm and this script), Node 24 LTS
// from the npm registry into .tools/node24, which the project's commands then run on.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) fail(`Node ${process.versions.node} is too old: install Node 22.13 or newer.`);
let projectNode = process.execPath;
try {
  projectNode = supportedNode(say);
  if (!quiet && projectNode !== process.execPath) say(`the project runs on ${projectNode}`);
} catch (err) {
  fail(err.message);
}

// 2. npm packages: install when node_modules is missing or older than the lock file.
const lock = join(root, 'package-lock.json');
const installed = join(root, 'node_modules', '.package-lock.json');
const stale = !existsSync(installed) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(installed).mtimeMs + 1000);
if (stale) {
  say('installing npm packages…');
  // npm itself runs on the project's Node, so that it checks the packages' engines against it.
  run(process.env.CI && existsSync(lock) ? 'npm ci --no-audit --no-fund' : 'npm install --no-audit --no-fund', { env: envFor(projectNode) });
} else if (!quiet) say('npm packages are installed');

// 3. Debian packages: ffmpeg for video; chromium and CJK fonts for the browser tests.
const wanted = [
  { bin: 'ffmpeg', pkg: 'ffmpeg' },
  // The synthetic cameras draw their name and clock with this font.
  { file: '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf', pkg: 'fonts-dejavu-core' },
];
if (mode === 'test') {
  wanted.push({ bin: 'chromium', pkg: 'chromium' });
  // The browser tests run in Chromium's headless shell: the same engine, less CPU (playwright.config.ts).
  wanted.push({ bin: 'chromium-headless-shell', pkg: 'chromium-headless-shell' });
  wanted.push({ file: '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc', pkg: 'fonts-wqy-microhei' });
  // The shared object store's tests run against a real NATS with JetStream.
  wanted.push({ file: '/usr/sbin/nats-server', pkg: 'nats-server' });
  // The demo cluster's haproxy is tested with a real haproxy (an instance killed behind it), and a
  // Redis stall with a redis-server of the test's own (the machine's shared one is never paused).
  wanted.push({ file: '/usr/sbin/haproxy', pkg: 'haproxy' });
  wanted.push({ bin: 'redis-server', pkg: 'redis-server' });
}
if (cluster) {
  // The reverse proxy that spreads browsers and ship agents over the instances (why haproxy:
  // scripts/README.md). nats-server: the object store every instance reads recordings from.
  wanted.push({ file: '/usr/sbin/haproxy', pkg: 'haproxy' });
  if (!process.env.NATS_URL && mode !== 'test') wanted.push({ file: '/usr/sbin/nats-server', pkg: 'nats-server' });
  if (!process.env.REDIS_URL) wanted.push({ bin: 'redis-server', pkg: 'redis-server' });
}
// A real RTSP camera for the tests and `npm run demo -- --rtsp` (scripts/rtsp-camera.py): Debian's
// GStreamer RTSP server through Python's GObject bindings, x264 (ugly) and x265 (bad) encoders.
if (mode === 'test' || args.includes('--rtsp')) {
  const arch = (() => {
    const r = spawnSync('dpkg-architecture', ['-qDEB_HOST_MULTIARCH'], { encoding: 'utf8' });
    return r.status === 0 ? r.stdout.trim() : 'x86_64-linux-gnu';
  })();
  const plugins = `/usr/lib/${arch}/gstreamer-1.0`;
  wanted.push({ file: `/usr/lib/${arch}/girepository-1.0/GstRtspServer-1.0.typelib`, pkg: 'gir1.2-gst-rtsp-server-1.0' });
  wanted.push({ file: '/usr/lib/python3/dist-packages/gi/__init__.py', pkg: 'python3-gi' });
  wanted.push({ file: `${plugins}/libgstvideotestsrc.so`, pkg: 'gstreamer1.0-plugins-base' });
  wanted.push({ file: `${plugins}/libgstrtp.so`, pkg: 'gstreamer1.0-plugins-good' });
  wanted.push({ file: `${plugins}/libgstx265.so`, pkg: 'gstreamer1.0-plugins-bad' });
  wanted.push({ file: `${plugins}/libgstx264.so`, pkg: 'gstreamer1.0-plugins-ugly' });
}
// The live-video benchmark's WebRTC peer (--glass-targets=…,webrtc): Janus and its streaming plugin.
if (forBench) wanted.push({ file: '/usr/bin/janus', pkg: 'janus' });
// The codec benchmark's photographs (codec-quality.bench.ts): scikit-image's sample pictures.
if (forBench) wanted.push({ file: '/usr/lib/python3/dist-packages/skimage/data/astronaut.png', pkg: 'python3-skimage' });
const missing = wanted.filter((w) => (w.bin ? !has(w.bin) : !existsSync(w.file))).map((w) => w.pkg);
if (missing.length > 0) {
  if (isRoot && has('apt-get')) {
    say(`installing Debian packages: ${missing.join(' ')} (apt-get)…`);
    run('apt-get update -qq', { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    run(`apt-get install -y -qq --no-install-recommends ${missing.join(' ')}`, {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } else {
    fail(`missing Debian packages: ${missing.join(' ')}. Install them with: sudo apt-get install -y ${missing.join(' ')}`);
  }
} else if (!quiet) say(`${wanted.map((w) => w.pkg).join(', ')}: installed`);

// 4. Local services the tests talk to: PostgreSQL (5432), Redis (6379) and NATS with JetStream (4222).
function listening(port) {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
    s.setTimeout(1500, () => (s.destroy(), resolve(false)));
  });
}
async function waitFor(port, name) {
  for (let i = 0; i < 40; i++) {
    if (await listening(port)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  fail(`${name} did not start on 127.0.0.1:${port}`);
}
const services = {
  postgres: mode === 'test' || (cluster && !process.env.DATABASE_URL),
  redis: mode === 'test' || (cluster && !process.env.REDIS_URL),
  nats: mode === 'test' || (cluster && !process.env.NATS_URL),
};
if (services.postgres) {
  if (!(await listening(5432))) {
    if (isRoot && has('pg_ctlcluster')) {
      say('starting PostgreSQL…');
      const version = execSync('ls /etc/postgresql').toString().trim().split('\n')[0];
      run(`pg_ctlcluster --skip-systemctl-redirect ${version} main start`);
      await waitFor(5432, 'PostgreSQL');
    } else if (mode === 'test') fail('PostgreSQL is not running on 127.0.0.1:5432 (trust auth, database "test"); start it, or set TEST_POSTGRES_URL.');
    else fail('several instances share one PostgreSQL: none runs on 127.0.0.1:5432 (user postgres, trust auth); start it (Debian package postgresql), or set DATABASE_URL.');
  }
}
if (services.redis) {
  if (!(await listening(6379))) {
    if (has('redis-server')) {
      say('starting Redis…');
      run('redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no');
      await waitFor(6379, 'Redis');
    } else fail(`Redis is not running on 127.0.0.1:6379; start it (Debian package redis-server), or set ${mode === 'test' ? 'TEST_REDIS_URL' : 'REDIS_URL'}.`);
  }
}
if (services.nats) {
  // NATS with JetStream (4222): the shared object store (its tests, and the demo's instances).
  if (!(await listening(4222))) {
    if (existsSync('/usr/sbin/nats-server') && isRoot && has('start-stop-daemon')) {
      say('starting NATS with JetStream…');
      run(
        'mkdir -p /var/lib/nats-server && start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- ' +
          '-a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log',
      );
      await waitFor(4222, 'NATS');
    } else fail(`NATS with JetStream is not running on 127.0.0.1:4222 (Debian package nats-server, started with -js); start it, or set ${mode === 'test' ? 'TEST_NATS_URL' : 'NATS_URL'}.`);
  }
}
if (!quiet && (services.postgres || services.redis || services.nats)) {
  say(`${[services.postgres && 'PostgreSQL', services.redis && 'Redis', services.nats && 'NATS'].filter(Boolean).join(', ')}: up`);
}
