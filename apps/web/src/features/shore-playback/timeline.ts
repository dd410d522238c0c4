/**
 * The shore playback timeline, pure: which window of time is shown, how it zooms (from a day down
 * to minutes) and pans, where a time sits in pixels, which recorded spans each channel row has,
 * and the tick marks. Every time is epoch milliseconds.
 */
import type { CameraGaps, RecordingGap, RecordingSummary } from '@ship-cctv/protocol';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Widths of the shown window, widest first: hours down to minutes. */
export const ZOOM_LEVELS = [24 * HOUR, 12 * HOUR, 6 * HOUR, 3 * HOUR, HOUR, 30 * MINUTE, 10 * MINUTE, 5 * MINUTE, 2 * MINUTE] as const;

export interface TimeWindow {
  start: number;
  end: number;
}

export const windowSpan = (w: TimeWindow) => w.end - w.start;

/** The zoom level nearest a window's width. */
export function zoomIndexOf(w: TimeWindow): number {
  const span = windowSpan(w);
  let best = 0;
  ZOOM_LEVELS.forEach((level, i) => {
    if (Math.abs(level - span) < Math.abs((ZOOM_LEVELS[best] ?? 0) - span)) best = i;
  });
  return best;
}

/** The window one zoom step in (+1) or out (−1), keeping `anchor` (a time) at the same place on screen. */
export function zoom(w: TimeWindow, steps: number, anchor = (w.start + w.end) / 2): TimeWindow {
  const index = Math.min(ZOOM_LEVELS.length - 1, Math.max(0, zoomIndexOf(w) + steps));
  const span = ZOOM_LEVELS[index] ?? windowSpan(w);
  const ratio = windowSpan(w) > 0 ? (anchor - w.start) / windowSpan(w) : 0.5;
  const start = Math.round(anchor - ratio * span);
  return { start, end: start + span };
}

/** The window moved by `ms` (positive = later). */
export function pan(w: TimeWindow, ms: number): TimeWindow {
  return { start: Math.round(w.start + ms), end: Math.round(w.end + ms) };
}

/** A window of the same width centred on `time`. */
export function centreOn(w: TimeWindow, time: number): TimeWindow {
  const half = windowSpan(w) / 2;
  return { start: Math.round(time - half), end: Math.round(time + half) };
}

export function timeToX(w: TimeWindow, time: number, width: number): number {
  return ((time - w.start) / windowSpan(w)) * width;
}

export function xToTime(w: TimeWindow, x: number, width: number): number {
  return Math.round(w.start + (x / width) * windowSpan(w));
}

export interface TimelineRow {
  cameraId: string;
  shipId: string;
  /** The camera's recordings, oldest first. */
  recordings: RecordingSummary[];
  /** Times of the span asked its recording holds nothing, with their cause, oldest first. */
  gaps: RecordingGap[];
}

/**
 * One row per camera of the listed recordings, in the order the cameras first appear, then the
 * cameras that have only gaps (nothing recorded in the whole span, and the query says why).
 */
export function timelineRows(recordings: readonly RecordingSummary[], gaps: readonly CameraGaps[] = []): TimelineRow[] {
  const rows = new Map<string, TimelineRow>();
  for (const r of recordings) {
    const row = rows.get(r.cameraId) ?? { cameraId: r.cameraId, shipId: r.shipId, recordings: [], gaps: [] };
    row.recordings.push(r);
    rows.set(r.cameraId, row);
  }
  for (const g of gaps) {
    const row = rows.get(g.cameraId) ?? { cameraId: g.cameraId, shipId: g.shipId, recordings: [], gaps: [] };
    row.gaps = [...g.gaps].sort((a, b) => a.start - b.start);
    rows.set(g.cameraId, row);
  }
  for (const row of rows.values()) row.recordings.sort((a, b) => a.start - b.start);
  return [...rows.values()];
}

/** A row's gaps as pixel bands inside the window (clipped; at least 2 px wide so a short one shows). */
export function gapBands(row: TimelineRow, w: TimeWindow, width: number): { gap: RecordingGap; left: number; width: number }[] {
  return row.gaps
    .filter((g) => g.end > w.start && g.start < w.end)
    .map((gap) => {
      const left = Math.max(0, timeToX(w, gap.start, width));
      const right = Math.min(width, timeToX(w, gap.end, width));
      return { gap, left, width: Math.max(2, right - left) };
    });
}

/** The recording of a row at `time`, or the nearest one within `slackMs` (a click just beside a thin span). */
export function recordingAt(row: TimelineRow, time: number, slackMs = 0): { recording: RecordingSummary; time: number } | undefined {
  let best: { recording: RecordingSummary; time: number; distance: number } | undefined;
  for (const r of row.recordings) {
    const clamped = Math.min(Math.max(time, r.start), r.end - 1);
    const distance = Math.abs(clamped - time);
    if (distance <= slackMs && (!best || distance < best.distance)) best = { recording: r, time: clamped, distance };
  }
  return best ? { recording: best.recording, time: best.time } : undefined;
}

/** A span as a pixel band inside the window (clipped; at least 2 px wide so a short one shows); undefined when outside it. */
function band(span: { start: number; end: number }, w: TimeWindow, width: number): { left: number; width: number } | undefined {
  if (span.end <= w.start || span.start >= w.end) return undefined;
  const left = Math.max(0, timeToX(w, span.start, width));
  const right = Math.min(width, timeToX(w, span.end, width));
  return { left, width: Math.max(2, right - left) };
}

/** Spans of a row as pixel bands inside the window; `backfilled`: copied from the ship afterwards. */
export function bands(row: TimelineRow, w: TimeWindow, width: number): { id: string; left: number; width: number; backfilled: boolean }[] {
  return row.recordings.flatMap((r) => {
    const b = band(r, w, width);
    return b ? [{ id: r.id, ...b, backfilled: r.backfilled }] : [];
  });
}

/** A span waiting to be refilled from the ship (or being copied now). */
export interface PendingSpan {
  start: number;
  end: number;
  state: 'pending' | 'running';
  waitingFor?: 'budget';
}

/** Spans waiting for backfill as pixel bands inside the window, each with what it is: copying, waiting, waiting for the budget. */
export function pendingBands(spans: readonly PendingSpan[], w: TimeWindow, width: number): { key: string; left: number; width: number; kind: 'running' | 'pending' | 'budget' }[] {
  return spans.flatMap((s) => {
    const b = band(s, w, width);
    const kind = s.state === 'running' ? 'running' : s.waitingFor === 'budget' ? 'budget' : 'pending';
    return b ? [{ key: `${s.start}-${s.end}`, ...b, kind }] : [];
  });
}

const TICK_STEPS = [MINUTE / 6, MINUTE / 2, MINUTE, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR];

/** Tick times inside the window: a round step giving about `count` ticks, aligned to the zone's wall clock. */
export function ticks(w: TimeWindow, count = 8, zoneOffsetMs = 0): number[] {
  const step = TICK_STEPS.find((s) => windowSpan(w) / s <= count) ?? 6 * HOUR;
  const first = Math.ceil((w.start + zoneOffsetMs) / step) * step - zoneOffsetMs;
  const out: number[] = [];
  for (let t = first; t <= w.end; t += step) out.push(t);
  return out;
}

/** A window's width as i18n parameters: hours when whole hours, else minutes. */
export function spanLabel(w: TimeWindow): { key: 'hours' | 'minutes'; count: number } {
  const span = windowSpan(w);
  return span >= HOUR && span % HOUR === 0 ? { key: 'hours', count: span / HOUR } : { key: 'minutes', count: Math.round(span / MINUTE) };
}
