/**
 * Bursts of ordinary requests against one shore server, and what they cost everyone else. Run from
 * the repository root:
 *
 *   node --import tsx tests/integration/bench/request-burst.bench.ts [--port=21300] [--burst=200] [--only=ptz,snapshot]
 *
 * BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the server child.
 *
 * A real shore (demo fleet, embedded in-memory PGlite, logger off) runs in a child process, so its
 * event loop is its own; it listens on `--port`. This process signs in `demo` (who bursts) and `duty`
 * (another user of the same organisation), and for each kind of request fires `--burst` of them at
 * once as demo. A third process, so that the burst's own work in this one delays neither, connects
 * ship S1001's real ShipAgent (synthetic cameras, the bridge one PTZ) straight to the shore and
 * asks GET /healthz every 25 ms and, as duty, GET a ship's channels every 100 ms. Per kind it
 * prints the answers by status, how long the burst took, /healthz and duty's
 * latency (p50, p99, max), the server's event-loop delay (p50, p99, max; perf_hooks
 * monitorEventLoopDelay in the child) and whether the ship's link stayed up. Not part of `npm test`;
 * it stops by itself.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { TOKEN_HEADER } from '@ship-cctv/protocol';

const SHIP = 'S1001';
const CHANNEL = 'S1001-C01';
const CAMERA = 'S1001-C01-1';
const JWT_SECRET = 'request-burst-bench-secret-of-32-chars!';
const HARD_LIMIT_MS = 600_000;

function arg(name: string, fallback: string): string {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? found.slice(name.length + 3) : fallback;
}

interface LoopFigures {
  p50: number;
  p99: number;
  max: number;
  linkUp: boolean;
  sameLink: boolean;
}

type FromServer = { type: 'ready'; key: string } | { type: 'loop'; figures: LoopFigures };
type ToProbe = { type: 'start'; base: string; duty: string } | { type: 'stop' };
interface Samples {
  health: number[];
  other: number[];
}

// ---- the server child -----------------------------------------------------------------------------

async function serve(port: number): Promise<void> {
  const { buildApp } = await import('@ship-cctv/server');
  const app = await buildApp({ seedDemo: true, logger: false, jwtSecret: JWT_SECRET, ptz: { answerTimeoutMs: 5_000 }, pictures: { answerTimeoutMs: 10_000 } });
  await app.listen({ port, host: '127.0.0.1' });
  const key = await app.agentKeys.issue(SHIP);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let link: unknown;
  const send = (m: FromServer) => process.send?.(m);
  process.on('message', (m: string) => {
    if (m === 'reset') {
      link = app.agents.get(SHIP);
      loop.reset();
    } else if (m === 'read') {
      const now = app.agents.get(SHIP);
      send({
        type: 'loop',
        figures: { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6, linkUp: now?.ready === true, sameLink: now === link },
      });
    } else if (m === 'stop') {
      void app.close().then(() => process.exit(0));
    }
  });
  send({ type: 'ready', key });
}

// ---- the probing child: /healthz and another user, in a process of their own ----------------------

async function probeChild(base: string, key: string): Promise<void> {
  const { ShipAgent } = await import('@ship-cctv/agent');
  const { syntheticCameras } = await import('@ship-cctv/simulator');
  const agent = new ShipAgent(
    {
      shoreUrl: base.replace(/^http/, 'ws'),
      shipId: SHIP,
      key,
      cameras: [
        { cameraId: CAMERA, source: 'synthetic', name: 'Bridge', ptz: {} },
        { cameraId: 'S1001-C02-1', source: 'synthetic', name: 'Engine Room' },
      ],
    },
    { current: () => ({ linkType: 'VSAT', quality: 80, duplex: 'BOTH' }), onChange: () => () => undefined },
    { minBackoffMs: 200, maxBackoffMs: 1_000, cameraKinds: [syntheticCameras()] },
  );
  agent.start();
  let samples: Samples = { health: [], other: [] };
  let probing = false;
  let running: Promise<unknown> = Promise.resolve();
  const probe = async (every: number, ask: () => Promise<{ ms: number }>, into: number[]) => {
    while (probing) {
      const started = performance.now();
      into.push((await ask()).ms);
      await new Promise((r) => setTimeout(r, Math.max(0, every - (performance.now() - started))));
    }
  };
  process.on('message', (m: ToProbe) => {
    if (m.type === 'start') {
      samples = { health: [], other: [] };
      probing = true;
      running = Promise.all([
        probe(25, () => timed(`${m.base}/healthz`), samples.health),
        probe(100, () => timed(`${m.base}/api/v1/cctv/monitor/getChannel/S1002`, { headers: { [TOKEN_HEADER]: m.duty } }), samples.other),
      ]);
    } else {
      probing = false;
      void running.then(() => process.send?.(samples));
    }
  });
  process.on('disconnect', () => void agent.stop().then(() => process.exit(0)));
  // The first fetch of a process loads its HTTP client: not the server's time to answer.
  await timed(`${base}/healthz`);
  process.send?.('ready');
}

// ---- the client -----------------------------------------------------------------------------------

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

function summary(samples: number[]): string {
  const s = [...samples].sort((a, b) => a - b);
  return `p50 ${percentile(s, 50).toFixed(0)} ms, p99 ${percentile(s, 99).toFixed(0)} ms, max ${(s.at(-1) ?? NaN).toFixed(0)} ms (n=${s.length})`;
}

async function timed(url: string, init: RequestInit = {}): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  try {
    const res = await fetch(url, init);
    await res.arrayBuffer();
    return { ms: performance.now() - started, status: res.status };
  } catch {
    return { ms: performance.now() - started, status: 0 };
  }
}

async function main(): Promise<void> {
  const port = Number(arg('port', '21300'));
  const burstSize = Number(arg('burst', '200'));
  const only = arg('only', '').split(',').filter(Boolean);
  const base = `http://127.0.0.1:${port}`;
  const hardStop = setTimeout(() => {
    console.error('bench: hard time limit reached');
    process.exit(2);
  }, HARD_LIMIT_MS);
  hardStop.unref();

  // BENCH_SERVER_NODE_ARGS: extra node flags for the server child, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
  const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [`--serve=${port}`], { execArgv: ['--import', 'tsx', ...extra], stdio: 'inherit' });
  const messages: ((m: FromServer) => void)[] = [];
  child.on('message', (m: FromServer) => messages.shift()?.(m));
  const next = () => new Promise<FromServer>((resolve) => messages.push(resolve));
  const ready = await next();
  if (ready.type !== 'ready') throw new Error('server did not start');


  // The ship's agent and the probes run in a process of their own: the burst's own work in this
  // process (200 MB of bodies, say) must not delay the agent's heartbeats or the probes' requests.
  const probes: ChildProcess = fork(fileURLToPath(import.meta.url), [`--probe=${base}`, `--key=${ready.key}`], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  await new Promise((resolve) => probes.once('message', resolve));

  const logon = async (username: string) => {
    const res = await fetch(`${base}/api/v1/sys/logon`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: 'demo-pass' }) });
    return ((await res.json()) as { data: { token: string } }).data.token;
  };
  const demo = await logon('demo');
  const duty = await logon('duty');
  // The agent's link is up once a ship query answers from the ship.
  for (let i = 0; i < 100; i++) {
    const r = await timed(`${base}/api/v1/cctv/ptz/${SHIP}/${CAMERA}/presets`, { headers: { [TOKEN_HEADER]: demo } });
    if (r.status === 200) break;
    await new Promise((r2) => setTimeout(r2, 200));
  }

  const json = (body: unknown) => ({ method: 'POST', headers: { [TOKEN_HEADER]: demo, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const hour = () => ({ from: Date.now() - 3_600_000, to: Date.now() });
  const bigBody = JSON.stringify({ shipId: SHIP, pad: 'x'.repeat(1_000_000) });
  const kinds: { name: string; send: () => Promise<{ ms: number; status: number }> }[] = [
    { name: 'ptz move', send: () => timed(`${base}/api/v1/cctv/ptz/${SHIP}/${CAMERA}/move`, json({ pan: 0.1, tilt: 0, zoom: 0, timeoutMs: 500 })) },
    { name: 'ship recordings query', send: () => timed(`${base}/cctvv3-server/v3/vod/query/${SHIP}/${CAMERA}/${hour().from}/${hour().to}`, { headers: { [TOKEN_HEADER]: demo } }) },
    { name: 'ship picture list', send: () => timed(`${base}/api/v1/cctv-server/v3/getPicList/${SHIP}`, json({ cameraId: CAMERA, ...hour() })) },
    { name: 'stills', send: () => timed(`${base}/api/v1/cctv/stills/${CAMERA}`, json({})) },
    { name: 'picture query', send: () => timed(`${base}/api/v1/cctv/snapshot/complexQuery/1/20`, json({ shipId: SHIP })) },
    { name: 'snapshot', send: () => timed(`${base}/cctvv3-server/v3/snapshot/requestPro/${SHIP}/${CHANNEL}/${CAMERA}/720/live`, { method: 'POST', headers: { [TOKEN_HEADER]: demo } }) },
    {
      name: '1 MB bodies',
      send: () => timed(`${base}/api/v1/cctv/snapshot/complexQuery/1/20`, { method: 'POST', headers: { [TOKEN_HEADER]: demo, 'content-type': 'application/json' }, body: bigBody }),
    },
  ];


  console.log(`burst of ${burstSize} parallel requests per kind, shore on :${port} (embedded PGlite, logger off)`);
  for (const kind of kinds.filter((k) => only.length === 0 || only.some((o) => k.name.startsWith(o)))) {
    // Quiet between kinds: buckets of the previous kind do not matter (each kind has its own).
    await new Promise((r) => setTimeout(r, 1_000));
    child.send('reset');
    probes.send({ type: 'start', base, duty } satisfies ToProbe);
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: burstSize }, () => kind.send()));
    const took = performance.now() - started;
    await new Promise((r) => setTimeout(r, 500));
    const samples = new Promise<Samples>((resolve) => probes.once('message', resolve));
    probes.send({ type: 'stop' } satisfies ToProbe);
    const { health, other } = await samples;
    child.send('read');
    const loop = await next();
    const byStatus = new Map<number, number>();
    for (const a of answers) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
    const f = loop.type === 'loop' ? loop.figures : undefined;
    console.log(`\n${kind.name}: ${[...byStatus].map(([s, n]) => `${n}×${s}`).join(', ')} in ${took.toFixed(0)} ms`);
    console.log(`  /healthz         ${summary(health)}`);
    console.log(`  another user     ${summary(other)}`);
    if (f) console.log(`  event-loop delay p50 ${f.p50.toFixed(0)} ms, p99 ${f.p99.toFixed(0)} ms, max ${f.max.toFixed(0)} ms; ship link ${f.linkUp && f.sameLink ? 'kept' : 'DROPPED'}`);
  }

  probes.disconnect();
  await new Promise((r) => probes.once('exit', r));
  child.send('stop');
  await new Promise((r) => child.once('exit', r));
}

const serveArg = process.argv.find((a) => a.startsWith('--serve='));
const probeArg = process.argv.find((a) => a.startsWith('--probe='));
if (serveArg) {
  void serve(Number(serveArg.slice('--serve='.length)));
} else if (probeArg) {
  const keyArg = process.argv.find((a) => a.startsWith('--key=')) ?? '--key=';
  void probeChild(probeArg.slice('--probe='.length), keyArg.slice('--key='.length));
} else {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
