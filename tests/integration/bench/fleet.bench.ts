/**
 * A fleet at scale: what ships cost the shore when nobody watches them, and how the fleet comes back
 * when its links all go at once. Three shore instances (processes, `apps/server/src/server.ts`) on
 * one throw-away PostgreSQL database and a redis-server of the bench's own (so its command counts
 * are the cluster's alone, and it can be paused); N light ships (the agent link without video,
 * @ship-cctv/simulator's LightShip) in this process, dialling haproxy in front of the instances
 * (the demo cluster's configuration, `scripts/demo-cluster.mjs`) or, with `--direct`, the next
 * instance in turn at every dial (a round-robin balancer's choice without a balancer in between);
 * 500 operator STOMP sessions watching ship status, spread evenly over the instances (they all sign
 * in as one user, whose subscriptions each instance bounds).
 *
 * Phases, each with its figures:
 * 1. cold start: every ship dials at once → time until all are online, CPU per instance (mean, the
 *    highest second, seconds above 80 %), hellos refused by admission;
 * 2. steady: nobody watching video → memory per idle ship (each instance's RSS with its ships less
 *    before them), CPU per instance, Redis commands per ship per minute (INFO commandstats), database
 *    rows written per minute, ships per instance;
 * 3. status delivery: ships change link, operators watching them time each change (p50, p99);
 * 4. restart: every instance stopped (SIGTERM) and started again at once → time until all online;
 * 5. kill one: one instance SIGKILLed → time until its ships are online on the others;
 * 6. Redis paused 15 s (CLIENT PAUSE ALL) → links dropped, time until status flows again.
 *
 * CPU is of one core (100 % = a core; the machine has two, shared). Not part of npm test. Run from
 * the repository root (PostgreSQL as the tests use it; redis-server installed):
 *
 *   npm run bench:fleet -- [--ships=5000] [--operators=500] [--steady=30] [--port-base=21200] [--direct]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@stomp/stompjs';
import { Redis } from 'ioredis';
import pg from 'pg';
import WebSocket from 'ws';
import { type LinkReport, PATHS, type ShipStatusMessage } from '@ship-cctv/protocol';
import { openDatabase } from '@ship-cctv/server/db';
import { LightFleet } from '@ship-cctv/simulator';
import { HAPROXY, haproxyConfig } from '../../../scripts/demo-cluster.mjs';
import { addLightShips } from '../test/helpers/light-fleet.ts';
import { type ShoreProcess, signInOver, spawnShore, throwAwayDatabase, untilHealthy } from '../test/helpers/shore-cluster.ts';

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const SHIPS = arg('ships', 5000);
const OPERATORS = arg('operators', 500);
const STEADY_S = arg('steady', 30);
const PORT_BASE = arg('port-base', 21200);
const INSTANCES = 3;
const REDIS_PORT = PORT_BASE + 99;
/** Ships dial haproxy in front of the instances (the demo cluster's configuration), unless `--direct`. */
const DIRECT = process.argv.includes('--direct');
const PROXY_PORT = PORT_BASE + 98;
const REDIS_URL = `redis://127.0.0.1:${REDIS_PORT}`;
const JWT_SECRET = 'bench-jwt-secret-of-at-least-32-characters';
/** Subscriptions a principal may hold on one instance (the STOMP server's default): all operators sign in as one user. */
const PER_PRINCIPAL = 510;

const say = (line: string) => console.log(line);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, digits = 0) => Number(n.toFixed(digits));

// --- processes and their CPU and memory ------------------------------------------------------

const TICKS = 100;
function cpuTicks(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}
function rssBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Samples each instance's CPU every second while running: mean, highest second, seconds above 80 %. */
class CpuWatch {
  private readonly samples: number[][];
  private last: number[];
  private readonly timer: NodeJS.Timeout;
  constructor(private readonly pids: () => number[]) {
    this.samples = pids().map(() => []);
    this.last = pids().map(cpuTicks);
    this.timer = setInterval(() => {
      const now = this.pids().map(cpuTicks);
      now.forEach((t, i) => this.samples[i]?.push(Math.max(0, ((t - (this.last[i] ?? t)) / TICKS) * 100)));
      this.last = now;
    }, 1000);
  }
  stop(): { mean: number; max: number; over80s: number }[] {
    clearInterval(this.timer);
    return this.samples.map((s) => ({
      mean: round(s.reduce((a, b) => a + b, 0) / Math.max(1, s.length)),
      max: round(Math.max(0, ...s)),
      over80s: s.filter((x) => x > 80).length,
    }));
  }
}

