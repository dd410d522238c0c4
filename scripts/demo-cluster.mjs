// The demo with several shore instances (`npm run demo -- --instances N`, or DEMO_INSTANCES=N):
// N instances on consecutive ports after PORT sharing PostgreSQL, Redis and NATS's object store,
// behind haproxy on PORT, which spreads browsers and ship agents over them (HTTP and WebSockets).
// Plain Node apart from `pg` and `ioredis`, which the setup has installed by the time this runs.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const DEMO_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/shipcctv_demo';
export const HAPROXY = '/usr/sbin/haproxy';

/** N from `--instances N`, `--instances=N` or DEMO_INSTANCES; 1 when neither is given. */
export function instanceCount(argv, env) {
  const at = argv.indexOf('--instances');
  const given = at >= 0 ? argv[at + 1] : (argv.find((a) => a.startsWith('--instances='))?.slice('--instances='.length) ?? env.DEMO_INSTANCES);
  if (given === undefined || given === '') return 1;
  const n = Number(given);
  if (!Number.isInteger(n) || n < 1 || n > 9) throw new Error(`--instances (or DEMO_INSTANCES) must be a whole number from 1 to 9, got "${given}"`);
  return n;
}

/** The instances: a name, a port after the proxy's, a data folder each. */
export function instancePlan(count, proxyPort, dataDir) {
  return Array.from({ length: count }, (_, i) => ({
    name: `shore-${i + 1}`,
    port: proxyPort + 1 + i,
    dataDir: join(dataDir, `shore-${i + 1}`),
  }));
}

/**
 * Creates the demo's database when it is missing. Embedded PGlite is one process's file, so
 * several instances need a PostgreSQL server.
 */
export async function ensureDatabase(url) {
  const { default: pg } = await import('pg');
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(`several instances share one PostgreSQL, and ${admin.host} does not answer (${err.message}); start it, or set DATABASE_URL`, { cause: err });
  }
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

/**
 * The secret every instance signs session tokens with: one instance's token must open the others.
 * Kept in the data folder (0600) so a restarted demo keeps its sign-ins.
 */
export function sharedJwtSecret(dataDir) {
  const file = join(dataDir, 'demo-jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * haproxy's configuration. HTTP mode passes WebSocket upgrades through (the STOMP and media
 * sockets, the agent link) and holds them on `timeout tunnel`; `leastconn` spreads long-lived
 * sockets (every ship's link) evenly. A request whose connection an instance refuses (it died
 * and its checks have not failed yet) is tried again on another instance (`retries`,
 * `option redispatch 1`: every retry picks another server), so nobody is answered 503 while one
 * instance of several lives. A refused connection is retried (`conn-failure`: the request never
 * reached a server), and so is a GET or HEAD sent on a kept-alive connection to an instance as it
 * died, which answered nothing (`empty-response`); any other method is never sent twice
 * (`disable-l7-retry`). The health check on /healthz runs
 * every second, every 250 ms once a check failed (`fastinter`), and takes a dead instance out after
 * two failures, so reconnecting agents and browsers land on the living ones. An instance taken out
 * does not have its sessions cut (no `on-marked-down shutdown-sessions`): that also killed a request
 * haproxy was just connecting to it, which the retry would have sent to another (one in about 14,000
 * requests while an instance died), and, in a fleet's burst of hellos, the links of an instance that
 * was only busy. A dead instance's sockets close with its process; a hung one's agents redial after
 * their silence limit and browsers after their STOMP heartbeat. `maxconn`: the
 * connections it holds at once (the demo's 4096 unless told; a fleet benchmark needs a socket per
 * ship), for the process and for each frontend.
 */
export function haproxyConfig(proxyPort, instances, { maxconn = 4096 } = {}) {
  return [
    'global',
    `  maxconn ${maxconn}`,
    'defaults',
    `  maxconn ${maxconn}`,
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout http-request 10s',
    '  timeout tunnel 1h',
    '  option forwardfor',
    'frontend shore',
    `  bind *:${proxyPort}`,
    '  default_backend instances',
    'backend instances',
    '  balance leastconn',
    '  option httpchk GET /healthz',
    '  http-check expect status 200',
    '  retries 3',
    '  option redispatch 1',
    '  retry-on conn-failure empty-response',
    '  http-request disable-l7-retry unless METH_GET || METH_HEAD',
    '  default-server inter 1s fastinter 250ms downinter 1s fall 2 rise 2',
    ...instances.map((i) => `  server ${i.name} 127.0.0.1:${i.port} check`),
    '',
  ].join('\n');
}

/** Points the fleet file's agents at the proxy instead of the instance that wrote it. */
export function fleetThroughProxy(fleetFile, proxyPort) {
  const fleet = JSON.parse(readFileSync(fleetFile, 'utf8'));
  fleet.shoreUrl = `ws://127.0.0.1:${proxyPort}`;
  writeFileSync(fleetFile, JSON.stringify(fleet, null, 2), { mode: 0o600 });
}

/**
 * Says which instance holds which ship whenever that changes: reads the ownership claims in Redis
 * (`owner:<ship>` = "<instance name>-<random> <epoch>"), each counting while the instance it names
 * has its lease (`instance:<instance name>-<random>`): a killed instance's claims stay until its
 * ships' agents claim them elsewhere, but it holds nothing once its lease lapsed.
 */
export async function watchOwners(redisUrl, instances, say, everyMs = 3_000) {
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  await redis.connect();
  const prefix = 'shipcctv:owner:';
  let last = '';
  const look = async () => {
    const keys = [];
    for (let cursor = '0'; ; ) {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 200);
      keys.push(...found);
      cursor = next;
      if (cursor === '0') break;
    }
    const values = keys.length ? await redis.mget(keys) : [];
    const owners = [...new Set(values.map((v) => v?.split(' ')[0]).filter(Boolean))];
    const leases = owners.length ? await redis.mget(owners.map((o) => `shipcctv:instance:${o}`)) : [];
    const alive = new Set(owners.filter((_, n) => leases[n] !== null));
    const byInstance = new Map(instances.map((i) => [i.name, []]));
    keys.forEach((key, n) => {
      const owner = values[n]?.split(' ')[0] ?? '';
      if (!alive.has(owner)) return;
      const name = owner.replace(/-[0-9a-f]{8}$/, '');
      byInstance.get(name)?.push(key.slice(prefix.length));
    });
    const line = instances.map((i) => `${i.name} (:${i.port}) ${(byInstance.get(i.name) ?? []).sort().join(' ') || '–'}`).join(' · ');
    if (line !== last) say(`ships by instance: ${line}`);
    last = line;
  };
  const timer = setInterval(() => void look().catch(() => undefined), everyMs);
  timer.unref();
  await look().catch(() => undefined);
  return () => {
    clearInterval(timer);
    redis.disconnect();
  };
}
