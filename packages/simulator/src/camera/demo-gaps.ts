import type { RecordedSpan } from '@ship-cctv/protocol';

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
