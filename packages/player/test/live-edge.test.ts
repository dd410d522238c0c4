import { describe, expect, it } from 'vitest';
import { decideLiveEdge, toRanges, trimRange } from '../src/live-edge.ts';
import { timeRanges } from './fakes.ts';

const base = { targetSec: 0.3, jumpSec: 3 };

describe('decideLiveEdge', () => {
  it('does nothing with an empty buffer', () => {
    expect(decideLiveEdge({ ...base, currentTime: 0, ranges: [] })).toEqual({ latencySec: undefined, playbackRate: 1 });
  });

  it('plays at 1.0 near the target, including a little jitter above it', () => {
    expect(decideLiveEdge({ ...base, currentTime: 9.8, ranges: [[0, 10]] })).toEqual({ latencySec: expect.closeTo(0.2, 5), playbackRate: 1 });
    expect(decideLiveEdge({ ...base, currentTime: 9.67, ranges: [[0, 10]] }).playbackRate).toBe(1);
  });

  it('speeds up in proportion to the excess, up to 1.5', () => {
    expect(decideLiveEdge({ ...base, currentTime: 9.5, ranges: [[0, 10]] }).playbackRate).toBe(1.2);
    expect(decideLiveEdge({ ...base, currentTime: 8, ranges: [[0, 10]] }).playbackRate).toBe(1.5);
  });

  it('jumps to target behind the edge when further behind than jumpSec', () => {
    const d = decideLiveEdge({ ...base, currentTime: 5, ranges: [[0, 10]] });
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
