export interface FailureLimits {
  /** Failures within the window that lock the key. */
  maxFailures: number;
  windowMs: number;
  lockMs: number;
}

/**
 * Counts failures per key (a user name) in a sliding window and locks the key for a while once
 * too many pile up. In memory: with several instances each counts on its own, which still bounds
 * guessing to instances × maxFailures per window.
 */
export class FailureLimiter {
  private readonly entries = new Map<string, { failures: number[]; lockedUntil: number }>();

  constructor(
    private readonly limits: FailureLimits,
    private readonly now: () => number = Date.now,
  ) {}

  isLocked(key: string): boolean {
    const e = this.entries.get(key);
    return e !== undefined && e.lockedUntil > this.now();
  }

  fail(key: string): void {
    const now = this.now();
    const e = this.entries.get(key) ?? { failures: [], lockedUntil: 0 };
    e.failures = e.failures.filter((t) => now - t < this.limits.windowMs);
    e.failures.push(now);
    if (e.failures.length >= this.limits.maxFailures) {
      e.lockedUntil = now + this.limits.lockMs;
      e.failures = [];
    }
    this.entries.set(key, e);
    if (this.entries.size > 10_000) this.prune(now);
  }

  clear(key: string): void {
    this.entries.delete(key);
  }

  private prune(now: number): void {
    for (const [key, e] of this.entries) {
      if (e.lockedUntil <= now && e.failures.every((t) => now - t >= this.limits.windowMs)) this.entries.delete(key);
    }
  }
}
