import { describe, expect, it } from 'vitest';
import { decideLiveEdge, toRanges, trimRange } from '../src/live-edge.ts';
import { timeRanges } from './fakes.ts';

const base = { targetSec: 0.3, jumpSec: 1 };

describe('decideLiveEdge', () => {
  it('does nothing with an empty buffer', () => {
    expect(decideLiveEdge({ ...base, currentTime: 0, ranges: [] })).toEqual({ latencySec: undefined, playbackRate: 1 });
  });

  it('plays at 1.0 near the target, including a little jitter above it', () => {
    expect(decideLiveEdge({ ...base, currentTime: 9.8, ranges: [[0, 10]] })).toEqual({ latencySec: expect.closeTo(0.2, 5), playbackRate: 1 });
    expect(decideLiveEdge({ ...base, currentTime: 9.67, ranges: [[0, 10]] }).playbackRate).toBe(1);
  });

  it('catches up on a real surplus gently: 1.03–1.1× in proportion, never faster', () => {
    expect(decideLiveEdge({ ...base, currentTime: 9.6, ranges: [[0, 10]] }).playbackRate).toBe(1.05);
    expect(decideLiveEdge({ ...base, currentTime: 9.65, ranges: [[0, 10]] }).playbackRate).toBe(1.03);
    expect(decideLiveEdge({ ...base, currentTime: 9.2, ranges: [[0, 10]] }).playbackRate).toBe(1.1);
    expect(decideLiveEdge({ ...base, currentTime: 8.8, ranges: [[0, 10]] }).playbackRate).toBe(1.1);
  });

  it('starts catching up 40 ms over the target and carries on down to 10 ms over it', () => {
    const at = (currentTime: number, currentRate: number) =>
      decideLiveEdge({ ...base, currentTime, currentRate, ranges: [[0, 10]] }).playbackRate;
    // 30 ms over: not yet from 1.0, but on from a catch-up already running.
    expect(at(9.67, 1)).toBe(1);
    expect(at(9.67, 1.05)).toBe(1.03);
    // 10 ms over or less: stop.
    expect(at(9.695, 1.03)).toBe(1);
  });

  it('judges the surplus by the latency measured as frames come, when given', () => {
    // currentTime is 0.4 s from the end now (the saw-tooth between frames), but frames come 0.3 s ahead.
    expect(decideLiveEdge({ ...base, currentTime: 9.6, arrivalLatencySec: 0.3, ranges: [[0, 10]] }).playbackRate).toBe(1);
    expect(decideLiveEdge({ ...base, currentTime: 9.8, arrivalLatencySec: 0.5, ranges: [[0, 10]] }).playbackRate).toBe(1.1);
  });

  it('never seeks back to a frame already shown: a stuck clock moves on to the next frame, not to the target', () => {
    // currentTime stuck at 9.0 while frames up to 9.8 showed; the target would land at 9.7.
    const stuck = decideLiveEdge({ ...base, currentTime: 9.0, presentedTime: 9.8, newestShownSec: 9.8, stuckSec: 1, frameSec: 0.1, ranges: [[0, 10]] });
    expect(stuck.seekTo).toBeCloseTo(9.901, 6);
    // Without the frames shown, the target's landing.
    expect(decideLiveEdge({ ...base, currentTime: 9.0, stuckSec: 1, frameSec: 0.1, ranges: [[0, 10]] }).seekTo).toBeCloseTo(9.7, 6);
    // Nothing newer than the newest frame shown is buffered: no seek at all, it waits.
    const waiting = decideLiveEdge({ ...base, currentTime: 9.0, presentedTime: 9.95, newestShownSec: 9.95, stuckSec: 1, frameSec: 0.1, ranges: [[0, 10]] });
    expect(waiting.seekTo).toBeUndefined();
    expect(waiting.playbackRate).toBe(1);
  });

  it('a far-behind jump lands at the target, which is ahead of every frame shown', () => {
    const d = decideLiveEdge({ ...base, currentTime: 5, newestShownSec: 5, frameSec: 0.1, ranges: [[0, 10]] });
    expect(d.seekTo).toBeCloseTo(9.7, 6);
  });

  it('rebuilds a buffer below the target by playing a little slower, starved or not, down to 0.9×', () => {
    // Frames come 0.1 s ahead of the playhead (one frame: at the edge) while the target is 0.3 s.
    const edge = decideLiveEdge({ ...base, currentTime: 9.9, arrivalLatencySec: 0.1, starved: true, ranges: [[0, 10]] });
    expect(edge.playbackRate).toBe(0.9);
    expect(edge.seekTo).toBeUndefined();
    expect(decideLiveEdge({ ...base, currentTime: 9.75, arrivalLatencySec: 0.25, ranges: [[0, 10]] }).playbackRate).toBe(0.97);
    // 30 ms short: not yet from 1.0, but on from a rebuild already running; 5 ms short: done.
    expect(decideLiveEdge({ ...base, currentTime: 9.73, arrivalLatencySec: 0.27, ranges: [[0, 10]] }).playbackRate).toBe(1);
    expect(decideLiveEdge({ ...base, currentTime: 9.73, arrivalLatencySec: 0.27, currentRate: 0.97, ranges: [[0, 10]] }).playbackRate).toBe(0.97);
    expect(decideLiveEdge({ ...base, currentTime: 9.705, arrivalLatencySec: 0.295, currentRate: 0.97, ranges: [[0, 10]] }).playbackRate).toBe(1);
  });

  it('never speeds up or jumps a starved element (waiting for the next frame at the end)', () => {
    expect(decideLiveEdge({ ...base, currentTime: 9.95, starved: true, stuckSec: 5, ranges: [[0, 10]] })).toEqual({
      latencySec: expect.closeTo(0.05, 5),
      playbackRate: 1,
    });
    // Starved with a surplus that is not yet a jump: rate 1, no seek, even mid catch-up.
    expect(decideLiveEdge({ ...base, currentTime: 9.5, starved: true, currentRate: 1.1, ranges: [[0, 10]] })).toEqual({
      latencySec: expect.closeTo(0.5, 5),
      playbackRate: 1,
    });
  });

  it('moves a clock that stands behind the frame on screen up to the next frame at once (frames shown as they come)', () => {
    // currentTime lags 0.8 s, but the frame on screen is the newest: the picture is live, and the
    // clock is moved to the frame after it before it restarts from 9.1 and freezes the picture.
    const d = decideLiveEdge({ ...base, currentTime: 9.1, presentedTime: 9.9, newestShownSec: 9.9, starved: true, stuckSec: 0.25, ranges: [[0, 10]] });
    expect(d).toEqual({ latencySec: expect.closeTo(-0.001, 5), playbackRate: 1, seekTo: expect.closeTo(10.001, 6) });
    // Without newestShownSec as well: never back to the frame on screen or before it.
    expect(decideLiveEdge({ ...base, currentTime: 9.1, presentedTime: 9.9, ranges: [[0, 10]] }).seekTo).toBeCloseTo(10.001, 6);
    // A clock restarted from where it stood (the picture frozen meanwhile): moved up as well.
    const restarted = decideLiveEdge({ ...base, currentTime: 9.5, presentedTime: 9.7, newestShownSec: 9.7, frameSec: 0.1, ranges: [[0, 10]] });
    expect(restarted.seekTo).toBeCloseTo(9.801, 6);
    // Up to a frame behind the picture is how Chrome plays (it shows a frame a little before its time).
    expect(decideLiveEdge({ ...base, currentTime: 9.8, presentedTime: 9.9, ranges: [[0, 10]] }).seekTo).toBeUndefined();
    // At most once a second: not within a second of the player's last seek.
    expect(decideLiveEdge({ ...base, currentTime: 9.5, presentedTime: 9.7, sinceSeekSec: 0.75, ranges: [[0, 10]] }).seekTo).toBeUndefined();
    expect(decideLiveEdge({ ...base, currentTime: 9.5, presentedTime: 9.7, sinceSeekSec: 1, ranges: [[0, 10]] }).seekTo).toBeCloseTo(9.801, 6);
  });

  it('restarts a clock stuck with media ahead by a seek to the target behind the end', () => {
    const stuck = { ...base, currentTime: 9.1, starved: true, ranges: [[0, 10]] as const };
    expect(decideLiveEdge({ ...stuck, stuckSec: 0.5 }).seekTo).toBe(9.7);
    // Only with more than the frame on screen ahead of the clock: otherwise it is just starved.
    expect(decideLiveEdge({ ...base, currentTime: 9.92, starved: true, stuckSec: 3, ranges: [[0, 10]] }).seekTo).toBeUndefined();
  });

  it('jumps to target behind the edge only for a surplus beyond jumpSec', () => {
    expect(decideLiveEdge({ ...base, currentTime: 8.8, ranges: [[0, 10]] }).seekTo).toBeUndefined();
    const d = decideLiveEdge({ ...base, currentTime: 8.6, ranges: [[0, 10]] });
    expect(d).toEqual({ latencySec: expect.closeTo(0.3, 5), playbackRate: 1, seekTo: 9.7 });
  });

  it('moves a playhead outside the newest range into it (gap after a reconnect)', () => {
    expect(decideLiveEdge({ ...base, currentTime: 4, ranges: [[0, 4], [4.5, 5]] }).seekTo).toBe(4.7);
    // A range shorter than the target: land at its start, not before it.
    expect(decideLiveEdge({ ...base, currentTime: 4, ranges: [[0, 4], [4.5, 4.6]] }).seekTo).toBe(4.5);
    // Before the first range (a buffer that does not start at 0).
    expect(decideLiveEdge({ ...base, currentTime: 0, ranges: [[12, 12.1]] }).seekTo).toBe(12);
  });

  it('treats a playhead waiting at the very end as live', () => {
    expect(decideLiveEdge({ ...base, currentTime: 10, ranges: [[0, 10]] })).toEqual({ latencySec: 0, playbackRate: 1 });
  });
});

describe('trimRange', () => {
  it('removes what is older than keepSec behind the playhead once 2 s have built up', () => {
    expect(trimRange([[0, 40]], 35, 20)).toEqual([0, 15]);
    expect(trimRange([[14, 40]], 35, 20)).toBeUndefined();
    expect(trimRange([[0, 10]], 9, 20)).toBeUndefined();
    expect(trimRange([], 9, 20)).toBeUndefined();
  });

  it('frees any amount with minSec 0 (quota pressure)', () => {
    expect(trimRange([[10, 12]], 11.5, 1, 0)).toEqual([10, 10.5]);
    expect(trimRange([[11, 12]], 11.5, 1, 0)).toBeUndefined();
  });
});

describe('toRanges', () => {
  it('copies TimeRanges into pairs', () => {
    expect(toRanges(timeRanges([[0, 1], [2, 3]]))).toEqual([[0, 1], [2, 3]]);
  });
});
