import type { RecordedSpan } from '@ship-cctv/protocol';
import type { RunLog } from './run-log.ts';
import { clipSpans, normalizeSpans, subtractSpans } from './spans.ts';

const DAY_MS = 24 * 3_600_000;
const MINUTE_MS = 60_000;

/** FNV-1a, 32 bits: a stable hash of a text (same camera id → same demo history on every machine). */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * The demo history's gaps: once per UTC day a 20–40 minute gap at a time derived from the camera id
 * and the day (so a timeline shows gaps, the same ones every time). Gaps overlapping [start, end).
 */
export function demoGaps(cameraId: string, start: number, end: number): RecordedSpan[] {
  const gaps: RecordedSpan[] = [];
  for (let day = Math.floor(start / DAY_MS); day * DAY_MS < end; day++) {
    const h = hash(`${cameraId}:${day}`);
    const minutes = 20 + (h % 21);
    const at = day * DAY_MS + ((h >>> 8) % (24 * 60 - minutes)) * MINUTE_MS;
    const gap = { start: at, end: at + minutes * MINUTE_MS };
    if (gap.end > start && gap.start < end) gaps.push(gap);
  }
  return gaps;
}

/**
 * The synthetic camera's recorder. Its picture is a function of absolute time, so nothing is stored
 * and nothing is encoded until a playback asks: any moment of the retention window can be drawn.
 * What counts as recorded is the window minus the times the agent was off (its run log). Before the
 * data directory's first run — a fresh demo agent — the whole window counts as recorded except one
 * deterministic gap a day (demoGaps), so the demo has a history with gaps from the first minute.
 */
export class SyntheticRecorder {
  constructor(
    readonly cameraId: string,
    private readonly runs: RunLog,
    private readonly retentionMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Recorded spans overlapping [start, end), clipped to it. */
  spans(start: number, end: number): RecordedSpan[] {
    const now = this.now();
    const windowStart = now - this.retentionMs;
    const from = Math.max(start, windowStart);
    const to = Math.min(end, now);
    if (to <= from) return [];
    const firstRun = this.runs.firstStart ?? now;
    const before: RecordedSpan[] = firstRun > from ? subtractSpans([{ start: from, end: Math.min(firstRun, to) }], demoGaps(this.cameraId, from, firstRun)) : [];
    return clipSpans(normalizeSpans([...before, ...this.runs.periods()]), from, to);
  }
}
