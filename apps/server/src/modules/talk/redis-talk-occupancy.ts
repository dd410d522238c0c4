import { Redis } from 'ioredis';
import { renewLeases } from '../../core/bus/lease-renewal.ts';
import type { TalkHolder, TalkOccupancy } from './talk-occupancy.ts';

/** Sets the ship's key to this holder unless somebody holds it; answers the holder there before (or nil). */
const CLAIM = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return false end
return redis.call('GET', KEYS[1])`;
/** Extends the lease while the key still names this talk (0: it does not any more). */
const RENEW = `
local held = redis.call('GET', KEYS[1])
if held and cjson.decode(held).talkId == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;
/** Deletes the key if it still names this talk: a late release never frees another talk's claim. */
const RELEASE = `
local held = redis.call('GET', KEYS[1])
if held and cjson.decode(held).talkId == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export interface RedisTalkOccupancyOptions {
  /** How long a claim lives without renewal (default 6 s): a dead instance's talk frees the ship after it. */
  leaseMs?: number | undefined;
  onError?: ((err: Error) => void) | undefined;
}

interface Held {
  talkId: string;
  renewedAt: number;
}

/**
 * Talkback occupancy shared by every instance: `talk:<ship>` holds the talker (JSON) with a lease,
 * taken with SET NX so two instances claiming at once cannot both win, and renewed every third of
 * the lease while the talk lives. An instance that dies stops renewing, so its talk frees the ship
 * when the lease runs out; an instance that cannot renew in time (Redis away, key gone) reports the
 * talk lost so it ends before another operator may have taken the ship.
 */
export class RedisTalkOccupancy implements TalkOccupancy {
  private readonly held = new Map<string, Held>();
  private readonly lostListeners: ((shipId: string, talkId: string) => void)[] = [];
  private readonly leaseMs: number;
  private readonly timer: NodeJS.Timeout;

  private constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    opts: RedisTalkOccupancyOptions,
  ) {
    this.leaseMs = opts.leaseMs ?? 6_000;
    this.timer = setInterval(() => void this.renew(), Math.max(50, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
  }

  static async connect(url: string, prefix = 'shipcctv:', opts: RedisTalkOccupancyOptions = {}): Promise<RedisTalkOccupancy> {
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    redis.on('error', opts.onError ?? (() => undefined));
    await redis.connect();
    return new RedisTalkOccupancy(redis, prefix, opts);
  }

  private key(shipId: string): string {
    return `${this.prefix}talk:${shipId}`;
  }

  async claim(shipId: string, holder: TalkHolder): Promise<TalkHolder | undefined> {
    const before = (await this.redis.eval(CLAIM, 1, this.key(shipId), JSON.stringify(holder), this.leaseMs)) as string | null;
    if (before === null) {
      this.held.set(shipId, { talkId: holder.talkId, renewedAt: Date.now() });
      return undefined;
    }
    return JSON.parse(before) as TalkHolder;
  }

  async release(shipId: string, talkId: string): Promise<void> {
    if (this.held.get(shipId)?.talkId === talkId) this.held.delete(shipId);
    await this.redis.eval(RELEASE, 1, this.key(shipId), talkId);
  }

  /** Who talks to the ship now, on whichever instance (introspection, tests). */
  async holderOf(shipId: string): Promise<TalkHolder | undefined> {
    const value = await this.redis.get(this.key(shipId));
    return value ? (JSON.parse(value) as TalkHolder) : undefined;
  }

  onLost(listener: (shipId: string, talkId: string) => void): void {
    this.lostListeners.push(listener);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.held].map(([shipId, h]) => this.release(shipId, h.talkId).catch(() => undefined)));
    // quit, not disconnect: a release sent just before (a talk ending on shutdown) still gets through.
    await this.redis.quit().catch(() => undefined);
  }

  /** Stops renewing without releasing, as a crashed instance would (tests). */
  abandon(): void {
    clearInterval(this.timer);
    this.held.clear();
    this.redis.disconnect();
  }

  private lose(shipId: string, talkId: string): void {
    if (this.held.get(shipId)?.talkId !== talkId) return;
    this.held.delete(shipId);
    for (const listener of this.lostListeners) listener(shipId, talkId);
  }

  private async renew(): Promise<void> {
    const held = [...this.held];
    const verdicts = await renewLeases(this.redis, RENEW, held.map(([shipId, h]) => ({ key: this.key(shipId), token: h.talkId, held: h })), this.leaseMs);
    held.forEach(([shipId, h], i) => {
      const verdict = verdicts[i]?.kind;
      if (verdict === 'taken' || verdict === 'unreachable') this.lose(shipId, h.talkId);
    });
  }
}
