import { describe, expect, it } from 'vitest';
import { CLOSE_SHORE_RESTART, RedialPlan, SHORE_RESTART_BACKOFF, backoffDelay, redialDelay } from '../src/backoff.ts';

describe('backoffDelay', () => {
  const range = { minMs: 500, maxMs: 8000 };

  it('doubles from minMs and stops at maxMs', () => {
    expect([0, 1, 2, 3, 4, 5, 9, 60].map((n) => backoffDelay(n, range, 0))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000, 8000]);
  });

  it('jitters down by at most a fifth, never below minMs', () => {
    expect(backoffDelay(3, range, 1)).toBe(3200);
    expect(backoffDelay(0, range, 1)).toBe(500);
    for (let i = 0; i < 50; i++) {
      const d = backoffDelay(2, range);
      expect(d).toBeGreaterThanOrEqual(1600);
      expect(d).toBeLessThanOrEqual(2000);
    }
  });
});

describe('redialDelay', () => {
  const range = { minMs: 1000, maxMs: 30_000 };

  it('is the jittered backoff when shore named no time', () => {
    expect([0, 1, 2, 5, 20].map((n) => redialDelay(n, range, undefined, 0))).toEqual([1000, 2000, 4000, 30_000, 30_000]);
    expect([0, 1, 2, 5, 20].map((n) => redialDelay(n, range, undefined, 1))).toEqual([1000, 1600, 3200, 24_000, 24_000]);
  });

  it("takes shore's time to come back over the backoff, and up to a fifth more", () => {
    expect(redialDelay(6, range, 2500, 0)).toBe(2500);
    expect(redialDelay(0, range, 2500, 1)).toBe(3000);
    expect(redialDelay(0, range, 0, 1)).toBe(0);
  });
});

describe('RedialPlan', () => {
  const range = { minMs: 1000, maxMs: 30_000 };
  /** Delays of `n` dials that fail (each closes abnormally, 1006), from `now`, `stepMs` apart. */
  const failing = (plan: RedialPlan, n: number, now: number, stepMs = 1_000) => Array.from({ length: n }, (_, i) => plan.closed(1006, undefined, now + i * stepMs, 0));

  it('backs off as usual after a lost link, and starts over only after a welcome', () => {
    const plan = new RedialPlan(range);
    expect(failing(plan, 7, 0)).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
    plan.welcomed();
    expect(failing(plan, 2, 100_000)).toEqual([1000, 2000]);
  });

  it('after shore says it restarts (1012, or 1001 going away), redials every 1–5 s for a while, then backs off as usual', () => {
    const plan = new RedialPlan(range);
    failing(plan, 6, 0); // deep in its backoff already
    expect(plan.closed(CLOSE_SHORE_RESTART, undefined, 10_000, 0)).toBe(1000);
    // Dials to a shore still down: never more than 5 s apart while the window lasts…
    expect(failing(plan, 5, 11_000)).toEqual([2000, 4000, 5000, 5000, 5000]);
    expect(failing(plan, 3, 10_000 + SHORE_RESTART_BACKOFF.forMs - 3_000).every((d) => d <= SHORE_RESTART_BACKOFF.maxMs)).toBe(true);
    // …then the usual backoff again, from where it had got to.
    expect(plan.closed(1006, undefined, 10_000 + SHORE_RESTART_BACKOFF.forMs + 1, 0)).toBe(30_000);
    // Going away as earlier shores said it counts the same.
    expect(plan.closed(1001, undefined, 200_000, 0)).toBe(1000);
  });

  it("takes shore's time to come back over either", () => {
    const plan = new RedialPlan(range);
    plan.closed(CLOSE_SHORE_RESTART, undefined, 0, 0);
    expect(plan.closed(4003, 12_000, 1_000, 0)).toBe(12_000);
  });
});
