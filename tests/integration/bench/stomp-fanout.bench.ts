/**
 * STOMP fan-out and idle link cost of the shore server, on loopback. Run from the repository root:
 *
 *   node --import tsx tests/integration/bench/stomp-fanout.bench.ts
 *     [--clients=1000] [--changes=20] [--idle-seconds=60] [--client=raw|stompjs] [--heartbeat-ms=1000]
 *
 * 1. Fan-out: a real shore (demo fleet, in-memory PGlite, logger off) runs in a child process so its
 *    CPU and memory are its own. This process opens `--clients` STOMP connections, all signed in
 *    with one demo token and subscribed to one ship's /shipStatus/{shipName}, connects that ship's
 *    real ShipAgent straight to shore and makes its LinkStatusSource report `--changes` link
 *    changes, one at a time. For each change it takes the time from the agent sending it to its
 *    arrival at every client: per-client latency, and the time until all clients had it.
 * 2. Idle link cost: meanwhile a second ship's agent sits idle behind a LinkShaper (VSAT profile)
 *    for `--idle-seconds`; shore's shipcctv_link_bytes_total{purpose="control"} up/down deltas give
 *    the control bytes an idle ship costs per minute, next to the TCP payload bytes the shaper
 *    carried (WebSocket frames, pings and pongs included).
 *
 * `--client=raw` (default) speaks STOMP 1.2 frames over plain `ws` sockets; `--client=stompjs` uses
 * @stomp/stompjs Clients instead, to see whether 1,000 of those fit in one process. Both send the
 * spec's 1000 ms heart-beats unless `--heartbeat-ms=0`. Not part of `npm test`; it stops by itself.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import WebSocket from 'ws';
import { Client } from '@stomp/stompjs';
import { type LinkReport, PATHS, dest } from '@ship-cctv/protocol';
import { type LinkStatusSource, ShipAgent } from '@ship-cctv/agent';
import { readFleetFile, syntheticCameras, LinkShaper, PROFILES } from '@ship-cctv/simulator';

const FANOUT_SHIP = { id: 'S1001', name: '蓝海之星' };
const IDLE_SHIP = 'S1003';
/** Opens /metrics on the bench's own server. */
const METRICS_TOKEN = 'bench-metrics';
/** The whole run is stopped after this, whatever state it is in. */
const HARD_LIMIT_MS = 175_000;
/** Changes not counted, before the measured ones (JIT, first-send paths). */
const WARMUP_CHANGES = 3;
/** A change every client has not had by then counts as not delivered. */
const DELIVERY_TIMEOUT_MS = 10_000;
/** Quiet time between changes, so each is measured alone. */
const GAP_MS = 150;
const CONNECT_CONCURRENCY = 100;
/** Before the changes: shore's CPU with every client connected and nothing published. */
const QUIET_MS = 2_000;

// ---- messages between this process and the shore child ----------------------------------------

interface Usage {
  cpuUserMs: number;
  cpuSystemMs: number;
  rssMiB: number;
  heapUsedMiB: number;
  externalMiB: number;
  stompConnections: number;
  subscribers: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}
type ToChild = { id: number; type: 'usage'; resetLoopDelay: boolean; gc: boolean } | { id: number; type: 'stop' };
type FromChild =
  | { type: 'ready'; port: number; token: string; fleetFile: string }
  | { type: 'failed'; error: string }
  | { id: number; type: 'usage'; usage: Usage }
  | { id: number; type: 'stopped' };

const MiB = 1024 * 1024;

/** A full garbage collection before a memory reading, so the figures are live memory, not garbage. */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;

// ---- the shore child ----------------------------------------------------------------------------

