import { Redis } from 'ioredis';
import { CODES } from '@ship-cctv/protocol';
import { ApiError } from '../../core/http/envelope.ts';
import { TokenBucket } from '../../core/lib/token-bucket.ts';

/**
 * What makes a ship send or work, each limited on its own: snapshots and pictures fetched from the
 * ship (pictures up the satellite link), ship queries (its recordings and picture lists), PTZ
 * commands, and stills of a camera.
 */
export type ShipWorkKind = 'snapshot' | 'shipQuery' | 'ptz' | 'still';

/** A token bucket for each user and each ship, and at most `shipInFlight` requests at once per ship. */
export interface ShipWorkLimit {
  userBurst: number;
  userPerSecond: number;
  shipBurst: number;
  shipPerSecond: number;
  shipInFlight: number;
}

export type ShipWorkLimits = Record<ShipWorkKind, ShipWorkLimit>;

export const DEFAULT_SHIP_WORK_LIMITS: ShipWorkLimits = {
  // A picture is tens of kB up a satellite link: a few at once, then one every few seconds.
  snapshot: { userBurst: 20, userPerSecond: 1, shipBurst: 30, shipPerSecond: 0.5, shipInFlight: 8 },
  shipQuery: { userBurst: 60, userPerSecond: 5, shipBurst: 60, shipPerSecond: 5, shipInFlight: 10 },
  // A held control repeats its move every half of its time-out (about 4 a second at most).
  ptz: { userBurst: 20, userPerSecond: 5, shipBurst: 30, shipPerSecond: 10, shipInFlight: 8 },
  // Stills share one take per camera and period already; a grid of cells asks for its cameras together.
  still: { userBurst: 40, userPerSecond: 4, shipBurst: 60, shipPerSecond: 6, shipInFlight: 16 },
};

const WHAT: Record<ShipWorkKind, { zh: string; en: string }> = {
  snapshot: { zh: '抓拍/取图', en: 'snapshot' },
  shipQuery: { zh: '船端查询', en: 'ship query' },
  ptz: { zh: '云台控制', en: 'PTZ' },
  still: { zh: '静态图片', en: 'still' },
};

export type LimitScope = 'user' | 'ship';

/** 429 with the seconds to wait (the `Retry-After` header) and whose limit it was (`X-Limit-Scope`). */
export class TooManyRequests extends ApiError {
  readonly retryAfterS: number;
  readonly scope: LimitScope;
  constructor(kind: ShipWorkKind, scope: LimitScope, retryAfterS: number) {
    const what = WHAT[kind];
    super(
      CODES.tooMany,
      scope === 'user'
        ? `${what.zh}请求过于频繁，请 ${retryAfterS} 秒后再试 (too many ${what.en} requests from you; try again in ${retryAfterS} s)`
        : `此船的${what.zh}请求已达上限，请 ${retryAfterS} 秒后再试 (the ship has too many ${what.en} requests; try again in ${retryAfterS} s)`,
    );
    this.retryAfterS = retryAfterS;
    this.scope = scope;
    this.headers = { 'retry-after': String(retryAfterS), 'x-limit-scope': scope };
  }
}

/** Whether the bucket had a token (then it gave one), else how long until it has one. */
export type BucketAnswer = { ok: true } | { ok: false; waitMs: number };

/** Token buckets by key: `burst` tokens at most, refilled at `perSecond`. */
export interface BucketStore {
  take(key: string, burst: number, perSecond: number): Promise<BucketAnswer>;
  close(): Promise<void>;
}

export class MemoryBucketStore implements BucketStore {
  private readonly buckets = new Map<string, TokenBucket>();
  constructor(private readonly now: () => number = Date.now) {}

  async take(key: string, burst: number, perSecond: number): Promise<BucketAnswer> {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = new TokenBucket(burst, perSecond, this.now);
      this.buckets.set(key, bucket);
      if (this.buckets.size > 50_000) this.prune(this.now());
    }
    const waitMs = bucket.takeOrWait();
    return waitMs === 0 ? { ok: true } : { ok: false, waitMs };
  }

  async close(): Promise<void> {}

  /** Forgets buckets untouched for ten minutes (full again: a full bucket and no bucket are the same). */
  private prune(now: number): void {
    for (const [k, b] of this.buckets) if (now - b.lastUsed > 600_000) this.buckets.delete(k);
  }
}

