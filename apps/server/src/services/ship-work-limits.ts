import { Redis } from 'ioredis';
import { CODES } from '@ship-cctv/protocol';
import { ApiError } from '../lib/envelope.ts';

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
  snapshot: { userBurst: 10, userPerSecond: 0.5, shipBurst: 6, shipPerSecond: 0.25, shipInFlight: 4 },
  shipQuery: { userBurst: 20, userPerSecond: 2, shipBurst: 20, shipPerSecond: 2, shipInFlight: 4 },
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

/** Whether a user's and a ship's bucket both had a token (then both gave one), else whose was empty and for how long. */
export type BucketAnswer = { ok: true } | { ok: false; scope: LimitScope; waitMs: number };

/** Takes one token from a user's and a ship's bucket together, or none. */
export interface BucketStore {
  take(userKey: string, shipKey: string | undefined, limit: ShipWorkLimit): Promise<BucketAnswer>;
  close(): Promise<void>;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class MemoryBucketStore implements BucketStore {
  private readonly buckets = new Map<string, Bucket>();
  constructor(private readonly now: () => number = Date.now) {}

  async take(userKey: string, shipKey: string | undefined, limit: ShipWorkLimit): Promise<BucketAnswer> {
    const now = this.now();
    const user = this.refill(userKey, limit.userBurst, limit.userPerSecond, now);
    if (user.tokens < 1) return { ok: false, scope: 'user', waitMs: waitMs(user.tokens, limit.userPerSecond) };
    const ship = shipKey === undefined ? undefined : this.refill(shipKey, limit.shipBurst, limit.shipPerSecond, now);
    if (ship && ship.tokens < 1) return { ok: false, scope: 'ship', waitMs: waitMs(ship.tokens, limit.shipPerSecond) };
    user.tokens -= 1;
    this.buckets.set(userKey, user);
    if (ship && shipKey !== undefined) {
      ship.tokens -= 1;
      this.buckets.set(shipKey, ship);
    }
    if (this.buckets.size > 50_000) this.prune(now);
    return { ok: true };
  }

  async close(): Promise<void> {}

  private refill(key: string, burst: number, perSecond: number, now: number): Bucket {
    const b = this.buckets.get(key);
    if (!b) return { tokens: burst, at: now };
    return { tokens: Math.min(burst, b.tokens + ((now - b.at) * perSecond) / 1000), at: now };
  }

  /** Forgets buckets that are full again (a full bucket and no bucket are the same). */
  private prune(now: number): void {
    for (const [k, b] of this.buckets) if (now - b.at > 600_000) this.buckets.delete(k);
  }
}

function waitMs(tokens: number, perSecond: number): number {
  return Math.ceil(((1 - tokens) * 1000) / perSecond);
}

/**
 * Both buckets in one round trip, on Redis's clock: KEYS user, ship (or the user's again, with a
 * ship burst of 0 meaning "no ship"); ARGV user burst, per ms, ship burst, per ms, key lifetime ms.
 * Answers {0} taken, or {1|2, wait ms} for the user's or the ship's empty bucket.
 */
const TAKE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function level(key, burst, rate)
  local v = redis.call('HMGET', key, 't', 'a')
  local tokens, at = tonumber(v[1]), tonumber(v[2])
  if tokens == nil or at == nil then return burst end
  return math.min(burst, tokens + math.max(0, now - at) * rate)
end
local ub, ur, sb, sr, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local u = level(KEYS[1], ub, ur)
if u < 1 then return {1, math.ceil((1 - u) / ur)} end
local s = 1
if sb > 0 then
  s = level(KEYS[2], sb, sr)
  if s < 1 then return {2, math.ceil((1 - s) / sr)} end
end
redis.call('HSET', KEYS[1], 't', tostring(u - 1), 'a', tostring(now))
redis.call('PEXPIRE', KEYS[1], ttl)
if sb > 0 then
  redis.call('HSET', KEYS[2], 't', tostring(s - 1), 'a', tostring(now))
  redis.call('PEXPIRE', KEYS[2], ttl)
end
return {0, 0}
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
    this.redis.defineCommand('shipWorkTake', { numberOfKeys: 2, lua: TAKE_SCRIPT });
  }

  async take(userKey: string, shipKey: string | undefined, limit: ShipWorkLimit): Promise<BucketAnswer> {
    // Not connected (starting, or Redis away): decide at once rather than queue behind a reconnect.
    if (this.redis.status !== 'ready') {
      this.onError(new Error(`redis is ${this.redis.status}`));
      return this.fallback.take(userKey, shipKey, limit);
    }
    const ttl = Math.ceil(Math.max(limit.userBurst / limit.userPerSecond, limit.shipBurst / limit.shipPerSecond) * 1000) + 1000;
    try {
      const take = (this.redis as unknown as { shipWorkTake(...args: (string | number)[]): Promise<[number, number]> }).shipWorkTake;
      const [code, wait] = await take.call(
        this.redis,
        `${this.prefix}limit:${userKey}`,
        `${this.prefix}limit:${shipKey ?? userKey}`,
        limit.userBurst,
        limit.userPerSecond / 1000,
        shipKey === undefined ? 0 : limit.shipBurst,
        limit.shipPerSecond / 1000,
        ttl,
      );
      if (code === 0) return { ok: true };
      return { ok: false, scope: code === 1 ? 'user' : 'ship', waitMs: wait };
    } catch (err) {
      this.onError(err as Error);
      return this.fallback.take(userKey, shipKey, limit);
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
 * Admits a request that makes a ship work, or throws 429: the user's bucket, then the ship's
 * bucket, then the ship's requests in flight on this instance. The caller checks first that the
 * user may see the ship, so no one spends another organisation's ship's allowance.
 */
export class ShipWorkLimiter {
  private readonly inFlight = new Map<string, number>();
  constructor(
    private readonly store: BucketStore,
    private readonly limits: ShipWorkLimits = DEFAULT_SHIP_WORK_LIMITS,
  ) {}

  /** Runs `work` once admitted; the ship's place in flight is given back when it ends. */
  async run<T>(kind: ShipWorkKind, userId: string, shipId: string, work: () => Promise<T>): Promise<T> {
    const limit = this.limits[kind];
    const flightKey = `${kind}:${shipId}`;
    const busy = this.inFlight.get(flightKey) ?? 0;
    if (busy >= limit.shipInFlight) throw new TooManyRequests(kind, 'ship', 1);
    const answer = await this.store.take(`u:${kind}:${userId}`, `s:${kind}:${shipId}`, limit);
    if (!answer.ok) throw new TooManyRequests(kind, answer.scope, Math.max(1, Math.ceil(answer.waitMs / 1000)));
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
