import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** REDIS_PREFIX: the prefix of every Redis key and channel (default `shipcctv:`), so several clusters can share one Redis. */
  redisPrefix: string | undefined;
  logLevel: string;
  /** Folder of the built web app served under /monitor/. */
  webDist: string;
  sessionTtlHours: number;
  /** Seed the demo fleet into an empty database. */
  seedDemo: boolean;
  /**
   * When set, the server provisions every ship with a fresh agent key at start and writes this
   * file for the simulated fleet (packages/simulator/src/fleet.ts) to read.
   */
  fleetFile: string | undefined;
  /** TRUST_PROXY: "true", or the proxies' addresses (comma-separated); unset trusts no forwarded headers. */
  trustProxy: boolean | string | undefined;
  /** INSTANCE_NAME: names this instance in ship ownership and the job table (`<name>-<random>`). */
  instanceName: string | undefined;
  /** JWT_SECRET: signs session tokens; every instance sharing a database needs the same one. */
  jwtSecret: string | undefined;
  /** ALLOWED_ORIGINS: comma-separated origins whose pages may open the STOMP and media sockets. */
  allowedOrigins: string[] | undefined;
  /** METRICS_TOKEN: the Bearer token that opens /metrics; unset keeps /metrics closed. */
  metricsToken: string | undefined;
}

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${value}"`);
  return n;
}

function instanceNameFrom(value: string | undefined): string | undefined {
  if (!value) return undefined;
  // It is written into Redis values split on spaces, and into logs: keep it a plain word.
  if (!/^[A-Za-z0-9._-]{1,40}$/.test(value)) throw new Error(`INSTANCE_NAME must be 1–40 letters, digits, ".", "_" or "-", got "${value}"`);
  return value;
}

/** Reads the environment variables architecture.md lists. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  return {
    port: intFrom(env.PORT, 8080, 'PORT'),
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.REDIS_PREFIX || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    webDist: resolve(env.WEB_DIST ?? resolve(repoRoot, 'apps/web/dist')),
    sessionTtlHours: intFrom(env.SESSION_TTL_HOURS, 24, 'SESSION_TTL_HOURS'),
    seedDemo: env.SEED_DEMO !== '0',
    fleetFile: env.FLEET_FILE ? resolve(env.FLEET_FILE) : undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
    jwtSecret: env.JWT_SECRET || undefined,
    instanceName: instanceNameFrom(env.INSTANCE_NAME),
    allowedOrigins: env.ALLOWED_ORIGINS ? env.ALLOWED_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean) : undefined,
    trustProxy: !env.TRUST_PROXY ? undefined : env.TRUST_PROXY === 'true' ? true : env.TRUST_PROXY,
  };
}