/**
 * One bucket in one round trip, on Redis's clock: KEYS the bucket; ARGV burst, tokens per ms, key
 * lifetime ms. Answers 0 when it gave a token, else the ms until it has one.
 */
const TAKE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local burst, rate, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local v = redis.call('HMGET', KEYS[1], 't', 'a')
local tokens, at = tonumber(v[1]), tonumber(v[2])
if tokens == nil or at == nil then tokens = burst else tokens = math.min(burst, tokens + math.max(0, now - at) * rate) end
if tokens < 1 then return math.ceil((1 - tokens) / rate) end
redis.call('HSET', KEYS[1], 't', tostring(tokens - 1), 'a', tostring(now))
redis.call('PEXPIRE', KEYS[1], ttl)
return 0
`;

/**
 * Buckets in Redis, so every instance counts a user's and a ship's requests together. When Redis
 * does not answer, this instance's own buckets decide (a Redis incident must not stop PTZ).
 */
export class RedisBucketStore implements BucketStore {
  private readonly redis: Redis;
  private readonly fallback = new MemoryBucketStore();
  constructor(
    url: string,
    private readonly prefix: string,
    private readonly onError: (err: Error) => void,
  ) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 1000 });
    this.redis.on('error', () => {});
    this.redis.defineCommand('shipWorkTake', { numberOfKeys: 1, lua: TAKE_SCRIPT });
  }

  async take(key: string, burst: number, perSecond: number): Promise<BucketAnswer> {
    // Not connected (starting, or Redis away): decide at once rather than queue behind a reconnect.
    if (this.redis.status !== 'ready') {
      this.onError(new Error(`redis is ${this.redis.status}`));
      return this.fallback.take(key, burst, perSecond);
    }
    try {
      const take = (this.redis as unknown as { shipWorkTake(...args: (string | number)[]): Promise<number> }).shipWorkTake;
      const wait = await take.call(this.redis, `${this.prefix}limit:${key}`, burst, perSecond / 1000, Math.ceil((burst / perSecond) * 1000) + 1000);
      return wait === 0 ? { ok: true } : { ok: false, waitMs: wait };
    } catch (err) {
      this.onError(err as Error);
      return this.fallback.take(key, burst, perSecond);
    }
  }

  /** Resolves once connected to Redis (until then this instance's buckets decide). */
  async connected(): Promise<void> {
    if (this.redis.status !== 'ready') await new Promise((resolve) => this.redis.once('ready', resolve));
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

/**
 * Admits a request that makes a ship work, or throws 429: first the user's bucket (before any
 * database work, so a burst costs little), then the access check (403: no one spends another
 * organisation's ship's allowance), then the ship's requests in flight on this instance and the
 * ship's bucket.
 */
export class ShipWorkLimiter {
  private readonly inFlight = new Map<string, number>();
  constructor(
    private readonly store: BucketStore,
    private readonly limits: ShipWorkLimits = DEFAULT_SHIP_WORK_LIMITS,
  ) {}

  /** Runs `work` once admitted; the ship's place in flight is given back when it ends. */
  async run<T>(kind: ShipWorkKind, userId: string, shipOf: () => Promise<string>, work: () => Promise<T>): Promise<T> {
    const limit = this.limits[kind];
    const user = await this.store.take(`u:${kind}:${userId}`, limit.userBurst, limit.userPerSecond);
    if (!user.ok) throw new TooManyRequests(kind, 'user', seconds(user.waitMs));
    const shipId = await shipOf();
    const flightKey = `${kind}:${shipId}`;
    if ((this.inFlight.get(flightKey) ?? 0) >= limit.shipInFlight) throw new TooManyRequests(kind, 'ship', 1);
    const ship = await this.store.take(`s:${kind}:${shipId}`, limit.shipBurst, limit.shipPerSecond);
    if (!ship.ok) throw new TooManyRequests(kind, 'ship', seconds(ship.waitMs));
    // Counted again after the store's answer: others may have been admitted meanwhile.
    const now = this.inFlight.get(flightKey) ?? 0;
    if (now >= limit.shipInFlight) throw new TooManyRequests(kind, 'ship', 1);
    this.inFlight.set(flightKey, now + 1);
    try {
      return await work();
    } finally {
      const left = (this.inFlight.get(flightKey) ?? 1) - 1;
      if (left <= 0) this.inFlight.delete(flightKey);
      else this.inFlight.set(flightKey, left);
    }
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
