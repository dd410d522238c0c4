import { Redis } from 'ioredis';
import { renewLeases } from '../../core/bus/lease-renewal.ts';
import type { TalkHolder, TalkOccupancy } from './talk-occupancy.ts';

/**
 * Sets the ship's key to this holder unless somebody holds it, and counts the claim in the ship's
 * claim counter: {1, claim number} when taken, {0, the holder there before} when not.
 */
const CLAIM = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return {1, redis.call('INCR', KEYS[2])} end
return {0, redis.call('GET', KEYS[1])}`;
/**
 * Extends the lease while the key still names this talk (1). A key that lapsed (Redis stalled or
 * was unreachable longer than the lease) is set again if no claim came since — the ship's claim
 * counter still holds this claim's number, or was lost with Redis's data, then it is set back to
 * it — (2). 0: another talk holds the ship, or claimed it meanwhile.
 */
const RENEW = `
local held = redis.call('GET', KEYS[1])
if held then
  if cjson.decode(held).talkId == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
  return 0
end
local claims = redis.call('GET', KEYS[2])
if claims and claims ~= ARGV[3] then return 0 end
if not claims then redis.call('SET', KEYS[2], ARGV[3]) end
redis.call('SET', KEYS[1], ARGV[4], 'PX', ARGV[2])
return 2`;
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
  /** The key's value (the holder as JSON), to set it again after a lapse. */
  value: string;
  /** This claim's number in the ship's claim counter. */
  claim: number;
  renewedAt: number;
}

/**
 * Talkback occupancy shared by every instance: `talk:<ship>` holds the talker (JSON) with a lease,
 * taken with SET NX so two instances claiming at once cannot both win, and renewed every third of
 * the lease while the talk lives; `talk-claims:<ship>` counts the claims. An instance that dies
 * stops renewing, so its talk frees the ship when the lease runs out.
 *
 * Redis stalling or unreachable does not end a talk, as it takes no ship from its owner: while
 * Redis is away nobody can claim the ship either. The holder keeps trying; once Redis answers, a
 * renewal extends the key, or sets it again if it lapsed meanwhile and no claim came since (the
 * claim counter says so), or finds another talk's claim and reports the talk lost, so it ends.
 */
export class RedisTalkOccupancy implements TalkOccupancy {
  private readonly held = new Map<string, Held>();
  private readonly lostListeners: ((shipId: string, talkId: string) => void)[] = [];
  private readonly leaseMs: number;
  private readonly timer: NodeJS.Timeout;
  /** A renewal is on its way (during a stall it waits for Redis; the next one waits for it). */
  private renewing = false;

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
  private claimsKey(shipId: string): string {
    return `${this.prefix}talk-claims:${shipId}`;
  }

  async claim(shipId: string, holder: TalkHolder): Promise<TalkHolder | undefined> {
    const value = JSON.stringify(holder);
    const [taken, answer] = (await this.redis.eval(CLAIM, 2, this.key(shipId), this.claimsKey(shipId), value, this.leaseMs)) as [number, number | string];
    if (taken === 1) {
      this.held.set(shipId, { talkId: holder.talkId, value, claim: Number(answer), renewedAt: Date.now() });
      return undefined;
    }
    return JSON.parse(String(answer)) as TalkHolder;
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
    if (this.renewing) return;
    this.renewing = true;
    try {
      const held = [...this.held];
      const leases = held.map(([shipId, h]) => ({ key: this.key(shipId), token: h.talkId, held: h, more: { keys: [this.claimsKey(shipId)], args: [String(h.claim), h.value] } }));
      const verdicts = await renewLeases(this.redis, RENEW, leases, this.leaseMs);
      held.forEach(([shipId, h], i) => {
        if (verdicts[i]?.kind === 'taken') this.lose(shipId, h.talkId);
      });
    } finally {
      this.renewing = false;
    }
  }
}
