import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RunLog } from '@ship-cctv/agent';
import { clipSpans, spansLength } from '@ship-cctv/protocol';
import { tempDir } from '../../../../apps/agent/test/media/helpers.ts';
import { demoGaps } from '../../src/camera/demo-gaps.ts';
import { SyntheticRecorder } from '../../src/camera/synthetic-recording.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const NOW = Date.UTC(2026, 4, 10, 12, 0, 0);
const tmp = tempDir('synthetic-recorder-');
afterAll(() => tmp.remove());

/** A clock the test moves by hand. */
function clock(start: number) {
  let t = start;
  return { now: () => t, set: (v: number) => (t = v), add: (ms: number) => (t += ms) };
}

describe('the demo history of a synthetic camera', () => {
  it('has one 20–40 minute gap a day, derived from the camera id, the same every time', () => {
    const gaps = demoGaps('S1001-C01-1', NOW - WEEK, NOW);
    expect(gaps.length).toBeGreaterThanOrEqual(7);
    expect(gaps.length).toBeLessThanOrEqual(8);
    for (const g of gaps) {
      expect(g.end - g.start).toBeGreaterThanOrEqual(20 * 60_000);
      expect(g.end - g.start).toBeLessThanOrEqual(40 * 60_000);
      expect(Math.floor(g.start / DAY)).toBe(Math.floor((g.end - 1) / DAY));
    }
    expect(demoGaps('S1001-C01-1', NOW - WEEK, NOW)).toEqual(gaps);
    expect(demoGaps('S1002-C01-1', NOW - WEEK, NOW)).not.toEqual(gaps);
  });

  it('counts the whole window before the first run as recorded except those gaps', () => {
    const c = clock(NOW);
    const runs = new RunLog({ keepMs: WEEK, now: c.now });
    runs.start();
    const rec = new SyntheticRecorder('S1001-C01-1', runs, WEEK, c.now);
    const spans = rec.spans(NOW - 2 * WEEK, NOW + HOUR);
    // Clipped to the window [now − 7 d, now).
    expect(spans[0]!.start).toBe(NOW - WEEK);
    expect(spans.at(-1)!.end).toBe(NOW);
    const gaps = demoGaps('S1001-C01-1', NOW - WEEK, NOW);
    expect(spans.length).toBe(gaps.length + 1 - gaps.filter((g) => g.start <= NOW - WEEK || g.end >= NOW).length);
    expect(spansLength(spans)).toBe(WEEK - spansLength(clipSpans(gaps, NOW - WEEK, NOW)));
    // A query inside one gap finds nothing; across its edge finds only the recorded side.
    const gap = gaps[3]!;
    expect(rec.spans(gap.start + 1_000, gap.end - 1_000)).toEqual([]);
    expect(rec.spans(gap.start - 5_000, gap.start + 5_000)).toEqual([{ start: gap.start - 5_000, end: gap.start }]);
    runs.stop();
  });

  it('shows the times the agent was off as gaps, across restarts, from its data directory', () => {
    const file = join(tmp.dir, 'runs.json');
    const c = clock(NOW);
    const first = new RunLog({ file, keepMs: WEEK, now: c.now, heartbeatMs: 60_000 });
    first.start();
    c.add(2 * HOUR);
    first.stop();
    // Off for an hour.
    c.add(HOUR);
    const second = new RunLog({ file, keepMs: WEEK, now: c.now });
    expect(second.firstStart).toBe(NOW);
    second.start();
    c.add(30 * 60_000);
    const rec = new SyntheticRecorder('S1001-C01-1', second, WEEK, c.now);
    expect(rec.spans(NOW, c.now())).toEqual([
      { start: NOW, end: NOW + 2 * HOUR },
      { start: NOW + 3 * HOUR, end: c.now() },
    ]);
    // Before the first run the demo history still counts.
    expect(rec.spans(NOW - HOUR, NOW).length).toBeGreaterThan(0);
    second.stop();
  });
});
