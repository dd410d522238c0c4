/**
 * The events screens' rules, pure and shared by the desktop and the phone: the moment "play this
 * moment" opens, the timeline's rows and marks, the classes' wording and a polygon being drawn.
 */
import type { EventClass, Polygon } from '@ship-cctv/protocol';
import type { EventInfo } from './api/events.ts';

/** Playback opens this long before an event starts, so the operator sees what led to it. */
export const PLAY_LEAD_MS = 5_000;
/** …and runs at least this long past the event's end (the ship's recording span, if longer). */
export const PLAY_TAIL_MS = 60_000;

/** The range of ship playback for an event: from its start − 5 s to past its end, never after now. */
export function playbackMoment(event: Pick<EventInfo, 'start' | 'end' | 'recordingTo'>, now: number): { start: number; end: number } {
  const start = event.start - PLAY_LEAD_MS;
  const end = Math.min(now, Math.max(event.recordingTo, event.end + PLAY_TAIL_MS));
  return { start, end: Math.max(end, start + 1_000) };
}

/** A score as a whole percentage (0.915 → 92). */
export const percent = (score: number) => Math.round(Math.max(0, Math.min(1, score)) * 100);

/** The classes of an event, best score first; `motion` (always 1) after what the detector named. */
export function classesByScore(event: Pick<EventInfo, 'classes'>): { class: EventClass; score: number }[] {
  return [...event.classes].sort((a, b) => Number(a.class === 'motion') - Number(b.class === 'motion') || b.score - a.score);
}

export interface TimelineMark {
  event: EventInfo;
  /** Position and width along the row, as fractions of the row (a mark is at least `minWidth` wide). */
  left: number;
  width: number;
}

export interface TimelineRow {
  key: string;
  shipId: string;
  shipName: string;
  cameraId: string;
  cameraName: string;
  marks: TimelineMark[];
}

/** The span the timeline draws: the filter's, else the events' own (a minute at least). */
export function timelineSpan(events: readonly EventInfo[], filter: { from?: number; to?: number }): { from: number; to: number } {
  const starts = events.map((e) => e.start);
  const ends = events.map((e) => e.end);
  let from = filter.from ?? (starts.length ? Math.min(...starts) : 0);
  let to = filter.to ?? (ends.length ? Math.max(...ends) : from + 60_000);
  if (to - from < 60_000) {
    const middle = (from + to) / 2;
    from = middle - 30_000;
    to = middle + 30_000;
  }
  return { from, to };
}

/** One row per ship and camera (ordered by ship, then camera), each event a mark at its time. */
export function timelineRows(events: readonly EventInfo[], span: { from: number; to: number }, minWidth = 0.004): TimelineRow[] {
  const rows = new Map<string, TimelineRow>();
  const length = span.to - span.from;
  for (const event of events) {
    const key = `${event.shipId}/${event.cameraId}`;
    let row = rows.get(key);
    if (!row) {
      row = { key, shipId: event.shipId, shipName: event.shipName, cameraId: event.cameraId, cameraName: event.cameraName, marks: [] };
      rows.set(key, row);
    }
    const left = Math.min(1, Math.max(0, (event.start - span.from) / length));
    const right = Math.min(1, Math.max(left, (event.end - span.from) / length));
    row.marks.push({ event, left, width: Math.min(1 - left, Math.max(minWidth, right - left)) });
  }
  for (const row of rows.values()) row.marks.sort((a, b) => a.event.start - b.event.start);
  return [...rows.values()].sort((a, b) => a.shipName.localeCompare(b.shipName) || a.cameraName.localeCompare(b.cameraName) || a.key.localeCompare(b.key));
}

/** A point clicked on a picture, as fractions of its size, kept inside 0..1 and to 4 decimals. */
export function relativePoint(x: number, y: number, width: number, height: number): [number, number] {
  const clamp = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * 10_000) / 10_000;
  return [clamp(width > 0 ? x / width : 0), clamp(height > 0 ? y / height : 0)];
}

/** A polygon can be kept once it has 3 points; drawing stops adding at the protocol's most. */
export const canClose = (points: readonly (readonly [number, number])[]) => points.length >= 3;

/** SVG `points` of a relative polygon drawn in a box of 1×1 (the SVG's viewBox). */
export const svgPoints = (polygon: Polygon | readonly (readonly [number, number])[]) => polygon.map(([x, y]) => `${x},${y}`).join(' ');

/** "HH:mm", as the schedule and the notify hours take it. */
export const isClockTime = (text: string | undefined): text is string => !!text && /^([01][0-9]|2[0-3]):[0-5][0-9]$/.test(text);

/** The page's events selected for acknowledging together: those not acknowledged yet. */
export function acknowledgeable(events: readonly EventInfo[], selected: ReadonlySet<string>): string[] {
  return events.filter((e) => selected.has(e.id) && e.acknowledgedAt === undefined).map((e) => e.id);
}
