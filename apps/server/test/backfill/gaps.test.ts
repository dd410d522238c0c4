import { describe, expect, it } from 'vitest';
import { filesForGap, refillableGaps, type RecordedRun } from '../../src/modules/backfill/gaps.ts';

const S = 1_000;
const run = (start: number, end: number, o: Partial<RecordedRun> = {}): RecordedRun => ({ start: start * S, end: end * S, endedUnwatched: false, backfilled: false, ...o });
const opts = { minGapMs: 3 * S, maxGapMs: 3_600 * S, seamMs: 250 };

describe('gaps worth refilling', () => {
  it('finds the time between two recordings when the first was cut short', () => {
    expect(refillableGaps([run(100, 160), run(0, 60)], opts)).toEqual([{ start: 60 * S, end: 100 * S }]);
  });

  it('leaves seams, the time after a recording whose viewers left, gaps too long, and the time after the last recording', () => {
    expect(refillableGaps([run(0, 60), run(62, 100)], opts)).toEqual([]);
    expect(refillableGaps([run(0, 60, { endedUnwatched: true }), run(100, 160)], opts)).toEqual([]);
    expect(refillableGaps([run(0, 60), run(60 + 3_601, 4_000)], opts)).toEqual([]);
    expect(refillableGaps([run(0, 60)], opts)).toEqual([]);
  });

  it('merges overlapping recordings, and the one reaching furthest says how it ended', () => {
    // A backfilled recording overlapping both neighbours leaves no gap.
    expect(refillableGaps([run(0, 60), run(55, 105, { backfilled: true }), run(100, 160)], opts)).toEqual([]);
    // Inside a longer recording, a shorter one that ended unwatched does not hide the gap after the longer.
    expect(refillableGaps([run(0, 60), run(10, 20, { endedUnwatched: true }), run(100, 160)], opts)).toEqual([{ start: 60 * S, end: 100 * S }]);
  });

  it('refills what is left after a backfilled recording however short', () => {
    expect(refillableGaps([run(0, 60), run(58, 99, { backfilled: true }), run(100, 160)], opts)).toEqual([{ start: 99 * S, end: 100 * S }]);
  });

  it('takes the files overlapping the gap, oldest first', () => {
    const files = [run(120, 130), run(50, 70), run(70, 90), run(90, 110), run(0, 50)];
    expect(filesForGap(files, { start: 60 * S, end: 100 * S }).map((f) => f.start / S)).toEqual([50, 70, 90]);
  });
});
