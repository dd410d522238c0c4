import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type Server, type Socket, createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * Shore instances as separate processes (`apps/server/src/server.ts`, as production runs them), so
 * a test or bench can SIGKILL one: no graceful close, no claim given back, only what a crash leaves.
 */

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** A loopback port free right now (the instance binds it a moment later). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** A database of its own on the machine's PostgreSQL, dropped by `drop`. */
export async function throwAwayDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `shipcctv_test_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

export interface ShoreProcess {
  name: string;
  port: number;
  child: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
  /** The last lines it wrote on stderr (its warnings and errors), for failure messages. */
  stderrTail(): string;
}

export async function untilHealthy(shore: ShoreProcess, timeoutMs: number, extra: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (shore.child.exitCode !== null) throw new Error(`${shore.name} exited (${shore.child.exitCode}): ${shore.stderrTail()}`);
    try {
      if ((await fetch(`http://127.0.0.1:${shore.port}/healthz`)).ok && extra()) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${shore.name} did not answer /healthz within ${timeoutMs} ms: ${shore.stderrTail()}`);
}

export function spawnShore(name: string, port: number, env: NodeJS.ProcessEnv): ShoreProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1', INSTANCE_NAME: name },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let tail = '';
  child.stderr?.on('data', (d: Buffer) => {
    tail = (tail + d.toString()).slice(-4_000);
  });
  const exited = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
  return { name, port, child, exited, stderrTail: () => tail };
}

export interface ShoreCluster {
  instances: ShoreProcess[];
  /** The agent key the first instance issued the ship (its fleet file). */
  keyOf(shipId: string): string;
  /** Stops every instance still running and drops the database. */
  close(): Promise<void>;
}

/**
 * `count` shore instances on one throw-away PostgreSQL database, the machine's Redis (under
 * `redisPrefix`) and whatever `env` adds (STORAGE=nats…). The first starts alone (it migrates and
 * seeds the database, and provisions the fleet's keys), then the others together.
 */
export async function startShoreCluster(opts: { count: number; redisPrefix: string; env?: NodeJS.ProcessEnv }): Promise<ShoreCluster> {
  const database = await throwAwayDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'shore-cluster-'));
  const fleetFile = join(dir, 'fleet.json');
  const common = {
    DATABASE_URL: database.url,
    REDIS_URL,
    REDIS_PREFIX: opts.redisPrefix,
    JWT_SECRET: 'test-jwt-secret-of-at-least-32-characters',
    ...opts.env,
  };
  const instances: ShoreProcess[] = [];
  const cluster: ShoreCluster = {
    instances,
    keyOf(shipId) {
      const fleet = JSON.parse(readFileSync(fleetFile, 'utf8')) as { ships: { shipId: string; key: string }[] };
      const ship = fleet.ships.find((s) => s.shipId === shipId);
      if (!ship) throw new Error(`no ship ${shipId} in the fleet file`);
      return ship.key;
    },
    async close() {
      for (const i of instances) if (i.child.exitCode === null && i.child.signalCode === null) i.child.kill('SIGTERM');
      await Promise.all(instances.map((i) => i.exited));
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    const start = async (n: number, env: NodeJS.ProcessEnv) => {
      const shore = spawnShore(`shore-${n + 1}`, await freePort(), { ...common, DATA_DIR: join(dir, `shore-${n + 1}`), ...env });
      instances.push(shore);
      return shore;
    };
    const first = await start(0, { FLEET_FILE: fleetFile });
    await untilHealthy(first, 90_000, () => existsSync(fleetFile));
    const rest = [];
    for (let n = 1; n < opts.count; n++) rest.push(await start(n, {}));
    await Promise.all(rest.map((s) => untilHealthy(s, 90_000)));
  } catch (err) {
    await cluster.close();
    throw err;
  }
  return cluster;
}

/** Signs a demo user in over HTTP (the instance is a process, not an app to inject into). */
export async function signInOver(port: number, username = 'demo'): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/sys/logon`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'demo-pass' }),
  });
  if (!res.ok) throw new Error(`logon answered ${res.status}`);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

/**
 * The load balancer in front of the instances for the ship's agent: a TCP forwarder that sends
 * each new connection to the next target in turn, skipping one that refuses (a dead instance), and
 * counts what each connection carries towards shore — the ship's uplink bytes.
 */
export class Balancer {
  port = 0;
  private next = 0;
  private readonly server: Server = createServer();
  private readonly sockets = new Set<Socket>();
  /** Every connection so far: the target port it reached and the bytes it carried up. */
  readonly connections: { target: number; bytesUp: number }[] = [];

  constructor(private readonly targets: readonly number[]) {
    this.server.on('connection', (down) => this.forward(down, 0));
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    this.port = address.port;
    return this;
  }

  /** Bytes carried towards shore by every connection so far. */
  get bytesUp(): number {
    return this.connections.reduce((sum, c) => sum + c.bytesUp, 0);
  }

  /** The target of the newest connection (the instance the agent is on now). */
  get current(): number | undefined {
    return this.connections.at(-1)?.target;
  }

  private forward(down: Socket, tried: number): void {
    if (tried >= this.targets.length) return void down.destroy();
    const target = this.targets[this.next++ % this.targets.length]!;
    const up = createConnection(target, '127.0.0.1');
    let connected = false;
    down.pause();
    up.once('error', () => undefined);
    up.once('connect', () => {
      connected = true;
      const record = { target, bytesUp: 0 };
      this.connections.push(record);
      for (const s of [down, up]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      down.on('data', (d: Buffer) => void (record.bytesUp += d.length));
      down.pipe(up).pipe(down);
      down.on('close', () => up.destroy());
      up.on('close', () => down.destroy());
      down.resume();
    });
    up.once('close', () => {
      if (!connected && !down.destroyed) this.forward(down, tried + 1);
    });
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
