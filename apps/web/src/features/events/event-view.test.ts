import { describe, expect, it } from 'vitest';
import { eventOf } from '../../test/events-server.ts';
import { acknowledgeable, canClose, classesByScore, isClockTime, percent, playbackMoment, relativePoint, timelineRows, timelineSpan } from './event-view.ts';

describe('play this moment', () => {
  it('opens 5 s before the event and runs past its end and its recording span', () => {
    const e = eventOf(1);
    expect(playbackMoment(e, e.start + 3_600_000)).toEqual({ start: e.start - 5_000, end: e.end + 60_000 });
    expect(playbackMoment({ ...e, recordingTo: e.end + 120_000 }, e.start + 3_600_000)).toEqual({ start: e.start - 5_000, end: e.end + 120_000 });
  });

  it('never asks for a time after now', () => {
    const e = eventOf(1);
    expect(playbackMoment(e, e.end + 1_000)).toEqual({ start: e.start - 5_000, end: e.end + 1_000 });
  });
});

describe('timeline', () => {
  it('has a row per ship and camera, ordered by names, with marks in time order', () => {
    const events = [eventOf(3), eventOf(2, { cameraId: 'C2-1', cameraName: 'Aft' }), eventOf(1)];
    const span = { from: eventOf(1).start, to: eventOf(1).start + 600_000 };
    const rows = timelineRows(events, span);
    expect(rows.map((r) => [r.cameraName, r.marks.map((m) => m.event.id)])).toEqual([
      ['Aft', [eventOf(2).id]],
      ['Bridge', [eventOf(1).id, eventOf(3).id]],
    ]);
    const first = rows[1]?.marks[0];
    expect(first?.left).toBe(0);
    expect(first?.width).toBeCloseTo(12_000 / 600_000);
    expect(rows[1]?.marks[1]?.left).toBeCloseTo(120_000 / 600_000);
  });

  it('keeps marks inside the row and at least the smallest width', () => {
    const e = eventOf(1, { end: eventOf(1).start });
    const [row] = timelineRows([e], { from: e.start - 1_000_000, to: e.start });
    expect(row?.marks[0]).toMatchObject({ left: 1, width: 0 });
    const [wide] = timelineRows([e], { from: e.start - 1_000, to: e.start + 1_000_000 });
    expect(wide?.marks[0]?.width).toBe(0.004);
  });

  it("spans the filter's range, else the events' own, at least a minute", () => {
    expect(timelineSpan([eventOf(1)], { from: 10, to: 1_000_000 })).toEqual({ from: 10, to: 1_000_000 });
    const one = eventOf(1);
    const span = timelineSpan([one], {});
    expect(span.to - span.from).toBe(60_000);
    expect(span.from).toBeLessThanOrEqual(one.start);
    expect(span.to).toBeGreaterThanOrEqual(one.end);
  });
});

describe('drawing and wording', () => {
  it('turns a click into a point relative to the picture, kept inside it', () => {
    expect(relativePoint(50, 25, 200, 100)).toEqual([0.25, 0.25]);
    expect(relativePoint(-5, 130, 200, 100)).toEqual([0, 1]);
    expect(relativePoint(1, 1, 3, 3)).toEqual([0.3333, 0.3333]);
    expect(canClose([[0, 0], [1, 0]])).toBe(false);
    expect(canClose([[0, 0], [1, 0], [1, 1]])).toBe(true);
  });

  it('reads clock times and scores', () => {
    expect(['00:00', '23:59', '18:30'].every(isClockTime)).toBe(true);
    expect(['24:00', '7:00', '', undefined, '12:60'].some(isClockTime)).toBe(false);
    expect(percent(0.915)).toBe(92);
    expect(classesByScore(eventOf(1)).map((c) => c.class)).toEqual(['person', 'motion']);
    expect(classesByScore({ classes: [{ class: 'boat', score: 0.6 }, { class: 'motion', score: 1 }, { class: 'person', score: 0.8 }] }).map((c) => c.class)).toEqual(['person', 'boat', 'motion']);
  });

  it('acknowledges together only the ticked events nobody acknowledged yet', () => {
    const done = eventOf(2, { acknowledgedAt: 5, acknowledgedBy: 'x' });
    expect(acknowledgeable([eventOf(1), done, eventOf(3)], new Set([eventOf(1).id, done.id]))).toEqual([eventOf(1).id]);
  });
});
