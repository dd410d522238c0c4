/**
 * One signed-in user flooding the sockets, and what everybody else feels. Run from the repository root:
 *
 *   node --import tsx tests/integration/bench/socket-abuse.bench.ts [--port=21210] [--plays=1000,2000] [--subscriptions=2000]
 *
 * A real shore (demo fleet, in-memory PGlite — the embedded database, whose queries run on the
 * server's main thread —, logger off) runs in a child process on `--port`; every demo ship's real
 * ShipAgent connects to it from this process (synthetic cameras). Then, one burst at a time:
 *
 * - `plays:N`: one media socket of user `demo` sends N `play` messages (live, cameras of the demo
 *   fleet in turn) in one go, and waits until the server has answered or closed the socket;
 * - `subscriptions:N`: 8 STOMP connections of `demo` send N SUBSCRIBE frames between them.
 *
 * During each burst, and for a quiet second before it, this process asks `/healthz` every 20 ms and
 * user `duty` (another user) asks for its organisation and ship tree every 100 ms, and the shore child reports its
 * event-loop lag. Printed per burst: /healthz p50/p99/max, the other user's p50/p99/max, the
 * shore's event-loop delay p99/max, how long the burst took to be dealt with, what the flooding
 * socket was told, and how many agent links dropped. Not part of `npm test`; it stops by itself.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import WebSocket from 'ws';
import { PATHS, TOKEN_HEADER, dest } from '@ship-cctv/protocol';
import { type LinkStatusSource, ShipAgent } from '@ship-cctv/agent';
import { readFleetFile, syntheticCameras } from '@ship-cctv/simulator';
import { demoShips } from '../../../apps/server/src/core/db/demo-fleet.ts';

const HARD_LIMIT_MS = 400_000;
/** A burst not dealt with by then is reported as such and the run goes on. */
const BURST_TIMEOUT_MS = 90_000;
const HEALTH_EVERY_MS = 20;
const OTHER_USER_EVERY_MS = 100;
const STOMP_CONNECTIONS = 8;
/** What the other user keeps asking: the organisation and ship tree (database reads, like most requests). */
const OTHER_USER_REQUEST = '/api/v1/cctv/monitor/getOrgShipTreeUnion';

type ToChild = { id: number; type: 'lag'; reset: boolean } | { id: number; type: 'stop' };
type FromChild =
  | { type: 'ready'; port: number; fleetFile: string }
  | { type: 'failed'; error: string }
  | { id: number; type: 'lag'; p99Ms: number; maxMs: number }
  | { id: number; type: 'stopped' };

// ---- the shore child ----------------------------------------------------------------------------

async function runShoreChild(port: number): Promise<void> {
  const send = (msg: FromChild) => process.send?.(msg);
  try {
    const { buildApp } = await import('@ship-cctv/server');
    const { writeFleetFile } = await import('../../../apps/server/src/modules/fleet/fleet-file.ts');
    const app = await buildApp({ seedDemo: true, logger: false });
    await app.listen({ port, host: '127.0.0.1' });
    const dir = mkdtempSync(join(tmpdir(), 'socket-abuse-bench-'));
    const fleetFile = join(dir, 'fleet.json');
    await writeFleetFile(app.database.db, app.agentKeys, fleetFile, `ws://127.0.0.1:${port}`);
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    process.on('message', (msg: ToChild) => {
      if (msg.type === 'lag') {
        send({ id: msg.id, type: 'lag', p99Ms: loop.percentile(99) / 1e6, maxMs: loop.max / 1e6 });
        if (msg.reset) loop.reset();
        return;
      }
      void app.close().finally(() => {
        rmSync(dir, { recursive: true, force: true });
        send({ id: msg.id, type: 'stopped' });
        process.exit(0);
      });
    });
    process.on('disconnect', () => process.exit(0));
    send({ type: 'ready', port, fleetFile });
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
    readonly fleetFile: string,
  ) {
    child.on('message', (msg: FromChild) => {
      if (!('id' in msg)) return;
      this.pending.get(msg.id)?.(msg);
      this.pending.delete(msg.id);
    });
  }

  static start(port: number): Promise<ShoreChild> {
    const child = fork(fileURLToPath(import.meta.url), ['--shore-child', `--port=${port}`], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    return new Promise((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`shore child exited (${code}) before it was ready`)));
      child.once('message', (msg: FromChild) => {
        if (msg.type === 'ready') resolve(new ShoreChild(child, msg.port, msg.fleetFile));
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

  async lag(reset: boolean): Promise<{ p99Ms: number; maxMs: number }> {
    const reply = await this.ask({ id: ++this.seq, type: 'lag', reset });
    if (reply.type !== 'lag') throw new Error(`unexpected ${reply.type}`);
    return { p99Ms: reply.p99Ms, maxMs: reply.maxMs };
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    await Promise.race([this.ask({ id: ++this.seq, type: 'stop' }), new Promise((r) => setTimeout(r, 5_000))]);
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
    await exited;
  }
}

// ---- probes -------------------------------------------------------------------------------------

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number) => Math.round(n);

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

/**
 * Asks `url` every `everyMs` (one request at a time: the next goes when the last answered and the
 * interval passed) and records each request's latency until stopped. A request still open when
 * stopped counts with the time it has waited so far.
 */
function probe(url: string, everyMs: number, headers: Record<string, string> = {}): { stop(): Promise<number[]> } {
  const latencies: number[] = [];
  let running = true;
  let openSince: number | undefined;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      openSince = t0;
      try {
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${url} answered ${res.status}`);
      } catch (err) {
        if (running) console.error(`probe ${url}: ${(err as Error).message}`);
      }
      openSince = undefined;
      latencies.push(performance.now() - t0);
      await sleep(Math.max(0, everyMs - (performance.now() - t0)));
    }
  })();
  return {
    async stop() {
      running = false;
      const waited = openSince;
      await Promise.race([loop, sleep(1_000)]);
      if (openSince !== undefined && waited !== undefined) latencies.push(performance.now() - waited);
      return latencies;
    },
  };
}

async function logon(port: number, username: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/sys/logon`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'demo-pass' }),
  });
  if (!res.ok) throw new Error(`logon ${username}: ${res.status}`);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

