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

  it("leaves out a joining viewer's opening and a lone stall, but not a second one", () => {
    // A stall upstream: 6 frames held, then released together (the oldest 500 ms late).
    const stall = (at: number) => (i: number) => (i >= at && i < at + 6 ? (at + 5 - i) * 100 + (i - at) * 3 : 0);
    const j = new ArrivalJitter();
    // Joining 0.5 s after a keyframe: its 5 pictures come first, stamped 1 ms apart just before the
    // live ones (squeezed by the ship), one append each 20–80 ms apart.
    for (let i = 0; i < 5; i++) j.note(50_000 + i * 20, 0.002 + i * 0.001);
    // Then frames as they are captured, a frame apart, on time.
    feed(j, 100, () => 0, 0.5, 50_100);
    expect(j.allowanceMs()).toBe(0);
    // On a slow link a GOP of 40 frames (4 s) takes 1.8 s to come, 45 ms apart: still the opening
    // after its first second, as long as they come together (less than half a frame apart).
    const slow = new ArrivalJitter();
    for (let i = 0; i < 40; i++) slow.note(50_000 + i * 45, (i + 1) * 0.1);
    // And a lone stall later: the window's worst bunch, not counted either.
    feed(slow, 100, (i) => stall(50)(i), 4, 51_850);
    expect(slow.allowanceMs()).toBe(0);
    feed(j, 50, stall(20), 10.5, 60_100);
    expect(j.allowanceMs()).toBe(0);
    // Another one within the window: the stalls recur, and the next late frames are waited for.
    feed(j, 50, stall(20), 15.5, 65_100);
    expect(j.allowanceMs()).toBeGreaterThanOrEqual(200);
    // The same six frames late but a frame apart (the link's delay stepping up) always count.
    const k = new ArrivalJitter();
    feed(k, 100, (i) => (i >= 50 && i < 56 ? 500 : 0));
    expect(k.allowanceMs()).toBeCloseTo(500, 6);
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
