import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedSpan } from '@ship-cctv/protocol';
import { clipSpans, normalizeSpans } from './spans.ts';

/** One recorded file: [start, end) in epoch ms. */
export interface Segment {
  file: string;
  start: number;
  end: number;
  bytes: number;
  /**
   * Why a new segment began here rather than the recording going on (the camera's timestamps
   * jumped, it dropped, it changed its parameters): a seam worth knowing about in playback.
   */
  note?: string;
}

interface IndexFile {
  segments: Segment[];
  /** The segment being written, as far as known at the last save (a crash keeps it up to there). */
  open: Omit<Segment, 'bytes'> | null;
}

export const INDEX_FILE = 'index.json';

/** Segments closer than this count as one span (the cut between two files of a run). */
const JOIN_MS = 1_500;

/**
 * The index of one camera's recorded segments, kept as index.json beside them. Closed segments
 * are listed with their times; the segment being written is kept as `open` and promoted on the
 * next load should the agent have died without closing it. On load, index entries whose file is
 * gone are dropped and files no entry names are deleted (nothing says when they were recorded).
 */
export class SegmentIndex {
  private segments: Segment[] = [];
  private openSegment: Omit<Segment, 'bytes'> | null = null;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    this.load();
  }

  get all(): readonly Segment[] {
    return this.segments;
  }

  get open(): Omit<Segment, 'bytes'> | null {
    return this.openSegment;
  }

  totalBytes(): number {
    return this.segments.reduce((sum, s) => sum + s.bytes, 0);
  }

  /** The closed segments that began at or after `since`: their bytes and the first one's start (undefined: none). */
  writtenSince(since: number): { bytes: number; from: number } | undefined {
    let bytes = 0;
    let from: number | undefined;
    for (const s of this.segments) {
      if (s.start < since) continue;
      bytes += s.bytes;
      from ??= s.start;
    }
    return from === undefined ? undefined : { bytes, from };
  }

  /** A segment closed: it joins the index (sorted by start). */
  add(segment: Segment): void {
    this.segments.push(segment);
    this.segments.sort((a, b) => a.start - b.start);
    if (this.openSegment?.file === segment.file) this.openSegment = null;
    this.save();
  }

  /** The segment being written and how far it goes; null when none. Saved when `persist`. */
  setOpen(open: Omit<Segment, 'bytes'> | null, persist = true): void {
    this.openSegment = open;
    if (persist) this.save();
  }

  /** Recorded spans overlapping [start, end), the open segment included, clipped. */
  spans(start: number, end: number): RecordedSpan[] {
    const all: RecordedSpan[] = this.segments.map((s) => ({ start: s.start, end: s.end }));
    if (this.openSegment) all.push({ start: this.openSegment.start, end: this.openSegment.end });
    return clipSpans(normalizeSpans(all, JOIN_MS), start, end);
  }

  /** Segments (the open one too) overlapping [start, end), oldest first, with their full paths. */
  overlapping(start: number, end: number): (Omit<Segment, 'bytes'> & { path: string })[] {
    const list: Omit<Segment, 'bytes'>[] = [...this.segments];
    if (this.openSegment) list.push(this.openSegment);
    return list.filter((s) => s.end > start && s.start < end).map((s) => ({ ...s, path: join(this.dir, s.file) }));
  }

  /** Deletes the oldest closed segment; its start, or undefined when there is none. */
  removeOldest(): Segment | undefined {
    const oldest = this.segments.shift();
    if (!oldest) return undefined;
    rmSync(join(this.dir, oldest.file), { force: true });
    this.save();
    return oldest;
  }

  /** Deletes closed segments that ended before `horizon`; how many. */
  expire(horizon: number): number {
    const old = this.segments.filter((s) => s.end <= horizon);
    if (old.length === 0) return 0;
    this.segments = this.segments.filter((s) => s.end > horizon);
    for (const s of old) rmSync(join(this.dir, s.file), { force: true });
    this.save();
    return old.length;
  }

  private load(): void {
    let raw: Partial<IndexFile> = {};
    try {
      raw = JSON.parse(readFileSync(join(this.dir, INDEX_FILE), 'utf8')) as Partial<IndexFile>;
    } catch {
      // no index yet
    }
    const size = (file: string): number | undefined => {
      try {
        return statSync(join(this.dir, file)).size;
      } catch {
        return undefined;
      }
    };
    const valid = (s: unknown): s is Omit<Segment, 'bytes'> => {
      const x = s as Partial<Segment> | null;
      return typeof x?.file === 'string' && /^[\w.-]+\.mp4$/.test(x.file) && typeof x.start === 'number' && typeof x.end === 'number';
    };
    const segments: Segment[] = [];
    for (const s of Array.isArray(raw.segments) ? raw.segments : []) {
      const bytes = valid(s) ? size(s.file) : undefined;
      if (valid(s) && bytes !== undefined && s.end > s.start) {
        const note = (s as { note?: unknown }).note;
        segments.push({ file: s.file, start: s.start, end: s.end, bytes, ...(typeof note === 'string' ? { note } : {}) });
      }
    }
    // The agent stopped without closing its last segment: keep it up to where it was last seen.
    if (valid(raw.open) && raw.open.end > raw.open.start) {
      const bytes = size(raw.open.file);
      if (bytes !== undefined && bytes > 0) segments.push({ ...raw.open, bytes });
    }
    this.segments = segments.sort((a, b) => a.start - b.start);
    const named = new Set(this.segments.map((s) => s.file));
    for (const f of readdirSync(this.dir)) {
      if ((f.endsWith('.mp4') && !named.has(f)) || f.endsWith('.csv')) rmSync(join(this.dir, f), { force: true });
    }
    this.save();
  }

  private save(): void {
    const body: IndexFile = { segments: this.segments, open: this.openSegment };
    const file = join(this.dir, INDEX_FILE);
    try {
      writeFileSync(`${file}.tmp`, JSON.stringify(body));
      renameSync(`${file}.tmp`, file);
    } catch (err) {
      console.error(`[recorder] cannot save ${file}: ${(err as Error).message}`);
    }
  }
}
