import { describe, expect, it } from 'vitest';
import { FrameRateMeter } from '../../src/media/frame-rate.ts';

/** A 10 fps camera that stamps each picture as it arrives on a busy machine: ±`jitter` ms, seeded. */
function jittered(n: number, jitter: number): number[] {
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  return Array.from({ length: n }, (_, i) => 1_000 + i * 100 + (next() * 2 - 1) * jitter);
}

describe('a camera frame rate measured over its last pictures', () => {
  it('reads a 10 fps camera whose stamps jitter by ±40 ms within the 2 % that would re-encode it, at every picture once 5 s are in', () => {
    const meter = new FrameRateMeter();
    const rates: number[] = [];
    for (const [i, ms] of jittered(600, 40).entries()) {
      meter.note(ms);
      const rate = meter.rate();
      // Under a second of stamps (9 gaps of 100 ± 80 ms at most): not yet.
      if (i < 9) expect(rate).toBeUndefined();
      else if (rate !== undefined && i >= 50) rates.push(rate);
    }
    expect(rates.length).toBe(550);
    // 2 % over the template's rate would re-encode the stream (ffmpeg-args.ts FRAME_RATE_TOLERANCE).
    expect(Math.max(...rates)).toBeLessThan(10.2);
    expect(Math.min(...rates)).toBeGreaterThan(9.8);
    // A running average of the gaps (what info() gave before) reads the same stamps above 10.2.
    let frameMs = 100;
    let most = 0;
    const stamps = jittered(600, 40);
    for (let i = 1; i < stamps.length; i++) {
      frameMs = frameMs * 0.8 + ((stamps[i] ?? 0) - (stamps[i - 1] ?? 0)) * 0.2;
      most = Math.max(most, 1000 / frameMs);
    }
    expect(most).toBeGreaterThan(10.2);
  });

  it('follows a camera that changes its rate once the old stamps are gone, and starts afresh on a jump', () => {
    const meter = new FrameRateMeter();
    for (let i = 0; i < 50; i++) meter.note(i * 100);
    expect(meter.rate()).toBeCloseTo(10, 6);
    for (let i = 1; i <= 50; i++) meter.note(4_900 + i * 40);
    expect(meter.rate()).toBeCloseTo(25, 6);
    meter.restart();
    expect(meter.rate()).toBeUndefined();
  });

  it('takes B-frames out of order', () => {
    const meter = new FrameRateMeter();
    // Presentation order 0, 3, 1, 2, 6, 4, 5 … (two B-frames), 40 ms apart.
    const order = [0, 3, 1, 2, 6, 4, 5, 9, 7, 8, 12, 10, 11, 15, 13, 14, 18, 16, 17, 21, 19, 20, 24, 22, 23, 27, 25, 26];
    for (const k of order) meter.note(k * 40);
    expect(meter.rate()).toBeCloseTo(25, 6);
  });
});
