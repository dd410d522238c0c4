import { type RecordedSpan, type RecordingGap, normalizeSpans } from '@ship-cctv/protocol';

/**
 * What shore already knows of the ship recorder's spans, per camera, so that asking again for a
 * time range that lies in the past costs no bytes over the satellite link: a span that ended in the
 * past does not change. Each answer is stored with the range it covers; a later question inside
 * covered ranges is answered here, and a question that runs past them needs only the rest from the
 * ship.
 *
 * Knowledge ages out after `maxAgeMs` (the ship's recorder deletes its oldest recordings when its
 * disk fills), and memory is bounded: least recently used cameras are forgotten first.
 *
 * Pure: no I/O, time passed in.
 */
export interface SpanCacheOptions {
  /** Cameras remembered at most (least recently used forgotten first). */
  maxCameras: number;
  /** Spans remembered at most over all cameras. */
  maxSpans: number;
  /** Covered ranges remembered at most per camera. */
  maxRangesPerCamera: number;
  /** How long an answer is trusted. */
  maxAgeMs: number;
}

export const SPAN_CACHE_DEFAULTS: SpanCacheOptions = {
  maxCameras: 5_000,
  maxSpans: 200_000,
  maxRangesPerCamera: 256,
  maxAgeMs: 6 * 60 * 60_000,
};

interface CoveredRange {
  start: number;
  end: number;
  /** When the ship answered for it. */
  at: number;
}

interface CameraKnowledge {
  /** Disjoint, sorted by start. */
  covered: CoveredRange[];
  /** Disjoint, non-touching, sorted by start. */
  spans: RecordedSpan[];
  /** The ship's gaps with its causes, sorted by start. */
  gaps: RecordingGap[];
}

export interface SpanLookup {
  /** [start, knownUntil) is answered by `spans`; knownUntil === end means the whole range is. */
  knownUntil: number;
  spans: RecordedSpan[];
  /** The ship's gaps of [start, knownUntil) with the causes it gave. */
  gaps: RecordingGap[];
}

export class SpanCache {
  private readonly opts: SpanCacheOptions;
  private readonly cameras = new Map<string, CameraKnowledge>();
  private spanCount = 0;

  constructor(opts: Partial<SpanCacheOptions> = {}) {
    this.opts = { ...SPAN_CACHE_DEFAULTS, ...opts };
  }

  get size(): { cameras: number; spans: number } {
    return { cameras: this.cameras.size, spans: this.spanCount };
  }

  /** The spans known for [start, end) from `start` onwards, as far as fresh knowledge reaches without a hole. */
  lookup(key: string, start: number, end: number, now: number): SpanLookup {
    const entry = this.cameras.get(key);
    if (!entry) return { knownUntil: start, spans: [], gaps: [] };
    this.touch(key, entry);
    let t = start;
    for (const c of entry.covered) {
      if (c.start > t) break;
      if (now - c.at > this.opts.maxAgeMs) continue;
      if (c.end > t) t = c.end;
    }
    const knownUntil = Math.min(t, end);
    const known = knownUntil > start;
    return { knownUntil, spans: known ? clipSpans(entry.spans, start, knownUntil) : [], gaps: known ? clipGaps(entry.gaps, start, knownUntil) : [] };
  }

  /** Every fresh range of [start, end) the ship has answered for, wherever it lies, and the spans it held there. */
  coverage(key: string, start: number, end: number, now: number): { covered: RecordedSpan[]; spans: RecordedSpan[] } {
    const entry = this.cameras.get(key);
    if (!entry) return { covered: [], spans: [] };
    const covered = normalizeSpans(entry.covered.filter((c) => now - c.at <= this.opts.maxAgeMs).map((c) => ({ start: c.start, end: c.end })));
    return { covered: clipSpans(covered, start, end), spans: clipSpans(entry.spans, start, end) };
  }

  /** The ship's answer for [start, end): it held exactly `spans` there (clipped to the range), and said why it held nothing at `gaps`. */
  store(key: string, start: number, end: number, spans: readonly RecordedSpan[], now: number, gaps: readonly RecordingGap[] = []): void {
    if (end <= start) return;
    const fresh = clipSpans(spans, start, end);
    const entry = this.cameras.get(key) ?? { covered: [], spans: [], gaps: [] };
    this.touch(key, entry);
    const before = entry.spans.length + entry.gaps.length;
    const covered = entry.covered.filter((c) => now - c.at <= this.opts.maxAgeMs).flatMap((c) => subtract(c, start, end));
    const reset = covered.length + 1 > this.opts.maxRangesPerCamera;
    const ranges = reset ? [] : covered;
    // Only what some fresh range still vouches for is kept; the new answer replaces its own range.
    const kept = ranges.flatMap((c) => clipSpans(entry.spans, c.start, c.end));
    const keptGaps = ranges.flatMap((c) => clipGaps(entry.gaps, c.start, c.end));
    ranges.push({ start, end, at: now });
    ranges.sort((a, b) => a.start - b.start);
    entry.covered = ranges;
    entry.spans = normalizeSpans([...kept, ...fresh]);
    entry.gaps = [...keptGaps, ...clipGaps(gaps, start, end)].sort((a, b) => a.start - b.start);
    this.spanCount += entry.spans.length + entry.gaps.length - before;
    this.evict(key);
  }

  clear(): void {
    this.cameras.clear();
    this.spanCount = 0;
  }

  private touch(key: string, entry: CameraKnowledge): void {
    this.cameras.delete(key);
    this.cameras.set(key, entry);
  }

  /** Forgets the least recently used cameras (never `keep`, the one just stored) until within bounds. */
  private evict(keep: string): void {
    for (const [key, entry] of this.cameras) {
      if (this.cameras.size <= this.opts.maxCameras && this.spanCount <= this.opts.maxSpans) return;
      if (key === keep) continue;
      this.cameras.delete(key);
      this.spanCount -= entry.spans.length + entry.gaps.length;
    }
    const kept = this.cameras.get(keep);
    if (kept && this.spanCount > this.opts.maxSpans) {
      // One camera alone over the bound: remember nothing rather than grow.
      this.cameras.delete(keep);
      this.spanCount -= kept.spans.length + kept.gaps.length;
    }
  }
}

/** The parts of [x.start, x.end) outside [start, end). */
function subtract<T extends { start: number; end: number }>(x: T, start: number, end: number): T[] {
  if (x.end <= start || x.start >= end) return [x];
  const out: T[] = [];
  if (x.start < start) out.push({ ...x, end: start });
  if (x.end > end) out.push({ ...x, start: end });
  return out;
}

/** Spans cut to [start, end), empty ones left out. */
export function clipSpans(spans: readonly RecordedSpan[], start: number, end: number): RecordedSpan[] {
  const out: RecordedSpan[] = [];
  for (const s of spans) {
    const a = Math.max(s.start, start);
    const b = Math.min(s.end, end);
    if (a < b) out.push({ start: a, end: b });
  }
  return out;
}

/** Gaps cut to [start, end), empty ones left out. */
export function clipGaps(gaps: readonly RecordingGap[], start: number, end: number): RecordingGap[] {
  const out: RecordingGap[] = [];
  for (const g of gaps) {
    const a = Math.max(g.start, start);
    const b = Math.min(g.end, end);
    if (a < b) out.push({ start: a, end: b, cause: g.cause });
  }
  return out;
}

