import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedSpan } from '@ship-cctv/protocol';
import { keepWholeFragments, parseRunFile, stopLeftoverWriter } from './partial-segment.ts';
import { segmentFileName } from './recorder-args.ts';
import { clipSpans, normalizeSpans } from '@ship-cctv/protocol';

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
  /**
   * The segment being written: its file and start (saved as soon as it begins), its end as far as
   * known at the last save. After a crash its file says how far it really got.
   */
  open: Omit<Segment, 'bytes'> | null;
  /** The ffmpeg writing this camera's segments, and its run: one the agent left running when it died is stopped on the next load. */
  writer?: Writer | null;
}

/** The process writing a camera's segments and the run it writes (its files are `<runId>-<n>.mp4`). */
export interface Writer {
  pid: number;
  runId: string;
}

export const INDEX_FILE = 'index.json';

/** Segments closer than this count as one span (the cut between two files of a run). */
const JOIN_MS = 1_500;

/**
 * The index of one camera's recorded segments, kept as index.json beside them. Closed segments
 * are listed with their times; the segment being written is kept as `open` and promoted on the
 * next load should the agent have died without closing it: its file is cut back to its last whole
 * fragment (ffmpeg writes fragments of at most half a second, recorder-args.ts) and it ends where
 * that fragment ends, as do the next files of the same run an ffmpeg left running went on to write.
 * On load, index entries whose file is gone are dropped and files no entry names are deleted
 * (nothing says when they were recorded).
 */
export class SegmentIndex {
  private segments: Segment[] = [];
  private openSegment: Omit<Segment, 'bytes'> | null = null;
  private writerProcess: Writer | null = null;

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

  /**
   * The closed segment of that name: looked up by its start when given (the index is sorted by
   * start: a binary search, then the few starting then), else among all of them.
   */
  find(file: string, start?: number): Segment | undefined {
    const list = this.segments;
    if (start === undefined) return list.find((s) => s.file === file);
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (list[mid]!.start < start) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < list.length && list[i]!.start === start; i++) if (list[i]!.file === file) return list[i];
    return undefined;
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

  /** The ffmpeg writing the segments now (null: none); saved at once. */
  setWriter(writer: Writer | null): void {
    this.writerProcess = writer;
    this.save();
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
    // An ffmpeg the agent left running when it died may still be writing: stopped before its files are read.
    const writer = raw.writer as Partial<Writer> | null | undefined;
    if (Number.isSafeInteger(writer?.pid) && typeof writer?.runId === 'string' && writer.runId !== '') stopLeftoverWriter(writer.pid!, join(this.dir, writer.runId));
    // The agent stopped without closing its last segment: keep its whole fragments, for as long as their video lasts.
    const named = new Map(segments.map((s) => [s.file, s]));
    const keep = (file: string, start: number, note: unknown) => {
      const kept = keepWholeFragments(join(this.dir, file));
      if (!kept || kept.durationMs <= 0) return;
      const segment: Segment = { file, start, end: start + kept.durationMs, bytes: kept.bytes, ...(typeof note === 'string' ? { note } : {}) };
      segments.push(segment);
      named.set(file, segment);
    };
    if (valid(raw.open) && !named.has(raw.open.file)) keep(raw.open.file, raw.open.start, raw.open.note);
    // Files of a run that went on past the last save (the next segment begun, or ffmpeg left running):
    // each starts where the one before it in the run ends.
    const later = readdirSync(this.dir)
      .map((f) => ({ f, run: parseRunFile(f) }))
      .filter((x) => x.run && !named.has(x.f))
      .sort((a, b) => a.run!.index - b.run!.index);
    for (const { f, run } of later) {
      const before = named.get(segmentFileName(run!.runId, run!.index - 1));
      if (before) keep(f, before.end, undefined);
    }
    this.segments = segments.sort((a, b) => a.start - b.start);
    for (const f of readdirSync(this.dir)) {
      if ((f.endsWith('.mp4') && !named.has(f)) || f.endsWith('.csv')) rmSync(join(this.dir, f), { force: true });
    }
    this.save();
  }

  private save(): void {
    const body: IndexFile = { segments: this.segments, open: this.openSegment, writer: this.writerProcess };
    const file = join(this.dir, INDEX_FILE);
    try {
      writeFileSync(`${file}.tmp`, JSON.stringify(body));
      renameSync(`${file}.tmp`, file);
    } catch (err) {
      console.error(`[recorder] cannot save ${file}: ${(err as Error).message}`);
    }
  }
}
