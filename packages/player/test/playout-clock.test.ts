import { describe, expect, it } from 'vitest';
import { PlayoutClock } from '../src/frames/playout-clock.ts';

/** Frames 100 ms apart arriving `delay(i)` ms after their media time (plus a base of 5000 ms). */
function feed(clock: PlayoutClock, n: number, delay: (i: number) => number, from = 0): number[] {
  const dues: number[] = [];
  for (let i = from; i < from + n; i++) {
    clock.arrived(5000 + i * 100 + delay(i), i * 100);
    dues.push(clock.dueAt(i * 100));
  }
  return dues;
}

describe('the playout clock', () => {
  it('on an even link holds frames only the least allowance, a frame apart', () => {
    const clock = new PlayoutClock({ initialAllowanceMs: 60, minAllowanceMs: 15, marginMs: 15 });
    const dues = feed(clock, 300, () => 40);
    // Settled: 5040 (earliest path) + 15 ms, frames exactly 100 ms apart.
    expect(dues.at(-1)).toBeCloseTo(5000 + 299 * 100 + 40 + 15, 5);
    expect(clock.allowanceMs()).toBe(15);
    const steps = dues.slice(1).map((d, i) => d - (dues[i] ?? 0));
    // Never faster or slower than the slew (8 % of a frame) allows.
    expect(Math.min(...steps)).toBeGreaterThanOrEqual(92 - 1e-9);
    expect(Math.max(...steps)).toBeLessThanOrEqual(108 + 1e-9);
  });

  it('waits as long as the late 2 % of frames need on a jittery link', () => {
    const clock = new PlayoutClock();
    // Every 10th frame 150 ms late, the others 40 ms: 10 % late, so the allowance covers them.
    feed(clock, 400, (i) => (i % 10 === 0 ? 190 : 40));
    expect(clock.allowanceMs()).toBe(150 + 15);
    // Rare spikes (1 in 100) are not waited for.
    const calm = new PlayoutClock();
    feed(calm, 400, (i) => (i % 100 === 0 ? 400 : 40 + (i % 3)));
    expect(calm.allowanceMs()).toBeLessThan(30);
  });

  it('after a frame shown late, keeps the spacing of the next ones, then drains the extra at the slew', () => {
    const clock = new PlayoutClock({ minSamples: 5 });
    const dues = feed(clock, 50, () => 40);
    const due = dues.at(-1) ?? 0;
    clock.late(due, due + 300);
    const next = feed(clock, 1, () => 40, 50)[0] ?? 0;
    expect(next - (due + 300)).toBeCloseTo(100 - 8, 5);
    const later = feed(clock, 100, () => 40, 51);
    expect(later.at(-1)).toBeCloseTo(5000 + 150 * 100 + 40 + 15, 5);
  });

  it('does not step when what it measured changes: the earliest frame leaving its window, a burst of late ones', () => {
    const clock = new PlayoutClock();
    // One frame 30 ms quicker than the rest, which leaves the window 200 frames (20 s) later; then
    // 10 frames 120 ms late in a row (a stall upstream).
    const dues = feed(clock, 600, (i) => (i === 20 ? 10 : i >= 400 && i < 410 ? 160 : 40));
    const steps = dues.slice(12).map((d, i) => d - (dues[i + 11] ?? 0));
    // Every frame a frame after the one before, give or take the slew: no step of a refresh or a frame.
    expect(Math.min(...steps)).toBeGreaterThanOrEqual(92 - 1e-9);
    expect(Math.max(...steps)).toBeLessThanOrEqual(108 + 1e-9);
    // The quick frame leaving moved nothing (the aim is the late 2 %'s arrival + the margin, whatever
    // the earliest); the burst (5 % of the window) raised it by 120 ms, reached at the slew.
    expect((dues[300] ?? 0) - (dues[100] ?? 0)).toBeCloseTo(200 * 100, 6);
    expect((dues[450] ?? 0) - (dues[390] ?? 0)).toBeCloseTo(60 * 100 + 120, 6);
  });

  it('lets one hold upstream through as a frame held instead of waiting for it 20 s; a second one raises the allowance', () => {
    const clock = new PlayoutClock();
    // A stall of 700 ms upstream: frames 300–307 held, then released together (2 ms apart).
    const stall = (at: number) => (i: number) => (i >= at && i < at + 8 ? (at + 7 - i) * 100 + 40 + (i - at) * 2 : 40);
    feed(clock, 300, () => 40);
    // Frame 300, due 55 ms after its media time, could only be shown when the bunch came, 700 ms later.
    const due = feed(clock, 1, stall(300), 300)[0] ?? 0;
    clock.late(due, 5000 + 307 * 100 + 40);
    feed(clock, 79, stall(300), 301);
    expect(clock.allowanceMs()).toBe(15);
    // The extra drains at the slew (8 ms a frame): 100 frames after the stall the picture is back at
    // the even link's offset.
    const after = feed(clock, 30, () => 40, 380);
    expect(after.at(-1)).toBeCloseTo(5000 + 409 * 100 + 40 + 15, 5);
    // The same stall again within the window: recurring, so now waited for (the 4th latest frame of
    // the other bunch, 400 ms over the even ones, is covered).
    feed(clock, 50, stall(450), 410);
    expect(clock.allowanceMs()).toBe(400 + 6 + 15);
    // The same frames spaced a frame apart (the link's delay stepping up) were never a bunch: they count.
    const stepped = new PlayoutClock();
    feed(stepped, 380, (i) => (i >= 300 && i < 308 ? 440 : 40));
    expect(stepped.allowanceMs()).toBe(400 + 15);
  });

  it('a restart forgets the media clock but carries the allowance to the next encoder', () => {
    const clock = new PlayoutClock();
    feed(clock, 200, (i) => (i % 10 === 0 ? 190 : 40));
    const allowance = clock.allowanceMs();
    clock.restart();
    expect(clock.bufferedMs()).toBeUndefined();
    expect(clock.allowanceMs()).toBe(allowance);
    // A new generation whose media times start at 0 again, arriving 1 minute on.
    clock.arrived(65_000, 0);
    expect(clock.dueAt(0)).toBe(65_000 + allowance);
  });
});
