/**
 * How fast an instance takes ships' new links: `perSecond` hellos a second on average, up to
 * `burst` at once. Each hello taken costs the instance a status write, its publication to operators,
 * a database read and an ownership claim; after a shore restart or a satellite beam switch every
 * ship says hello in the same few seconds, and taking them all at once would stall the instance
 * (and Redis) for everyone. The default takes the demo's fleet, and any few hundred ships, at once.
 */
export interface AdmissionOptions {
  /** New links taken per second, on average (default 100). */
  perSecond?: number | undefined;
  /** New links taken at once before the rate applies (default 200). */
  burst?: number | undefined;
  /** The longest a refused ship is told to wait, ms (default 60 s). */
  maxRetryAfterMs?: number | undefined;
}

export const ADMISSION_DEFAULTS = { perSecond: 100, burst: 200, maxRetryAfterMs: 60_000 } as const;

export type Admission = { admitted: true } | { admitted: false; retryAfterMs: number };

/**
 * A token bucket for new links, and a schedule for the refused: each refused ship is told to come
 * back at the next free moment of the rate after those told before it (one slot each), so a wall
 * of ships refused together returns spread out at the rate the instance takes them, not as a wall
 * again. A slot is a promise of time, not a reservation: whoever comes first when a token is there
 * is taken.
 */
export class AdmissionGate {
  readonly perSecond: number;
  readonly burst: number;
  private readonly maxRetryAfterMs: number;
  private tokens: number;
  private refilledAt: number;
  /** The moment the last refused ship was told to come back. */
  private promisedAt = 0;
  /** Hellos taken and refused so far (for metrics and tests). */
  readonly counts = { admitted: 0, refused: 0 };

  constructor(opts: AdmissionOptions = {}, now = Date.now()) {
    this.perSecond = opts.perSecond ?? ADMISSION_DEFAULTS.perSecond;
    this.burst = Math.max(1, opts.burst ?? ADMISSION_DEFAULTS.burst);
    this.maxRetryAfterMs = opts.maxRetryAfterMs ?? ADMISSION_DEFAULTS.maxRetryAfterMs;
    if (!(this.perSecond > 0)) throw new Error(`admission rate must be above 0 links a second, got ${this.perSecond}`);
    this.tokens = this.burst;
    this.refilledAt = now;
  }

  /** Takes a new link now, or says how long the ship is to wait. */
  admit(now = Date.now()): Admission {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) / 1000) * this.perSecond);
    this.refilledAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      this.counts.admitted += 1;
      return { admitted: true };
    }
    const slotMs = 1000 / this.perSecond;
    // The first free moment: when the bucket next holds a token, or after the last ship promised one.
    const nextToken = now + (1 - this.tokens) * slotMs;
    this.promisedAt = Math.min(Math.max(this.promisedAt + slotMs, nextToken), now + this.maxRetryAfterMs);
    this.counts.refused += 1;
    return { admitted: false, retryAfterMs: Math.max(1, Math.ceil(this.promisedAt - now)) };
  }
}
