import { describe, expect, it } from 'vitest';
import type { RecordingSummary } from '@ship-cctv/protocol';
import { ZOOM_LEVELS, bands, pan, pendingBands, recordingAt, spanLabel, ticks, timeToX, timelineRows, xToTime, zoom } from './timeline.ts';

const H = 3_600_000;
const M = 60_000;
const day = { start: 0, end: 24 * H };
const rec = (id: string, cameraId: string, start: number, end: number): RecordingSummary => ({
  id, orgId: 'o', shipId: 'S', cameraId, recordConfigId: 'c', templateId: 6, start, end, bytes: 1, segments: 1, backfilled: false, definition: null,
});

describe('timeline window', () => {
  it('zooms from hours down to minutes around the anchor, and back out', () => {
    const hour = zoom(zoom(zoom(zoom(day, 1), 1), 1), 1, 12 * H);
    expect(hour.end - hour.start).toBe(H);
    // The anchor keeps its place on screen: it was in the middle, it stays there.
    expect((hour.start + hour.end) / 2).toBe(12 * H);
    const minutes = zoom(hour, 10, hour.start);
    expect(minutes.end - minutes.start).toBe(ZOOM_LEVELS.at(-1));
    expect(minutes.start).toBe(hour.start);
    expect(zoom(minutes, -100).end - zoom(minutes, -100).start).toBe(24 * H);
  });

  it('maps times to pixels and back, and pans', () => {
    expect(timeToX(day, 6 * H, 1000)).toBe(250);
    expect(xToTime(day, 750, 1000)).toBe(18 * H);
    expect(pan(day, H)).toEqual({ start: H, end: 25 * H });
  });

  it('labels the width in hours or minutes', () => {
    expect(spanLabel(day)).toEqual({ key: 'hours', count: 24 });
    expect(spanLabel({ start: 0, end: 30 * M })).toEqual({ key: 'minutes', count: 30 });
  });

  it('puts round ticks on the zone’s wall clock', () => {
    expect(ticks(day, 8)).toEqual([0, 3, 6, 9, 12, 15, 18, 21, 24].map((h) => h * H));
    // UTC+08:00: ticks fall on local 3-hour marks, i.e. 1 h past a UTC multiple of 3 h.
    expect(ticks(day, 8, 8 * H)[0]).toBe(H);
    expect(ticks({ start: 0, end: 10 * M }, 8)).toEqual([0, 2, 4, 6, 8, 10].map((m) => m * M));
  });
});

describe('timeline rows', () => {
  const list = [rec('b', 'C1', 5 * H, 6 * H), rec('a', 'C1', H, 2 * H), rec('c', 'C2', 3 * H, 4 * H)];

  it('groups recordings per camera, oldest first', () => {
    const rows = timelineRows(list);
    expect(rows.map((r) => [r.cameraId, r.recordings.map((x) => x.id)])).toEqual([
      ['C1', ['a', 'b']],
      ['C2', ['c']],
    ]);
  });

  it('finds the recording under a click, snapping to a span just beside it', () => {
    const [row] = timelineRows(list);
    expect(recordingAt(row!, 1.5 * H)).toEqual({ recording: list[1], time: 1.5 * H });
    expect(recordingAt(row!, 3 * H)).toBeUndefined();
    expect(recordingAt(row!, 4.9 * H, 0.2 * H)).toEqual({ recording: list[0], time: 5 * H });
  });

  it('draws the spans inside the window as bands, clipped, never thinner than 2 px', () => {
    const [row] = timelineRows(list);
    expect(bands(row!, { start: 0, end: 4 * H }, 400)).toEqual([{ id: 'a', left: 100, width: 100, backfilled: false }]);
    expect(bands(row!, { start: 5.5 * H, end: 7 * H }, 300)).toEqual([{ id: 'b', left: 0, width: 100, backfilled: false }]);
    expect(bands({ ...row!, recordings: [rec('x', 'C1', 0, 1000)] }, day, 1000)[0]?.width).toBe(2);
  });

  it('draws the spans waiting for backfill, each saying whether it is copied now, waits, or waits for the budget', () => {
    const spans = [
      { start: 1 * H, end: 2 * H, state: 'running' as const },
      { start: 3 * H, end: 4 * H, state: 'pending' as const },
      { start: 5 * H, end: 6 * H, state: 'pending' as const, waitingFor: 'budget' as const },
      { start: 30 * H, end: 31 * H, state: 'pending' as const },
    ];
    expect(pendingBands(spans, day, 2400)).toEqual([
      { key: `${1 * H}-${2 * H}`, left: 100, width: 100, kind: 'running' },
      { key: `${3 * H}-${4 * H}`, left: 300, width: 100, kind: 'pending' },
      { key: `${5 * H}-${6 * H}`, left: 500, width: 100, kind: 'budget' },
    ]);
  });
});
