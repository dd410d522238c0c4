import { describe, expect, it } from 'vitest';
import { type PresentedFrame, smoothness } from '../../bench/smoothness.ts';

/** A camera at 10 fps shown `delayMs` after capture, every frame on time. */
const steady = (n: number, delayMs = 120): PresentedFrame[] => Array.from({ length: n }, (_, i) => [1_000 + i * 100 + delayMs, 1_000 + i * 100] as const);

describe('smoothness of presented frames (live-video benchmark)', () => {
  it('counts nothing against a picture that shows every frame on time', () => {
    const s = smoothness(steady(50), 100);
    expect(s).toMatchObject({ expected: 50, presented: 50, dropped: 0, frozen: 0, repeated: 0, backward: 0, badPct: 0, longestStillMs: 100 });
    expect(new Set(s.glass)).toEqual(new Set([120]));
  });

  it('a frame never shown is dropped, not also frozen', () => {
    const frames = steady(20).filter((_, i) => i !== 7);
    const s = smoothness(frames, 100);
    expect(s).toMatchObject({ expected: 20, dropped: 1, frozen: 0, repeated: 0 });
    expect(s.badPct).toBeCloseTo(5, 6);
  });

  it('a late frame freezes the picture for the slots it stood still', () => {
    // Frame 5 comes 300 ms late: frame 4 stays up 400 ms (three slots too many); 6 follows at once.
    const frames = steady(12).map(([w, c], i) => (i === 5 ? ([w + 300, c] as const) : i === 6 ? ([w + 210, c] as const) : ([w, c] as const)));
    const s = smoothness(frames, 100);
    expect(s).toMatchObject({ dropped: 0, frozen: 3, repeated: 0, longestStillMs: 400 });
  });

  it('a step back shows frames again: repeated, and backward when older than the one before', () => {
    const frames: PresentedFrame[] = [...steady(10), [2_060, 1_700], [2_160, 1_800], [2_260, 1_900], [2_360, 2_000]];
    const s = smoothness(frames, 100);
    expect(s).toMatchObject({ repeated: 3, backward: 1, dropped: 0 });
  });

  it('judges frames of a lower definition by its own frame rate (5 fps is not every other frame dropped)', () => {
    const ten = steady(10).map(([w, c]) => [w, c, 100] as const);
    const five: PresentedFrame[] = Array.from({ length: 10 }, (_, i) => [2_120 + i * 200, 2_000 + i * 200, 200] as const);
    const s = smoothness([...ten, ...five], 100);
    expect(s).toMatchObject({ expected: 20, presented: 20, dropped: 0, frozen: 0, badPct: 0 });
    // Without the frame duration the same frames read as every other one dropped.
    expect(smoothness([...ten, ...five.map(([w, c]) => [w, c] as const)], 100).dropped).toBe(9);
  });

  it('counts only the window asked for', () => {
    const frames = steady(100);
    const s = smoothness(frames, 100, 3_000, 5_000);
    expect(s.presented).toBe(20);
    expect(s.expected).toBe(20);
    expect(smoothness(frames.slice(0, 1), 100).badPct).toBeNaN();
  });
});
