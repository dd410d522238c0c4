import { Redis } from 'ioredis';

export interface FailureLimits {
  /** Failures of one user from one address within the window before that pair waits. */
  maxFailures: number;
  windowMs: number;
  /** The first wait; each further failure doubles it (at most a day). */
  lockMs: number;
}

/** Counters and marks with expiry: in this process, or in Redis so every instance shares them. */
export interface ThrottleStore {
  /** Counts one more in a window that starts with the first; answers the count. */
  hit(key: string, windowMs: number): Promise<number>;
  reset(key: string): Promise<void>;
  blockedUntil(key: string): Promise<number>;
  block(key: string, untilMs: number): Promise<void>;
  mark(key: string, ttlMs: number): Promise<void>;
  marked(key: string): Promise<boolean>;
  close(): Promise<void>;
}

export class MemoryThrottleStore implements ThrottleStore {
  private readonly counts = new Map<string, { n: number; until: number }>();
  private readonly untils = new Map<string, number>();
  constructor(private readonly now: () => number = Date.now) {}

  async hit(key: string, windowMs: number): Promise<number> {
    const now = this.now();
    const e = this.counts.get(key);
    const next = e && e.until > now ? { n: e.n + 1, until: e.until } : { n: 1, until: now + windowMs };
    this.counts.set(key, next);
    if (this.counts.size > 50_000) this.prune(now);
    return next.n;
  }
  async reset(key: string): Promise<void> {
    this.counts.delete(key);
    this.untils.delete(key);
  }
  async blockedUntil(key: string): Promise<number> {
    const until = this.untils.get(key) ?? 0;
    return until > this.now() ? until : 0;
  }
  async block(key: string, untilMs: number): Promise<void> {
    this.untils.set(key, untilMs);
  }
  async mark(key: string, ttlMs: number): Promise<void> {
    this.untils.set(key, this.now() + ttlMs);
  }
  async marked(key: string): Promise<boolean> {
    return (await this.blockedUntil(key)) > 0;
  }
  async close(): Promise<void> {}
  private prune(now: number): void {
    for (const [k, e] of this.counts) if (e.until <= now) this.counts.delete(k);
    for (const [k, u] of this.untils) if (u <= now) this.untils.delete(k);
  }
}

export class RedisThrottleStore implements ThrottleStore {
  private readonly redis: Redis;
  constructor(
    url: string,
    private readonly prefix: string,
    onError: (err: Error) => void,
  ) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2 });
    this.redis.on('error', onError);
  }
  private k(key: string): string {
    return `${this.prefix}signin:${key}`;
  }
  async hit(key: string, windowMs: number): Promise<number> {
    const [[, n]] = (await this.redis.multi().incr(this.k(key)).pexpire(this.k(key), windowMs, 'NX').exec()) as [[Error | null, number]];
    return n;
  }
  async reset(key: string): Promise<void> {
    await this.redis.del(this.k(key), this.k(`${key}#until`));
  }
  async blockedUntil(key: string): Promise<number> {
    const v = await this.redis.get(this.k(`${key}#until`));
    const until = v === null ? 0 : Number(v);
    return until > Date.now() ? until : 0;
  }
  async block(key: string, untilMs: number): Promise<void> {
    await this.redis.set(this.k(`${key}#until`), String(untilMs), 'PX', Math.max(1, untilMs - Date.now()));
  }
  async mark(key: string, ttlMs: number): Promise<void> {
    await this.block(key, Date.now() + ttlMs);
  }
  async marked(key: string): Promise<boolean> {
    return (await this.blockedUntil(key)) > 0;
  }
  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

const MAX_WAIT_MS = 24 * 3_600_000;
const KNOWN_ADDRESS_MS = 30 * 24 * 3_600_000;
/** Failures from one address (any users), or for one user (any addresses), that count as an attack. */
const SPRAY_FACTOR = 4;

export type Throttled = { by: 'user' | 'address'; untilMs: number } | null;

/**
 * Sign-in throttling that an attacker cannot turn against the user:
 * - one user from one address: after maxFailures, that pair waits lockMs, doubling per failure;
 * - one address guessing many users: after SPRAY_FACTOR × maxFailures it waits lockMs;
 * - one user guessed from many addresses: after SPRAY_FACTOR × maxFailures, addresses the user has
 *   never signed in from wait lockMs — addresses the user succeeded from stay open.
 * A success clears its pair and remembers the address for the user for 30 days.
 */
export class SignInThrottle {
  constructor(
    private readonly limits: FailureLimits,
    private readonly store: ThrottleStore,
    private readonly now: () => number = Date.now,
  ) {}

  async check(user: string, address: string): Promise<Throttled> {
    const [pair, addr, spray, known] = await Promise.all([
      this.store.blockedUntil(`p:${user}|${address}`),
      this.store.blockedUntil(`a:${address}`),
      this.store.blockedUntil(`u:${user}`),
      this.store.marked(`k:${user}|${address}`),
    ]);
    if (addr > 0) return { by: 'address', untilMs: addr };
    if (pair > 0) return { by: 'user', untilMs: pair };
    if (spray > 0 && !known) return { by: 'user', untilMs: spray };
    return null;
  }

  async failure(user: string, address: string): Promise<void> {
    const { maxFailures, windowMs, lockMs } = this.limits;
    const now = this.now();
    const [pair, addr, spray] = await Promise.all([
      this.store.hit(`p:${user}|${address}`, windowMs),
      this.store.hit(`a:${address}`, windowMs),
      this.store.hit(`u:${user}`, windowMs),
    ]);
    if (pair >= maxFailures) await this.store.block(`p:${user}|${address}`, now + Math.min(MAX_WAIT_MS, lockMs * 2 ** Math.min(20, pair - maxFailures)));
    if (addr >= SPRAY_FACTOR * maxFailures) await this.store.block(`a:${address}`, now + lockMs);
    if (spray >= SPRAY_FACTOR * maxFailures) await this.store.block(`u:${user}`, now + lockMs);
  }

  async success(user: string, address: string): Promise<void> {
    await Promise.all([this.store.reset(`p:${user}|${address}`), this.store.mark(`k:${user}|${address}`, KNOWN_ADDRESS_MS)]);
  }
}