async function runShoreChild(): Promise<void> {
  const send = (msg: FromChild) => process.send?.(msg);
  try {
    const { buildApp } = await import('@ship-cctv/server');
    const { writeFleetFile } = await import('../../../apps/server/src/modules/fleet/fleet-file.ts');
    const app = await buildApp({ seedDemo: true, logger: false, metricsToken: METRICS_TOKEN });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const dir = mkdtempSync(join(tmpdir(), 'stomp-fanout-bench-'));
    const fleetFile = join(dir, 'fleet.json');
    await writeFleetFile(app.database.db, app.agentKeys, fleetFile, `ws://127.0.0.1:${address.port}`);
    const logon = await app.inject({ method: 'POST', url: '/api/v1/sys/logon', payload: { username: 'demo', password: 'demo-pass' } });
    const token = logon.json<{ data: { token: string } }>().data.token;
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();

    process.on('message', (msg: ToChild) => {
      if (msg.type === 'usage') {
        const cpu = process.cpuUsage();
        if (msg.gc) collectGarbage();
        const mem = process.memoryUsage();
        send({
          id: msg.id,
          type: 'usage',
          usage: {
            cpuUserMs: cpu.user / 1000,
            cpuSystemMs: cpu.system / 1000,
            rssMiB: mem.rss / MiB,
            heapUsedMiB: mem.heapUsed / MiB,
            externalMiB: mem.external / MiB,
            stompConnections: app.stomp.connectionCount(),
            subscribers: app.stomp.subscriberCount(dest.shipStatus(FANOUT_SHIP.name)),
            loopDelayP99Ms: loop.percentile(99) / 1e6,
            loopDelayMaxMs: loop.max / 1e6,
          },
        });
        if (msg.resetLoopDelay) loop.reset();
      } else {
        void app.close().finally(() => {
          rmSync(dir, { recursive: true, force: true });
          send({ id: msg.id, type: 'stopped' });
          process.exit(0);
        });
      }
    });
    // Parent gone (crashed, killed): do not linger.
    process.on('disconnect', () => process.exit(0));
    send({ type: 'ready', port: address.port, token, fleetFile });
  } catch (err) {
    send({ type: 'failed', error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    process.exit(1);
  }
}

class ShoreChild {
  private seq = 0;
  private readonly pending = new Map<number, (msg: FromChild) => void>();

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
    readonly token: string,
    readonly fleetFile: string,
  ) {
    child.on('message', (msg: FromChild) => {
      if (!('id' in msg)) return;
      this.pending.get(msg.id)?.(msg);
      this.pending.delete(msg.id);
    });
  }

  static start(): Promise<ShoreChild> {
    const child = fork(fileURLToPath(import.meta.url), ['--shore-child'], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    return new Promise((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`shore child exited (${code}) before it was ready`)));
      child.once('message', (msg: FromChild) => {
        if (msg.type === 'ready') resolve(new ShoreChild(child, msg.port, msg.token, msg.fleetFile));
        else reject(new Error(msg.type === 'failed' ? msg.error : `unexpected ${msg.type}`));
      });
    });
  }

  private ask(msg: ToChild): Promise<FromChild> {
    return new Promise((resolve) => {
      this.pending.set(msg.id, resolve);
      this.child.send(msg);
    });
  }

  async usage(opts: { resetLoopDelay?: boolean; gc?: boolean } = {}): Promise<Usage> {
    const reply = await this.ask({ id: ++this.seq, type: 'usage', resetLoopDelay: opts.resetLoopDelay ?? false, gc: opts.gc ?? false });
    if (reply.type !== 'usage') throw new Error(`unexpected ${reply.type}`);
    return reply.usage;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    await Promise.race([this.ask({ id: ++this.seq, type: 'stop' }), new Promise((r) => setTimeout(r, 5_000))]);
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
    await exited;
  }
}

// ---- STOMP clients ----------------------------------------------------------------------------

interface StatusClient {
  close(): void;
}
type OnStatus = (body: string) => void;

function connectFrame(token: string, heartbeatMs: number): string {
  return `CONNECT\naccept-version:1.2\nhost:127.0.0.1\ncas-jwt:${token}\nheart-beat:${heartbeatMs},${heartbeatMs}\n\n\0`;
}

/**
 * A minimal STOMP 1.2 subscriber over `ws`: CONNECT, one SUBSCRIBE with a receipt, then MESSAGE
 * bodies to `onStatus`. Resolves once the subscription's RECEIPT arrived (after its snapshot).
 */
