import { describe, expect, it } from 'vitest';
import type { TaskShot } from '@ship-cctv/protocol';
import { bucketSize, rateUnit, shotBuckets, sizeUnit } from './shot-buckets.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const shot = (index: number, plannedAt: number, state: TaskShot['state']): TaskShot => ({ cameraId: 'c', index, plannedAt, state, pictureId: null, reason: null });

describe('shot buckets', () => {
  it('picks the shortest stretch that keeps a window within 48 bars', () => {
    expect(bucketSize(HOUR)).toBe(5 * MINUTE);
    expect(bucketSize(24 * HOUR)).toBe(30 * MINUTE);
    expect(bucketSize(30 * 24 * HOUR)).toBe(24 * HOUR);
    expect(sizeUnit(30 * MINUTE)).toEqual({ unit: 'minutes', count: 30 });
    expect(sizeUnit(3 * HOUR)).toEqual({ unit: 'hours', count: 3 });
    expect(sizeUnit(24 * HOUR)).toEqual({ unit: 'days', count: 1 });
  });

  it('counts the shots of each bar by state, in time order, clamping shots at the window edges', () => {
    const start = Date.UTC(2026, 10, 28);
    const shots = [shot(0, start, 'onShore'), shot(1, start + 10 * MINUTE, 'failed'), shot(2, start + 59 * MINUTE, 'planned'), shot(3, start + 60 * MINUTE, 'planned')];
    const { size, buckets } = shotBuckets(shots, start, start + HOUR);
    expect(size).toBe(5 * MINUTE);
    expect(buckets.map((b) => [b.from - start, b.total])).toEqual([
      [0, 1],
      [10 * MINUTE, 1],
      [55 * MINUTE, 2],
    ]);
    expect(buckets[2]?.counts).toEqual({ planned: 2, onItsWay: 0, onShore: 0, failed: 0 });
  });

  it('gives a rate in seconds, minutes or hours', () => {
    expect(rateUnit(0.02)).toEqual({ unit: 'minutes', count: 1.2 });
    expect(rateUnit(0.25)).toEqual({ unit: 'minutes', count: 15 });
    expect(rateUnit(1 / 120)).toEqual({ unit: 'seconds', count: 30 });
    expect(rateUnit(1)).toEqual({ unit: 'hours', count: 1 });
    expect(rateUnit(2.5)).toEqual({ unit: 'hours', count: 2.5 });
  });
});