// ---- bursts -------------------------------------------------------------------------------------

/** What the flooding side saw: the answers by kind, and how the socket ended. */
interface BurstOutcome {
  answers: Record<string, number>;
  closed: string | undefined;
  timedOut: boolean;
}

/**
 * One media socket sends `n` plays in one go. Done when the socket closed or the answers stopped
 * coming for 2 s after at least one came (every play is answered or superseded).
 */
function floodPlays(port: number, token: string, cameraIds: readonly string[], n: number): Promise<BurstOutcome> {
  return new Promise((resolve) => {
    const answers: Record<string, number> = {};
    let closed: string | undefined;
    let quiet: NodeJS.Timeout | undefined;
    const ws = new WebSocket(`ws://127.0.0.1:${port}${PATHS.media}?token=${encodeURIComponent(token)}`, { perMessageDeflate: false });
    const finish = (timedOut: boolean) => {
      clearTimeout(quiet);
      clearTimeout(limit);
      ws.terminate();
      resolve({ answers, closed, timedOut });
    };
    const limit = setTimeout(() => finish(true), BURST_TIMEOUT_MS);
    ws.on('open', () => {
      for (let i = 0; i < n; i++) ws.send(JSON.stringify({ type: 'play', mode: 'live', cameraId: cameraIds[i % cameraIds.length] }));
    });
    ws.on('message', (data, isBinary) => {
      const key = isBinary ? 'media bytes' : ((): string => {
        const m = JSON.parse(String(data)) as { type: string; state?: string; code?: string };
        return `${m.type}${m.state ? `:${m.state}` : ''}${m.code ? `:${m.code}` : ''}`;
      })();
      answers[key] = (answers[key] ?? 0) + 1;
      clearTimeout(quiet);
      quiet = setTimeout(() => finish(false), 2_000);
    });
    ws.on('close', (code, reason) => {
      closed = `${code} ${reason.toString()}`.trim();
      finish(false);
    });
    ws.on('error', () => undefined);
  });
}