function openRawClient(port: number, token: string, destination: string, heartbeatMs: number, onStatus: OnStatus, sockets: Set<WebSocket>): Promise<StatusClient> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${PATHS.stomp}`, ['v12.stomp'], { perMessageDeflate: false });
    let ready = false;
    const fail = (why: string) => {
      if (!ready) reject(new Error(why));
      ws.terminate();
    };
    ws.on('open', () => ws.send(connectFrame(token, heartbeatMs)));
    ws.on('error', (err) => fail(err.message));
    ws.on('close', (code) => {
      sockets.delete(ws);
      if (!ready) reject(new Error(`closed ${code} before subscribing`));
    });
    ws.on('message', (data: Buffer) => {
      // The server sends one frame (or one heart-beat EOL) per WebSocket message.
      let text = data.toString('utf8');
      let start = 0;
      while (start < text.length && (text[start] === '\n' || text[start] === '\r')) start++;
      if (start === text.length) return;
      text = text.slice(start);
      const eol = text.indexOf('\n');
      const command = text.slice(0, eol);
      const headersEnd = text.indexOf('\n\n');
      const nul = text.indexOf('\0', headersEnd);
      const body = text.slice(headersEnd + 2, nul < 0 ? undefined : nul);
      switch (command) {
        case 'MESSAGE':
          onStatus(body);
          return;
        case 'CONNECTED':
          sockets.add(ws);
          ws.send(`SUBSCRIBE\nid:0\ndestination:${destination}\nack:auto\nreceipt:sub-0\n\n\0`);
          return;
        case 'RECEIPT':
          ready = true;
          resolve({ close: () => ws.close(1000) });
          return;
        case 'ERROR':
          fail(`ERROR ${/\nmessage:([^\n]*)/.exec(text)?.[1] ?? ''}`);
          return;
      }
    });
  });
}

function openStompjsClient(port: number, token: string, destination: string, heartbeatMs: number, onStatus: OnStatus): Promise<StatusClient> {
  const client = new Client({
    webSocketFactory: () => new WebSocket(`ws://127.0.0.1:${port}${PATHS.stomp}`, ['v12.stomp'], { perMessageDeflate: false }),
    connectHeaders: { 'cas-jwt': token },
    heartbeatIncoming: heartbeatMs,
    heartbeatOutgoing: heartbeatMs,
    reconnectDelay: 0,
  });
  return new Promise((resolve, reject) => {
    client.onStompError = (f) => reject(new Error(`ERROR ${f.headers.message ?? ''}`));
    client.onWebSocketClose = () => reject(new Error('closed before subscribing'));
    client.onConnect = () => {
      const receipt = 'sub-0';
      client.watchForReceipt(receipt, () => resolve({ close: () => void client.deactivate() }));
      client.subscribe(destination, (m) => onStatus(m.body), { receipt });
    };
    client.activate();
  });
}

// ---- helpers ----------------------------------------------------------------------------------

function settableLink(report: LinkReport): LinkStatusSource & { set(r: LinkReport): void } {
  const listeners = new Set<(r: LinkReport) => void>();
  let current = report;
  return {
    current: () => current,
    onChange: (l) => (listeners.add(l), () => listeners.delete(l)),
    set(r) {
      current = r;
      for (const l of listeners) l(r);
    },
  };
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? Number.NaN;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function controlBytes(port: number, shipId: string): Promise<{ up: number; down: number }> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const read = (direction: string) => {
    const m = new RegExp(`^shipcctv_link_bytes_total\\{ship="${shipId}",direction="${direction}",purpose="control"\\} (\\d+)$`, 'm').exec(text);
    return m ? Number(m[1]) : Number.NaN;
  };
  return { up: read('up'), down: read('down') };
}

function args(): { clients: number; changes: number; idleSeconds: number; kind: 'raw' | 'stompjs'; heartbeatMs: number } {
  const get = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
  const kind = get('client', 'raw');
  if (kind !== 'raw' && kind !== 'stompjs') throw new Error('--client must be raw or stompjs');
  const changes = Number(get('changes', '20'));
  if (!(changes >= 1 && changes + WARMUP_CHANGES < 100)) throw new Error(`--changes must be 1..${99 - WARMUP_CHANGES}`);
  return { clients: Number(get('clients', '1000')), changes, idleSeconds: Number(get('idle-seconds', '60')), kind, heartbeatMs: Number(get('heartbeat-ms', '1000')) };
}

// ---- the run ----------------------------------------------------------------------------------

