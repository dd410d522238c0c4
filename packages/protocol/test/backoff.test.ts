import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../src/backoff.ts';

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