// --- the cluster -----------------------------------------------------------------------------

const dir = mkdtempSync(join(tmpdir(), 'fleet-bench-'));
const redisChild: ChildProcess = spawn('/usr/bin/redis-server', ['--port', String(REDIS_PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxclients', '20000'], { stdio: 'ignore' });
const redis = new Redis(REDIS_URL, { retryStrategy: () => 100, maxRetriesPerRequest: null });
redis.on('error', () => undefined);
await redis.ping();
const database = await throwAwayDatabase();
const common = { DATABASE_URL: database.url, REDIS_URL, REDIS_PREFIX: 'fleet:', JWT_SECRET, LOG_LEVEL: 'error', SEED_DEMO: '1' };
const shores: ShoreProcess[] = [];
/** Instances the bench stops itself (their exit is no news). */
const stopping = new Set<ShoreProcess>();
const startShore = (i: number) => {
  const shore = spawnShore(`shore-${i + 1}`, PORT_BASE + i, { ...common, DATA_DIR: join(dir, `shore-${i + 1}`) });
  shores[i] = shore;
  void shore.exited.then(() => {
    if (!stopping.has(shore)) say(`  !! ${shore.name} exited (${shore.child.exitCode ?? shore.child.signalCode}): ${shore.stderrTail().slice(-1500)}`);
  });
  return shore;
};
const alive = () => shores.filter((s) => s.child.exitCode === null && s.child.signalCode === null);

// haproxy as the demo cluster runs it (leastconn, health checks on /healthz every second), with room for every ship's socket.
let proxy: ChildProcess | undefined;
if (!DIRECT) {
  const config = join(dir, 'haproxy.cfg');
  const instances = Array.from({ length: INSTANCES }, (_, i) => ({ name: `shore-${i + 1}`, port: PORT_BASE + i }));
  writeFileSync(config, haproxyConfig(PROXY_PORT, instances, { maxconn: SHIPS + OPERATORS + 1_000 }));
  proxy = spawn(HAPROXY, ['-f', config, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let proxyErr = '';
  proxy.stderr?.on('data', (d: Buffer) => (proxyErr = (proxyErr + d.toString()).slice(-2_000)));
  void new Promise((r) => proxy?.once('exit', r)).then(() => {
    if (proxy) say(`  !! haproxy exited (${proxy.exitCode ?? proxy.signalCode}): ${proxyErr}`);
  });
}

let fleet: LightFleet | undefined;
const operators: Client[] = [];
async function cleanUp(): Promise<void> {
  await Promise.all(operators.map((c) => c.deactivate().catch(() => undefined)));
  await fleet?.stop();
  for (const s of alive()) {
    stopping.add(s);
    s.child.kill('SIGTERM');
  }
  await Promise.all(shores.map((s) => s.exited));
  const stoppingProxy = proxy;
  proxy = undefined;
  stoppingProxy?.kill('SIGTERM');
  redis.disconnect();
  redisChild.kill('SIGTERM');
  await database.drop().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
}

// Whatever ends the bench, the instances, the redis-server and the database go with it.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
process.once('uncaughtException', (err) => {
  console.error(err);
  void cleanUp().finally(() => process.exit(1));
});

const table: string[][] = [];
const row = (...cells: (string | number)[]) => {
  table.push(cells.map(String));
  say(`  ${cells.join(' | ')}`);
};

try {
  say(
    `fleet bench: ${SHIPS} light ships, ${OPERATORS} operator sessions, ${INSTANCES} instances (ports ${PORT_BASE}–${PORT_BASE + INSTANCES - 1}, redis ${REDIS_PORT}), ships ${DIRECT ? 'dialling the instances in turn' : `through haproxy on ${PROXY_PORT}`}`,
  );
  // The first instance migrates and seeds the database; started again, it weighs what the others do.
  await untilHealthy(startShore(0), 120_000);
  stopping.add(shores[0]!);
  shores[0]!.child.kill('SIGTERM');
  await shores[0]!.exited;
  for (let i = 0; i < INSTANCES; i++) startShore(i);
  await Promise.all(shores.map((s) => untilHealthy(s, 120_000)));
  const db = await openDatabase({ url: database.url });
  const ships = await addLightShips(db, SHIPS);
  await db.close();
  const dbName = new URL(database.url).pathname.slice(1);
  const pgClient = new pg.Client({ connectionString: database.url });
  pgClient.on('error', () => undefined);
  await pgClient.connect();
  const rowsWritten = async () => {
    const r = await pgClient.query<{ n: string }>('select tup_inserted + tup_updated + tup_deleted as n from pg_stat_database where datname = $1', [dbName]);
    return Number(r.rows[0]?.n ?? 0);
  };
  const redisCalls = async () => {
    const info = await redis.info('commandstats');
    const calls = new Map<string, number>();
    for (const m of info.matchAll(/cmdstat_([^:]+):calls=(\d+)/g)) calls.set(m[1]!, Number(m[2]));
    return calls;
  };
  const ownersPerInstance = async () => {
    const counts = new Map<string, number>();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', 'fleet:owner:*', 'COUNT', 1000);
      cursor = next;
      const values = keys.length ? await redis.mget(keys) : [];
      // A claim counts while the instance it names has its lease (a killed instance's claims stay until taken elsewhere).
      const owners = [...new Set(values.map((v) => v?.split(' ')[0]).filter((o): o is string => !!o))];
      const leases = owners.length ? await redis.mget(owners.map((o) => `fleet:instance:${o}`)) : [];
      const alive = new Set(owners.filter((_, i) => leases[i] !== null));
      for (const v of values) {
        if (!alive.has(v?.split(' ')[0] ?? '')) continue;
        const name = v?.split(' ')[0]?.replace(/-[^-]+$/, '') ?? '?';
        counts.set(name, (counts.get(name) ?? 0) + 1);
      }
    } while (cursor !== '0');
    return counts;
  };
  const spread = (counts: Map<string, number>) => {
    const values = [...counts.values()];
    const mean = values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
    const worst = Math.max(0, ...values.map((v) => Math.abs(v - mean) / mean));
    return `${[...counts.entries()].sort().map(([k, v]) => `${k}:${v}`).join(' ')} (±${round(worst * 100)} %)`;
  };
  const untilAllOnline = async (timeoutMs: number) => {
    const t0 = performance.now();
    while (fleet!.online < SHIPS) {
      if (performance.now() - t0 > timeoutMs) return undefined;
      await sleep(100);
    }
    return performance.now() - t0;
  };
  await sleep(2_000);
  const baseRss = shores.map((s) => rssBytes(s.child.pid!));

  // 1. Cold start.
  say('\n1. cold start: every ship dials at once');
  // Through haproxy; or, with --direct, each dial to the next instance in turn that is running, as a balancer whose health checks found the dead one.
  let turn = 0;
  const nextUrl = () => {
    if (!DIRECT) return `ws://127.0.0.1:${PROXY_PORT}`;
    const up = alive();
    return `ws://127.0.0.1:${(up.length ? up : shores)[turn++ % Math.max(1, up.length)]!.port}`;
  };
  fleet = new LightFleet({ ships, shoreUrl: nextUrl, cameraIds: [] });
  const closes = new Map<string, number>();
  for (const ship of fleet.ships) {
    ship.on('closed', (code) => closes.set(String(code), (closes.get(String(code)) ?? 0) + 1));
    ship.on('rejected', (status) => closes.set(`http ${status}`, (closes.get(`http ${status}`) ?? 0) + 1));
  }
  let cpu = new CpuWatch(() => shores.map((s) => s.child.pid!));
  fleet.start();
  const coldMs = await untilAllOnline(180_000);
  let cpuFigures = cpu.stop();
  const cold = fleet.totals();
  say(`  dials ${cold.dials}, welcomes ${cold.welcomes}, closes ${JSON.stringify(Object.fromEntries(closes))}`);
  row('phase', 'all online', 'CPU per instance: mean / highest s / s > 80 %', 'refused hellos', 'ships per instance');
  await sleep(2_000);
  row('cold start', coldMs === undefined ? `not within 180 s (${fleet.online})` : `${round(coldMs / 1000, 1)} s`, cpuFigures.map((c) => `${c.mean}/${c.max}/${c.over80s}`).join(', '), cold.refusals, spread(await ownersPerInstance()));

  // 2. Steady, nobody watching video.
  await sleep(5_000);
  const shipsOn = await ownersPerInstance();
  const idleRss = shores.map((s) => rssBytes(s.child.pid!));
  const redisWindow = async (label: string) => {
    const rows0 = await rowsWritten();
    const calls0 = await redisCalls();
    const watch = new CpuWatch(() => shores.map((s) => s.child.pid!));
    await sleep(STEADY_S * 1000);
    const figures = watch.stop();
    const calls1 = await redisCalls();
    const rows1 = await rowsWritten();
    const perMinute = 60 / STEADY_S;
    const byCommand = [...calls1].map(([k, v]) => [k, v - (calls0.get(k) ?? 0)] as const).filter(([, d]) => d > 0).sort((x, y) => y[1] - x[1]);
    const total = byCommand.reduce((sum, [, d]) => sum + d, 0);
    row(label, `${fleet!.online} online`, figures.map((c) => `${c.mean}/${c.max}/${c.over80s}`).join(', '), '-', spread(await ownersPerInstance()));
    say(`  Redis commands per ship per minute: ${round((total * perMinute) / SHIPS, 2)} (${byCommand.slice(0, 7).map(([k, d]) => `${k} ${round((d * perMinute) / SHIPS, 2)}`).join(', ')})`);
    say(`  database rows written per minute: ${round((rows1 - rows0) * perMinute)}`);
  };
  say(`\n2a. steady (${STEADY_S} s), ships idle, no operators`);
  const memPerShip = shores.map((s, i) => {
    const n = shipsOn.get(s.name) ?? 0;
    return n ? round(((idleRss[i] ?? 0) - (baseRss[i] ?? 0)) / n / 1024, 1) : 0;
  });
  say(`  memory per idle ship (RSS with ships − before, per instance): ${memPerShip.join(', ')} kB`);
  await redisWindow('steady, no operators');
  say(`\n2b. steady (${STEADY_S} s), ${OPERATORS} operator sessions connected`);
  const token = await signInOver(shores[0]!.port);
  const perOperator = Math.max(1, Math.floor(PER_PRINCIPAL / Math.ceil(OPERATORS / INSTANCES)));
  const watchedBy = new Map<string, number>();
  let operatorConnects = 0;
  /** Subscriptions that got their first message (the current status, sent on subscribing). */
  let snapshots = 0;
  const sent = new Map<string, number>();
  const delays: number[] = [];
  for (let o = 0; o < OPERATORS; o++) {
    const port = shores[o % INSTANCES]!.port;
    const client = new Client({
      webSocketFactory: () => new WebSocket(`ws://127.0.0.1:${port}${PATHS.stomp}`, ['v12.stomp']),
      connectHeaders: { 'cas-jwt': token },
      heartbeatIncoming: 0,
      heartbeatOutgoing: 0,
      reconnectDelay: 1_000,
    });
    const watched = Array.from({ length: perOperator }, (_, k) => ships[(o * perOperator + k) % SHIPS]!);
    client.onConnect = () => {
      operatorConnects += 1;
      for (const s of watched) {
        watchedBy.set(s.shipId, o);
        let first = true;
        client.subscribe(`/shipStatus/${s.name}`, (m) => {
          if (first) {
            first = false;
            snapshots += 1;
          }
          const body = JSON.parse(m.body) as ShipStatusMessage;
          const at = sent.get(`${s.name}|${body.quality}`);
          if (at !== undefined) {
            delays.push(performance.now() - at);
            sent.delete(`${s.name}|${body.quality}`);
          }
        });
      }
    };
    client.activate();
    operators.push(client);
  }
  const subscribing = performance.now();
  while ((operators.some((c) => !c.connected) || snapshots < OPERATORS * perOperator) && performance.now() - subscribing < 120_000) await sleep(200);
  say(`  ${OPERATORS} sessions connected, ${snapshots} of ${OPERATORS * perOperator} subscriptions had their first status after ${round((performance.now() - subscribing) / 1000, 1)} s`);
  await sleep(3_000);
  await redisWindow(`steady, ${OPERATORS} operators`);
  say(`  operator sessions: ${OPERATORS}, ${perOperator} ship(s) watched each (${watchedBy.size} ships watched); STOMP connects so far ${operatorConnects}`);

  // 3. Status delivery: watched ships change link, 20 a second.
  say('\n3. status delivery to operators (20 link changes a second)');
  const watchedShips = fleet.ships.filter((s) => watchedBy.has(s.shipId));
  const names = new Map(ships.map((s) => [s.shipId, s.name]));
  const changes = Math.min(400, watchedShips.length * 5);
  let quality = 1;
  for (let i = 0; i < changes; i++) {
    const ship = watchedShips[i % watchedShips.length]!;
    quality = (quality % 99) + 1;
    // A report equal to the ship's link is no change, and shore publishes nothing for it: skip the light ships' own VSAT 80.
    if (quality === 80) quality = 81;
    const report: LinkReport = { linkType: i % 2 ? 'FBB' : 'VSAT', quality, duplex: 'BOTH' };
    sent.set(`${names.get(ship.shipId)}|${quality}`, performance.now());
    ship.setLink(report);
    await sleep(50);
  }
  await sleep(3_000);
  delays.sort((a, b) => a - b);
  const pct = (p: number) => round(delays[Math.min(delays.length - 1, Math.floor((p / 100) * delays.length))] ?? NaN, 1);
  say(`  ${delays.length} of ${changes} changes delivered; p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${round(delays.at(-1) ?? NaN, 1)} ms`);

  // 4. Every instance restarted at once.
  say('\n4. every instance restarted at once');
  const before4 = fleet.totals();
  const t4 = performance.now();
  for (const s of shores) {
    stopping.add(s);
    s.child.kill('SIGTERM');
  }
  await Promise.all(shores.map((s) => s.exited));
  for (let i = 0; i < INSTANCES; i++) startShore(i);
  cpu = new CpuWatch(() => shores.map((s) => s.child.pid!));
  await Promise.all(shores.map((s) => untilHealthy(s, 120_000)));
  const upMs = performance.now() - t4;
  await sleep(500);
  const restartMs = await untilAllOnline(180_000);
  cpuFigures = cpu.stop();
  const after4 = fleet.totals();
  row('restart all', restartMs === undefined ? 'not within 180 s' : `${round((performance.now() - t4) / 1000, 1)} s from stop (instances up after ${round(upMs / 1000, 1)} s)`, cpuFigures.map((c) => `${c.mean}/${c.max}/${c.over80s}`).join(', '), after4.refusals - before4.refusals, spread(await ownersPerInstance()));

  // 5. One instance killed.
  say('\n5. one instance killed (SIGKILL)');
  await sleep(3_000);
  const before5 = fleet.totals();
  const t5 = performance.now();
  stopping.add(shores[INSTANCES - 1]!);
  shores[INSTANCES - 1]!.child.kill('SIGKILL');
  await shores[INSTANCES - 1]!.exited;
  cpu = new CpuWatch(() => alive().map((s) => s.child.pid!));
  // Its ships notice the link gone (the kernel closes the sockets of a dead process).
  for (let waited = 0; fleet.online === SHIPS && waited < 15_000; waited += 20) await sleep(20);
  const dropped = SHIPS - fleet.online;
  const killMs = await untilAllOnline(180_000);
  cpuFigures = cpu.stop();
  const after5 = fleet.totals();
  row('kill one', killMs === undefined ? 'not within 180 s' : `${round((performance.now() - t5) / 1000, 1)} s (${dropped}+ links lost)`, cpuFigures.map((c) => `${c.mean}/${c.max}/${c.over80s}`).join(', '), after5.refusals - before5.refusals, spread(await ownersPerInstance()));

  // 6. Redis paused 15 s.
  say('\n6. Redis paused 15 s');
  const before6 = fleet.totals();
  const t6 = performance.now();
  let minOnline = fleet.online;
  const watch = setInterval(() => (minOnline = Math.min(minOnline, fleet!.online)), 100);
  cpu = new CpuWatch(() => alive().map((s) => s.child.pid!));
  await redis.call('CLIENT', 'PAUSE', '15000', 'ALL');
  await sleep(15_500);
  const pauseMs = await untilAllOnline(180_000);
  clearInterval(watch);
  cpuFigures = cpu.stop();
  const after6 = fleet.totals();
  row(
    'Redis paused 15 s',
    pauseMs === undefined ? 'not within 180 s' : `${round((performance.now() - t6) / 1000, 1)} s from the pause (fewest online: ${minOnline}; redials ${after6.dials - before6.dials})`,
    cpuFigures.map((c) => `${c.mean}/${c.max}/${c.over80s}`).join(', '),
    after6.refusals - before6.refusals,
    spread(await ownersPerInstance()),
  );
  await pgClient.end();
  say('\n| ' + table.map((r) => r.join(' | ')).join(' |\n| ') + ' |');
} finally {
  await cleanUp();
}