async function main(): Promise<void> {
  const opts = args();
  const hardStop = setTimeout(() => {
    console.error(`stomp-fanout: still running after ${HARD_LIMIT_MS / 1000} s; giving up`);
    process.exit(2);
  }, HARD_LIMIT_MS);
  hardStop.unref();

  const started = performance.now();
  const shore = await ShoreChild.start();
  const fleet = readFleetFile(shore.fleetFile);
  const shipOf = (id: string) => {
    const s = fleet.ships.find((x) => x.shipId === id);
    if (!s) throw new Error(`${id} not in the fleet file`);
    return s;
  };
  const cleanups: (() => Promise<void> | void)[] = [];
  console.log(`stomp-fanout: shore on 127.0.0.1:${shore.port} (pid ${shore.child.pid}); ${opts.clients} ${opts.kind} clients, ${opts.changes} changes, heart-beat ${opts.heartbeatMs} ms, idle ${opts.idleSeconds} s`);

  try {
    // -- idle ship behind an emulated VSAT link; its minute starts after the hello has settled --
    let idle: { agent: ShipAgent; shaper: LinkShaper; startedAt: number; bytes0: { up: number; down: number }; tcp0: { up: number; down: number } } | undefined;
    if (opts.idleSeconds > 0) {
      const ship = shipOf(IDLE_SHIP);
      const shaper = new LinkShaper({ target: { port: shore.port }, profile: PROFILES.VSAT });
      await shaper.listen();
      const agent = new ShipAgent({ shoreUrl: `ws://127.0.0.1:${shaper.port}`, shipId: ship.shipId, key: ship.key, cameras: ship.cameras }, settableLink({ linkType: 'VSAT', quality: 80, duplex: 'BOTH' }), { cameraKinds: [syntheticCameras()] });
      cleanups.push(async () => {
        await agent.stop();
        await shaper.close();
      });
      const connected = new Promise<void>((resolve) => agent.once('connected', () => resolve()));
      agent.start();
      await connected;
      await sleep(2_000);
      idle = { agent, shaper, startedAt: performance.now(), bytes0: await controlBytes(shore.port, ship.shipId), tcp0: shaper.bytes };
    }

    // -- clients --
    const destination = dest.shipStatus(FANOUT_SHIP.name);
    const total = WARMUP_CHANGES + opts.changes;
    /** arrivals[k][c]: when client c got change k (quality k + 1); NaN until then. */
    const arrivals = Array.from({ length: total }, () => new Float64Array(opts.clients).fill(Number.NaN));
    const delivered = new Array<number>(total).fill(0);
    const waiters = new Map<number, () => void>();
    /** The agent's hello (quality 100) reached every client: the start line. */
    let helloCount = 0;
    let helloDone: (() => void) | undefined;
    const onStatusFor =
      (c: number): OnStatus =>
      (body) => {
        const at = performance.now();
        const q = (JSON.parse(body) as { quality: number }).quality;
        if (q === 100) {
          if (++helloCount === opts.clients) helloDone?.();
          return;
        }
        const k = q - 1;
        const row = arrivals[k];
        if (!row || !Number.isNaN(row[c] ?? 0)) return;
        row[c] = at;
        delivered[k] = (delivered[k] ?? 0) + 1;
        if (delivered[k] === opts.clients) waiters.get(k)?.();
      };

    const sockets = new Set<WebSocket>();
    const clients: StatusClient[] = [];
    cleanups.push(() => {
      for (const c of clients) c.close();
    });
    // Raw clients heart-beat from their CONNECTED on (stompjs ones do it themselves): shore drops a
    // client silent for more than twice the interval plus a second.
    if (opts.kind === 'raw' && opts.heartbeatMs > 0) {
      const heartbeatTimer = setInterval(() => {
        for (const ws of sockets) if (ws.readyState === WebSocket.OPEN) ws.send('\n');
      }, opts.heartbeatMs);
      cleanups.push(() => clearInterval(heartbeatTimer));
    }
    const beforeClients = await shore.usage({ gc: true });
    collectGarbage();
    const memBefore = process.memoryUsage();
    const t0 = performance.now();
    let failures = 0;
    let firstFailure = '';
    for (let base = 0; base < opts.clients; base += CONNECT_CONCURRENCY) {
      const batch = [];
      for (let c = base; c < Math.min(opts.clients, base + CONNECT_CONCURRENCY); c++) {
        const opened =
          opts.kind === 'raw'
            ? openRawClient(shore.port, shore.token, destination, opts.heartbeatMs, onStatusFor(c), sockets)
            : openStompjsClient(shore.port, shore.token, destination, opts.heartbeatMs, onStatusFor(c));
        batch.push(
          opened.then(
            (client) => void clients.push(client),
            (err: unknown) => {
              failures++;
              firstFailure ||= err instanceof Error ? err.message : String(err);
            },
          ),
        );
      }
      await Promise.all(batch);
    }
    const connectMs = performance.now() - t0;
    if (failures > 0) throw new Error(`${failures} of ${opts.clients} clients failed to subscribe (first: ${firstFailure})`);
    collectGarbage();
    const memClients = process.memoryUsage();
    const afterClients = await shore.usage({ gc: true });
    console.log(
      `clients: ${clients.length} subscribed in ${Math.round(connectMs)} ms; shore sees ${afterClients.stompConnections} STOMP connections, ${afterClients.subscribers} subscribers on ${destination}`,
    );

    // -- the fan-out ship's agent, straight to shore --
    const ship = shipOf(FANOUT_SHIP.id);
    const link = settableLink({ linkType: 'VSAT', quality: 100, duplex: 'BOTH' });
    const agent = new ShipAgent({ shoreUrl: `ws://127.0.0.1:${shore.port}`, shipId: ship.shipId, key: ship.key, cameras: ship.cameras }, link, { cameraKinds: [syntheticCameras()] });
    cleanups.push(() => agent.stop());
    const helloSeen = new Promise<void>((resolve) => (helloDone = resolve));
    agent.start();
    await Promise.race([helloSeen, sleep(DELIVERY_TIMEOUT_MS).then(() => Promise.reject(new Error(`the agent's hello reached ${helloCount} of ${opts.clients} clients`)))]);
    // A quiet stretch first: what shore spends on the clients' heart-beats alone, to take off below.
    await sleep(500);
    const quiet0 = await shore.usage();
    const quietT0 = performance.now();
    await sleep(QUIET_MS);
    const quiet1 = await shore.usage();
    const quietCpuPerMs = (quiet1.cpuUserMs + quiet1.cpuSystemMs - quiet0.cpuUserMs - quiet0.cpuSystemMs) / (performance.now() - quietT0);

    // -- changes, one at a time --
    const sentAt = new Array<number>(total).fill(Number.NaN);
    let fanoutUsage0: Usage | undefined;
    let fanoutT0 = 0;
    for (let k = 0; k < total; k++) {
      if (k === WARMUP_CHANGES) {
        fanoutUsage0 = await shore.usage({ resetLoopDelay: true });
        fanoutT0 = performance.now();
      }
      const all = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), DELIVERY_TIMEOUT_MS);
        waiters.set(k, () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      sentAt[k] = performance.now();
      link.set({ linkType: k % 2 === 0 ? 'FBB' : 'VSAT', quality: k + 1, duplex: 'BOTH' });
      await all;
      waiters.delete(k);
      await sleep(GAP_MS);
    }
    const fanoutWallMs = performance.now() - fanoutT0;
    const fanoutUsage1 = await shore.usage();
    const fanoutUsageGc = await shore.usage({ gc: true });

    const perClient: number[] = [];
    const allDelivered: number[] = [];
    let missing = 0;
    for (let k = WARMUP_CHANGES; k < total; k++) {
      const row = arrivals[k] ?? new Float64Array();
      const sent = sentAt[k] ?? Number.NaN;
      let last = 0;
      for (const at of row) {
        if (Number.isNaN(at)) {
          missing++;
          continue;
        }
        perClient.push(at - sent);
        last = Math.max(last, at - sent);
      }
      if ((delivered[k] ?? 0) === opts.clients) allDelivered.push(last);
    }
    perClient.sort((a, b) => a - b);
    allDelivered.sort((a, b) => a - b);
    const u0 = fanoutUsage0 ?? afterClients;
    const cpuMs = fanoutUsage1.cpuUserMs + fanoutUsage1.cpuSystemMs - (u0.cpuUserMs + u0.cpuSystemMs);

    console.log('');
    console.log(`fan-out of /shipStatus/{shipName}: ${opts.changes} link changes (after ${WARMUP_CHANGES} warm-up) to ${opts.clients} ${opts.kind} clients`);
    console.log(`  per-client latency, agent send → client:   p50 ${round(percentile(perClient, 50), 2)} ms   p99 ${round(percentile(perClient, 99), 2)} ms   max ${round(percentile(perClient, 100), 2)} ms   (${perClient.length} deliveries, ${missing} missing)`);
    console.log(`  all ${opts.clients} delivered, agent send → last:  p50 ${round(percentile(allDelivered, 50), 2)} ms   p99 ${round(percentile(allDelivered, 99), 2)} ms   max ${round(percentile(allDelivered, 100), 2)} ms   (${allDelivered.length} of ${opts.changes} changes complete)`);
    console.log('');
    console.log(`shore server process (pid ${shore.child.pid}):`);
    console.log(`  before clients:     rss ${round(beforeClients.rssMiB)} MiB   heap used ${round(beforeClients.heapUsedMiB)} MiB   external ${round(beforeClients.externalMiB)} MiB`);
    console.log(
      `  with ${opts.clients} clients:  rss ${round(afterClients.rssMiB)} MiB   heap used ${round(afterClients.heapUsedMiB)} MiB   external ${round(afterClients.externalMiB)} MiB   (≈ ${round(((afterClients.heapUsedMiB - beforeClients.heapUsedMiB) * 1024) / opts.clients)} KiB heap per connection)`,
    );
    console.log(`  after the changes:  rss ${round(fanoutUsageGc.rssMiB)} MiB   heap used ${round(fanoutUsageGc.heapUsedMiB)} MiB   external ${round(fanoutUsageGc.externalMiB)} MiB`);
    console.log('  (memory read after a full GC; rss and external include the embedded PGlite database, ~0.2–0.6 GiB of WebAssembly memory)');
    console.log(
      `  CPU while subscribing: ${Math.round(afterClients.cpuUserMs + afterClients.cpuSystemMs - beforeClients.cpuUserMs - beforeClients.cpuSystemMs)} ms for ${opts.clients} CONNECT+SUBSCRIBE`,
    );
    const netCpuMs = cpuMs - quietCpuPerMs * fanoutWallMs;
    console.log(`  CPU with the clients connected and nothing published (heart-beats): ${round(quietCpuPerMs * 100)} % of one core`);
    console.log(
      `  CPU during the measured changes: ${Math.round(cpuMs)} ms over ${round(fanoutWallMs / 1000, 2)} s wall = ${round((cpuMs / fanoutWallMs) * 100)} % of one core; less the heart-beat baseline ≈ ${round(netCpuMs / opts.changes, 2)} ms per change (${round((netCpuMs / opts.changes / opts.clients) * 1000, 1)} µs per delivered message)`,
    );
    console.log(`  event-loop delay during the changes: p99 ${round(fanoutUsage1.loopDelayP99Ms, 2)} ms   max ${round(fanoutUsage1.loopDelayMaxMs, 2)} ms`);
    console.log(`bench (client) process: rss ${round(memBefore.rss / MiB)} → ${round(memClients.rss / MiB)} MiB with the clients (heap used ${round(memBefore.heapUsed / MiB)} → ${round(memClients.heapUsed / MiB)} MiB, ≈ ${round((memClients.heapUsed - memBefore.heapUsed) / 1024 / opts.clients)} KiB heap per ${opts.kind} client)`);

    // -- idle ship: wait out its window --
    if (idle) {
      const windowMs = opts.idleSeconds * 1000;
      const left = windowMs - (performance.now() - idle.startedAt);
      if (left > 0) {
        console.log(`\nwaiting ${Math.round(left / 1000)} s more for the idle ship's ${opts.idleSeconds} s window…`);
        await sleep(left);
      }
      const elapsedMin = (performance.now() - idle.startedAt) / 60_000;
      const bytes1 = await controlBytes(shore.port, IDLE_SHIP);
      const tcp1 = idle.shaper.bytes;
      const perMin = (a: number, b: number) => round((b - a) / elapsedMin);
      console.log('');
      console.log(`idle ship ${IDLE_SHIP} (agent behind a VSAT LinkShaper, default liveness: shore pings after 5 s of silence), ${round(elapsedMin * 60)} s window:`);
      console.log(
        `  shipcctv_link_bytes_total{purpose="control"}: up ${bytes1.up - idle.bytes0.up} B, down ${bytes1.down - idle.bytes0.down} B  →  up ${perMin(idle.bytes0.up, bytes1.up)} B/min, down ${perMin(idle.bytes0.down, bytes1.down)} B/min, total ${perMin(idle.bytes0.up + idle.bytes0.down, bytes1.up + bytes1.down)} B/min`,
      );
      console.log(
        `  LinkShaper TCP payload bytes:                 up ${tcp1.up - idle.tcp0.up} B, down ${tcp1.down - idle.tcp0.down} B  →  up ${perMin(idle.tcp0.up, tcp1.up)} B/min, down ${perMin(idle.tcp0.down, tcp1.down)} B/min, total ${perMin(idle.tcp0.up + idle.tcp0.down, tcp1.up + tcp1.down)} B/min`,
      );
      console.log('  (TCP/IP headers and ACKs, ~40+ B per segment each way, come on top of both figures.)');
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await shore.stop();
    console.log(`\nstomp-fanout: done in ${round((performance.now() - started) / 1000)} s`);
    clearTimeout(hardStop);
  }
}

if (process.argv.includes('--shore-child')) await runShoreChild();
else await main();
