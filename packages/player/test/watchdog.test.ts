import { describe, expect, it } from 'vitest';
import { SlidingRate, stallVerdict } from '../src/watchdog.ts';

describe('stallVerdict', () => {
  const limits = { stallTimeoutMs: 4000, silenceReconnectMs: 15000 };

  it('is ok while the picture moves and bytes come', () => {
    expect(stallVerdict({ ...limits, now: 10_000, lastProgressAt: 9_800, lastBytesAt: 9_900 })).toBe('ok');
  });

  it('is stalled when the picture froze or the bytes stopped for stallTimeoutMs', () => {
    expect(stallVerdict({ ...limits, now: 10_000, lastProgressAt: 6_000, lastBytesAt: 9_900 })).toBe('stalled');
    expect(stallVerdict({ ...limits, now: 10_000, lastProgressAt: 9_900, lastBytesAt: 6_000 })).toBe('stalled');
  });

  it('is frozen when the picture stood still twice the stall timeout while bytes kept coming', () => {
    expect(stallVerdict({ ...limits, now: 10_000, lastProgressAt: 2_000, lastBytesAt: 9_900 })).toBe('frozen');
    expect(stallVerdict({ ...limits, now: 10_000, lastProgressAt: 2_100, lastBytesAt: 9_900 })).toBe('stalled');
    // The bytes stopped too: the link, not the element — stalled, then a reconnect.
    expect(stallVerdict({ ...limits, now: 10_000, lastProgressAt: 1_000, lastBytesAt: 5_000 })).toBe('stalled');
  });

  it('asks for a reconnect after a long silence', () => {
    expect(stallVerdict({ ...limits, now: 20_000, lastProgressAt: 4_000, lastBytesAt: 5_000 })).toBe('reconnect');
  });
});

describe('SlidingRate', () => {
  it('gives units per second over the window and forgets older samples', () => {
    const rate = new SlidingRate(2000);
    expect(rate.perSecond()).toBe(0);
    rate.add(0, 0);
    rate.add(1000, 50_000);
    expect(rate.perSecond()).toBe(50_000);
    rate.add(2000, 100_000);
    rate.add(3000, 100_000); // silence: the sample at 0 drops out
    expect(rate.perSecond()).toBe(25_000);
    rate.add(5000, 100_000);
    expect(rate.perSecond()).toBe(0);
  });
});
