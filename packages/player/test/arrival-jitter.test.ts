import { describe, expect, it } from 'vitest';
import { ArrivalJitter } from '../src/arrival-jitter.ts';

/** Frames of 100 ms arriving at `start + i·100 + late(i)` ms. */
function feed(j: ArrivalJitter, n: number, late: (i: number) => number, mediaStartSec = 0, wallStart = 50_000): void {
  for (let i = 0; i < n; i++) j.note(wallStart + i * 100 + late(i), mediaStartSec + (i + 1) * 0.1);
}

describe('ArrivalJitter', () => {
  it('says nothing until 30 frames came', () => {
    const j = new ArrivalJitter();
    feed(j, 29, () => 0);
    expect(j.allowanceMs()).toBeUndefined();
    feed(j, 1, () => 0, 2.9, 52_900);
    expect(j.allowanceMs()).toBe(0);
  });

  it('is how much later than the usual frame the late ones come (the latest 2 % may be later still)', () => {
    const j = new ArrivalJitter();
    // Every 10th frame 80 ms late, the rest on time.
    feed(j, 100, (i) => (i % 10 === 9 ? 80 : 0));
    expect(j.allowanceMs()).toBeCloseTo(80, 6);
    // One frame in 100 very late does not set the allowance.
    const k = new ArrivalJitter();
    feed(k, 100, (i) => (i === 50 ? 900 : 0));
    expect(k.allowanceMs()).toBeCloseTo(0, 6);
  });

  it('forgets late frames as newer ones push them out of its 200-frame window', () => {
    const j = new ArrivalJitter();
    feed(j, 100, (i) => (i % 5 === 0 ? 150 : 0));
    expect(j.allowanceMs()).toBeCloseTo(150, 6);
    feed(j, 200, () => 0, 10, 60_000);
    expect(j.allowanceMs()).toBe(0);
  });

  it('starts again for a new generation (its media times start elsewhere)', () => {
    const j = new ArrivalJitter();
    feed(j, 50, () => 0);
    j.restart();
    expect(j.allowanceMs()).toBeUndefined();
    // A new encoder whose media times are placed 3 s on: measured against itself only.
    feed(j, 50, () => 0, 8, 90_000);
    expect(j.allowanceMs()).toBe(0);
  });
});
