import { describe, expect, it } from 'vitest';
import { SpanCache } from '../../src/modules/playback/span-cache.ts';

const K = 'S1001/S1001-C01-1';

describe('SpanCache', () => {
  it('answers a covered range and any range inside it, and nothing beyond what it was told', () => {
    const c = new SpanCache();
    c.store(K, 100, 200, [{ start: 90, end: 120 }, { start: 150, end: 160 }, { start: 190, end: 250 }], 0);
    expect(c.lookup(K, 100, 200, 1)).toEqual({ knownUntil: 200, spans: [{ start: 100, end: 120 }, { start: 150, end: 160 }, { start: 190, end: 200 }], gaps: [] });
    expect(c.lookup(K, 110, 155, 1)).toEqual({ knownUntil: 155, spans: [{ start: 110, end: 120 }, { start: 150, end: 155 }], gaps: [] });
    // Past the covered range: known up to 200, the rest must be asked.
    expect(c.lookup(K, 150, 300, 1)).toEqual({ knownUntil: 200, spans: [{ start: 150, end: 160 }, { start: 190, end: 200 }], gaps: [] });
    // Before it: nothing known.
    expect(c.lookup(K, 50, 150, 1)).toEqual({ knownUntil: 50, spans: [], gaps: [] });
    expect(c.lookup('other', 100, 200, 1)).toEqual({ knownUntil: 100, spans: [], gaps: [] });
  });

  it('joins touching ranges, and a span cut at their boundary comes back whole', () => {
    const c = new SpanCache();
    c.store(K, 0, 100, [{ start: 80, end: 100 }], 0);
    c.store(K, 100, 200, [{ start: 100, end: 130 }], 0);
    expect(c.lookup(K, 0, 200, 1)).toEqual({ knownUntil: 200, spans: [{ start: 80, end: 130 }], gaps: [] });
    // A newer answer for part of a range replaces what was known there.
    c.store(K, 50, 150, [], 2);
    expect(c.lookup(K, 0, 200, 3)).toEqual({ knownUntil: 200, spans: [], gaps: [] });
  });

  it('stops trusting an answer after maxAge (the ship deletes its oldest recordings)', () => {
    const c = new SpanCache({ maxAgeMs: 1_000 });
    c.store(K, 0, 100, [{ start: 10, end: 20 }], 0);
    c.store(K, 100, 200, [{ start: 150, end: 160 }], 600);
    expect(c.lookup(K, 0, 200, 900).knownUntil).toBe(200);
    expect(c.lookup(K, 0, 200, 1_200)).toEqual({ knownUntil: 0, spans: [], gaps: [] });
    expect(c.lookup(K, 100, 200, 1_200)).toEqual({ knownUntil: 200, spans: [{ start: 150, end: 160 }], gaps: [] });
  });

  it('stays within its bounds, forgetting the least recently used camera first', () => {
    const c = new SpanCache({ maxCameras: 2, maxSpans: 5 });
    c.store('a', 0, 100, [{ start: 0, end: 10 }], 0);
    c.store('b', 0, 100, [{ start: 0, end: 10 }], 0);
    c.lookup('a', 0, 100, 1); // a is now more recent than b
    c.store('c', 0, 100, [{ start: 0, end: 10 }], 1);
    expect(c.size).toEqual({ cameras: 2, spans: 2 });
    expect(c.lookup('b', 0, 100, 2).knownUntil).toBe(0);
    expect(c.lookup('a', 0, 100, 2).knownUntil).toBe(100);
    // Too many spans: older cameras go, then a camera that alone exceeds the bound is not kept.
    c.store('d', 0, 100, [0, 10, 20, 30].map((s) => ({ start: s, end: s + 5 })), 3);
    expect(c.size.spans).toBeLessThanOrEqual(5);
    c.store('e', 0, 100, [0, 10, 20, 30, 40, 50].map((s) => ({ start: s, end: s + 5 })), 4);
    expect(c.size.spans).toBeLessThanOrEqual(5);
    expect(c.lookup('e', 0, 100, 5).knownUntil).toBe(0);
  });
});
