import { describe, expect, it } from 'vitest';
import { backoffDelay, redialDelay } from '../src/backoff.ts';

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
