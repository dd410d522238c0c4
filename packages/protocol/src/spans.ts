import type { RecordedSpan } from './playback.ts';

/**
 * Arithmetic on recorded spans: half-open [start, end) intervals of epoch milliseconds. Every
 * function returns spans sorted by start, non-empty and non-overlapping (touching spans merged).
 */

/** Sorts and merges overlapping or touching spans (within `joinMs`), dropping empty ones. */
export function normalizeSpans(spans: readonly RecordedSpan[], joinMs = 0): RecordedSpan[] {
  const sorted = spans.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start);
  const out: RecordedSpan[] = [];
  for (const s of sorted) {
    const last = out.at(-1);
    if (last && s.start <= last.end + joinMs) last.end = Math.max(last.end, s.end);
    else out.push({ start: s.start, end: s.end });
  }
  return out;
}

/** The parts of `spans` inside [start, end). */
export function clipSpans(spans: readonly RecordedSpan[], start: number, end: number): RecordedSpan[] {
  return normalizeSpans(spans)
    .map((s) => ({ start: Math.max(s.start, start), end: Math.min(s.end, end) }))
    .filter((s) => s.end > s.start);
}

/** `spans` minus `holes`. */
export function subtractSpans(spans: readonly RecordedSpan[], holes: readonly RecordedSpan[]): RecordedSpan[] {
  const cut = normalizeSpans(holes);
  const out: RecordedSpan[] = [];
  for (const s of normalizeSpans(spans)) {
    let from = s.start;
    for (const h of cut) {
      if (h.end <= from || h.start >= s.end) continue;
      if (h.start > from) out.push({ start: from, end: h.start });
      from = Math.max(from, h.end);
      if (from >= s.end) break;
    }
    if (from < s.end) out.push({ start: from, end: s.end });
  }
  return out;
}

/** Total length of the spans in ms. */
export function spansLength(spans: readonly RecordedSpan[]): number {
  return normalizeSpans(spans).reduce((sum, s) => sum + (s.end - s.start), 0);
}