/** `n` SUBSCRIBE frames over STOMP_CONNECTIONS connections; done when each connection has had its receipt or its ERROR. */
async function floodSubscriptions(port: number, token: string, destinations: readonly string[], n: number): Promise<BurstOutcome> {
  const answers: Record<string, number> = {};
  let closed: string | undefined;
  const perConnection = Math.ceil(n / STOMP_CONNECTIONS);
  const one = (c: number) =>
    new Promise<void>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}${PATHS.stomp}`, ['v12.stomp'], { perMessageDeflate: false });
      const done = () => {
        ws.terminate();
        resolve();
      };
      ws.on('open', () => ws.send(`CONNECT\naccept-version:1.2\nhost:127.0.0.1\ncas-jwt:${token}\nheart-beat:0,0\n\n\0`));
      ws.on('message', (data: Buffer) => {
        const text = data.toString('utf8').replace(/^\n+/, '');
        const command = text.slice(0, text.indexOf('\n'));
        answers[command] = (answers[command] ?? 0) + 1;
        if (command === 'CONNECTED') {
          let frames = '';
          for (let i = 0; i < perConnection; i++) {
            const last = i === perConnection - 1;
            frames += `SUBSCRIBE\nid:${c}-${i}\ndestination:${destinations[i % destinations.length]}\n${last ? 'receipt:last\n' : ''}\n\0`;
          }
          ws.send(frames);
        } else if (command === 'RECEIPT') done();
        else if (command === 'ERROR') closed = /\nmessage:([^\n]*)/.exec(text)?.[1];
      });
      ws.on('close', () => done());
      ws.on('error', () => undefined);
    });
  let timedOut = false;
  await Promise.race([
    Promise.all(Array.from({ length: STOMP_CONNECTIONS }, (_, c) => one(c))),
    sleep(BURST_TIMEOUT_MS).then(() => (timedOut = true)),
  ]);
  return { answers, closed, timedOut };
}

// ---- the run ------------------------------------------------------------------------------------

function args(): { port: number; plays: number[]; subscriptions: number } {
  const get = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
  return {
    port: Number(get('port', '21210')),
    plays: get('plays', '1000,2000')
      .split(',')
      .filter(Boolean)
      .map(Number),
    subscriptions: Number(get('subscriptions', '2000')),
  };
}

const fixedLink = (): LinkStatusSource => ({ current: () => ({ linkType: 'VSAT', quality: 80, duplex: 'BOTH' }), onChange: () => () => undefined });

async function main(): Promise<void> {
  const opts = args();
  const hardStop = setTimeout(() => {
    console.error(`socket-abuse: still running after ${HARD_LIMIT_MS / 1000} s; giving up`);
    process.exit(2);
  }, HARD_LIMIT_MS);
  hardStop.unref();

  const shore = await ShoreChild.start(opts.port);
  const base = `http://127.0.0.1:${shore.port}`;
  const fleet = readFleetFile(shore.fleetFile);
  const agents: ShipAgent[] = [];
  let drops = 0;
  try {
    for (const ship of fleet.ships) {
      const agent = new ShipAgent({ shoreUrl: `ws://127.0.0.1:${shore.port}`, shipId: ship.shipId, key: ship.key, cameras: ship.cameras }, fixedLink(), { cameraKinds: [syntheticCameras()] });
      agent.on('disconnected', (why: string) => {
        drops++;
        console.log(`  agent ${ship.shipId} link dropped: ${why}`);
      });
      const connected = new Promise<void>((resolve) => agent.once('connected', () => resolve()));
      agent.start();
      await connected;
      agents.push(agent);
    }
    const demo = await logon(shore.port, 'demo');
    const duty = await logon(shore.port, 'duty');
    const cameraIds = fleet.ships.flatMap((s) => s.cameras.map((c) => c.cameraId));
    const destinations = demoShips.map((s) => dest.shipStatus(s.name));
    console.log(`socket-abuse: shore on ${base} (pid ${shore.child.pid}); ${agents.length} agents connected; ${cameraIds.length} cameras`);
    await sleep(2_000);

    const bursts: { name: string; run: () => Promise<BurstOutcome> }[] = [
      ...opts.plays.map((n) => ({ name: `plays:${n}`, run: () => floodPlays(shore.port, demo, cameraIds, n) })),
      ...(opts.subscriptions > 0 ? [{ name: `subscriptions:${opts.subscriptions}`, run: () => floodSubscriptions(shore.port, demo, destinations, opts.subscriptions) }] : []),
    ];
    for (const burst of bursts) {
      const dropsBefore = drops;
      await shore.lag(true);
      const health = probe(`${base}/healthz`, HEALTH_EVERY_MS);
      const other = probe(`${base}${OTHER_USER_REQUEST}`, OTHER_USER_EVERY_MS, { [TOKEN_HEADER]: duty });
      await sleep(1_000);
      const t0 = performance.now();
      const outcome = await burst.run();
      const tookMs = performance.now() - t0;
      // The server may still be busy with what the burst left behind.
      await sleep(2_000);
      const [h, o] = await Promise.all([health.stop(), other.stop()]);
      const lag = await shore.lag(true);
      console.log(
        [
          `${burst.name}: dealt with in ${round(tookMs)} ms${outcome.timedOut ? ' (TIMED OUT)' : ''}`,
          `  /healthz            p50 ${round(percentile(h, 50))} ms  p99 ${round(percentile(h, 99))} ms  max ${round(Math.max(...h))} ms  (${h.length} requests)`,
          `  other user's tree   p50 ${round(percentile(o, 50))} ms  p99 ${round(percentile(o, 99))} ms  max ${round(Math.max(...o))} ms  (${o.length} requests)`,
          `  event-loop delay    p99 ${round(lag.p99Ms)} ms  max ${round(lag.maxMs)} ms`,
          `  flooder was told    ${JSON.stringify(outcome.answers)}${outcome.closed ? `; closed: ${outcome.closed}` : ''}`,
          `  agent links dropped ${drops - dropsBefore}`,
        ].join('\n'),
      );
      // Let lingering streams stop before the next burst.
      await sleep(3_000);
    }
  } finally {
    await Promise.all(agents.map((a) => a.stop()));
    await shore.stop();
  }
  process.exit(0);
}

if (process.argv.includes('--shore-child')) {
  const port = Number(process.argv.find((a) => a.startsWith('--port='))?.split('=')[1] ?? '0');
  void runShoreChild(port);
} else {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
