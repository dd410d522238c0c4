import { EventEmitter } from 'node:events';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedSpan } from '@ship-cctv/protocol';
import type { CameraSession, SessionEvent } from '../media/camera-session.ts';
import { type Encoder, startEncoder } from '../media/encoder.ts';
import { type SessionConfig, type SessionMuxer, muxerFor } from '../media/session-muxer.ts';
import { segmentFileName, segmentListName, segmentRecorderArgs } from './recorder-args.ts';
import { keepWholeFragments } from './partial-segment.ts';
import { type Segment, SegmentIndex } from './segment-index.ts';

export interface SegmentRecorderOptions {
  /** Seconds per segment (cut at the next keyframe). Default 60. */
  segmentSeconds?: number;
  /** A camera that sends nothing this long is restarted (and the silence is a gap). Default 20 s. */
  stallMs?: number;
  /** First restart delay after the camera failed; doubles up to maxRetryMs. Default 2 s / 60 s. */
  minRetryMs?: number;
  maxRetryMs?: number;
  /** How often the open segment's reach is saved (what survives a crash). Default 10 s. */
  saveOpenEveryMs?: number;
  ffmpegCommand?: string;
  now?: () => number;
  /**
   * The camera's session (camera-session.ts): record its whole pictures from stdin instead of
   * opening the camera a second time. Absent, or a camera the session cannot carry (H.265): ffmpeg
   * reads the URL itself.
   */
  session?: CameraSession;
}

export interface SegmentRecorderEvents {
  /** Recording started (since = the run's first moment) or stopped (since = null). */
  state: [recording: boolean, since: number | null];
  /** A segment closed and joined the index. */
  segment: [Segment];
}

interface Run {
  id: string;
  encoder: Encoder;
  startedAt: number;
  /** Wall clock of the run's output time 0: the smallest now − output time seen (output time cannot lead the wall clock). */
  anchor: number | undefined;
  /** Output time reached, in ms. */
  reached: number;
  lastProgressAt: number;
  /** Segment list lines already taken. */
  listed: number;
  /** Where the segment being written starts (the last closed one's end). */
  openStart: number | undefined;
  stopping: boolean;
  /** Fed by the camera session: the session time of its first picture (time 0 on stdin). */
  baseMs?: number;
  /** Fed by the camera session: writes its pictures. */
  muxer?: SessionMuxer;
  /** Fed by the camera session: output time 0 is when its first picture arrived. */
  fixedAnchor?: number;
  /** Why this run began (on its first segment in the index). */
  note?: string;
}

interface SessionStart {
  note: string | undefined;
  /** What to write first: the stream's start, sequence header, pictures from a keyframe. */
  pictures: Buffer[];
  /** Writes this run's pictures (FLV for H.264, hvc1 MP4 for H.265). */
  muxer: SessionMuxer;
  baseMs: number;
  arrivedAt: number;
}

/** Pictures kept while the last run finishes its segment before the next one starts. */
const MAX_WAITING_PICTURES = 600;

/**
 * The ship recorder of one URL camera: ffmpeg copies the camera into segments (recorder-args.ts)
 * as long as the agent runs, restarting it with backoff when the camera drops or stalls — the time
 * it is away is simply absent from the index, i.e. a gap. Each closed segment is placed in time
 * (the run's wall-clock anchor + its offsets in the segment list) and added to the index; the one
 * being written is listed up to the output time reached, so it is queryable and playable at once.
 */
export class SegmentRecorder extends EventEmitter<SegmentRecorderEvents> {
  readonly index: SegmentIndex;
  private run: Run | undefined;
  private stopped = true;
  private retryMs: number;
  private retryTimer: NodeJS.Timeout | undefined;
  private watchTimer: NodeJS.Timeout | undefined;
  private lastOpenSave = 0;
  private readonly opts: Required<Omit<SegmentRecorderOptions, 'now' | 'session'>> & { now: () => number };
  private readonly session: CameraSession | undefined;
  private unsubscribe: (() => void) | undefined;
  private config: SessionConfig | undefined;
  /** Session pictures for the next run (from a keyframe), while the last run ends. */
  private waiting: SessionStart | undefined;
  private nextNote: string | undefined;

  constructor(
    readonly cameraId: string,
    readonly url: string,
    dir: string,
    opts: SegmentRecorderOptions = {},
  ) {
    super();
    this.opts = {
      segmentSeconds: opts.segmentSeconds ?? 60,
      stallMs: opts.stallMs ?? 20_000,
      minRetryMs: opts.minRetryMs ?? 2_000,
      maxRetryMs: opts.maxRetryMs ?? 60_000,
      saveOpenEveryMs: opts.saveOpenEveryMs ?? 10_000,
      ffmpegCommand: opts.ffmpegCommand ?? 'ffmpeg',
      now: opts.now ?? Date.now,
    };
    this.retryMs = this.opts.minRetryMs;
    this.session = opts.session;
    this.index = new SegmentIndex(dir);
  }

  /** Recording the camera session's pictures (not reading the camera itself). */
  get fromSession(): boolean {
    return this.unsubscribe !== undefined;
  }

  get recording(): boolean {
    return this.run?.anchor !== undefined;
  }

  /** ffmpeg's process id while recording (diagnostics, tests). */
  get pid(): number | undefined {
    return this.run?.encoder.pid;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.watchTimer = setInterval(() => this.watch(), 1_000);
    this.watchTimer.unref();
    if (this.session && !this.session.unsupported) this.unsubscribe = this.session.subscribe((e) => this.sessionEvent(e));
    else this.spawn();
  }

  /** Stops recording; the open segment is closed and indexed. Resolves when ffmpeg is gone. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.watchTimer);
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.waiting = undefined;
    const run = this.run;
    if (run) {
      run.stopping = true;
      if (run.baseMs !== undefined) {
        // Fed by the session: the end of its input lets ffmpeg write out the last fragment.
        run.encoder.endInput();
        const late = setTimeout(() => void run.encoder.stop(), 3_000);
        await run.encoder.exited;
        clearTimeout(late);
      } else await run.encoder.stop();
    }
  }

  /**
   * The camera session's events. A run starts at a keyframe with the sequence header; a
   * discontinuity (the camera's clock jumped, it dropped, it changed its parameters) ends the run
   * — ffmpeg closes its segment — and the next one starts at the next keyframe, its first segment
   * noted with why. Pictures never get invented timestamps.
   */
  private sessionEvent(e: SessionEvent): void {
    if (this.stopped) return;
    if (e.kind === 'down') {
      if (this.session?.unsupported) {
        // H.265 and the like: the session cannot carry it; read the camera directly.
        this.unsubscribe?.();
        this.unsubscribe = undefined;
        if (!this.run) this.spawn();
        return;
      }
      this.endRun(`camera stream ended: ${e.reason.slice(0, 200)}`);
      return;
    }
    if (e.kind === 'problem') return;
    if (e.kind === 'config') {
      if (this.config && this.config.codec !== e.config.codec) this.endRun(`camera changed its codec from ${this.config.codec} to ${e.config.codec}`);
      else if (this.config && (this.config.width !== e.config.width || this.config.height !== e.config.height)) this.endRun('camera changed its picture size');
      else if (this.config && !this.config.record.equals(e.record)) this.endRun('camera changed its video parameters');
      this.config = e.config;
      return;
    }
    const p = e.picture;
    const run = this.run;
    if (run && !run.stopping && run.baseMs !== undefined) {
      if (p.discontinuity) this.endRun('camera timestamps jumped');
      else {
        run.encoder.write((run.muxer as SessionMuxer).picture({ ...p, timestampMs: p.timestampMs - run.baseMs }));
        return;
      }
    }
    if (this.waiting) {
      if (this.waiting.pictures.length < MAX_WAITING_PICTURES) this.waiting.pictures.push(this.waiting.muxer.picture({ ...p, timestampMs: p.timestampMs - this.waiting.baseMs }));
      return;
    }
    if (!p.keyframe || !this.config) return;
    const session = this.session;
    const muxer = muxerFor(this.config.codec, () => session?.frameIntervalMs ?? 100);
    let head: Buffer;
    try {
      head = Buffer.concat([muxer.start(), muxer.config(this.config, 0)]);
    } catch {
      return; // a sequence header without a picture size: nothing to record until a readable one
    }
    const waiting: SessionStart = { note: this.nextNote, baseMs: p.timestampMs, arrivedAt: p.arrivedAt, muxer, pictures: [head, muxer.picture({ ...p, timestampMs: 0 })] };
    this.nextNote = undefined;
    if (this.run) {
      this.waiting = waiting; // the last run is closing its segment
      return;
    }
    this.spawn(waiting);
  }

  /** Ends the current run from the session's side: its input ends, ffmpeg closes the segment. */
  private endRun(note: string): void {
    this.nextNote ??= note;
    const run = this.run;
    if (!run || run.stopping) return;
    run.stopping = true;
    run.encoder.endInput();
  }

  /** Recorded spans overlapping [start, end), clipped. */
  spans(start: number, end: number): RecordedSpan[] {
    return this.index.spans(start, end);
  }

  private spawn(fromSession?: SessionStart): void {
    if (this.stopped) return;
    const startedAt = this.opts.now();
    const id = `r${startedAt}`;
    const url = fromSession ? 'pipe:0' : this.url;
    const args = segmentRecorderArgs({ url, dir: this.index.dir, runId: id, segmentSeconds: this.opts.segmentSeconds, ...(fromSession ? { container: fromSession.muxer.container } : {}) });
    let text = '';
    const run: Run = {
      id,
      startedAt,
      anchor: undefined,
      reached: 0,
      lastProgressAt: startedAt,
      listed: 0,
      openStart: undefined,
      stopping: false,
      ...(fromSession ? { baseMs: fromSession.baseMs, note: fromSession.note, fixedAnchor: fromSession.arrivedAt, muxer: fromSession.muxer } : {}),
      encoder: startEncoder(args, {
        command: this.opts.ffmpegCommand,
        firstByteTimeoutMs: this.opts.stallMs,
        stdin: fromSession !== undefined,
        onData: (chunk) => {
          text += chunk.toString('latin1');
          let end: number;
          while ((end = text.indexOf('progress=')) >= 0) {
            const lineEnd = text.indexOf('\n', end);
            if (lineEnd < 0) break;
            const block = text.slice(0, lineEnd);
            text = text.slice(lineEnd + 1);
            this.progress(run, block);
          }
        },
        onExit: (info) => this.exited(run, info.state === 'failed' && !run.stopping ? `${info.reason}${info.stderrTail ? `: ${info.stderrTail}` : ''}` : undefined),
      }),
    };
    this.run = run;
    // Saved at once: an ffmpeg this agent leaves running if it dies is stopped on the next start.
    if (run.encoder.pid !== undefined) this.index.setWriter({ pid: run.encoder.pid, runId: id });
    for (const chunk of fromSession?.pictures ?? []) run.encoder.write(chunk);
  }

  /** One -progress block: the output time reached. */
  private progress(run: Run, block: string): void {
    const m = /out_time_us=(-?\d+)/.exec(block);
    if (!m) return;
    const reached = Number(m[1]) / 1000;
    const now = this.opts.now();
    if (reached <= 0) return;
    if (reached > run.reached) {
      run.reached = reached;
      run.lastProgressAt = now;
    }
    const wasRecording = run.anchor !== undefined;
    // Between the spawn and now − output time: a source cannot have started before ffmpeg did.
    run.anchor = run.fixedAnchor ?? Math.max(run.startedAt, Math.min(run.anchor ?? Infinity, now - reached));
    if (!wasRecording) {
      this.retryMs = this.opts.minRetryMs;
      this.emit('state', true, Math.round(run.anchor));
    }
    run.openStart ??= Math.round(run.anchor);
    this.collect(run);
    const file = segmentFileName(run.id, run.listed);
    // A new segment's file and start are saved at once (a crash keeps it from them); its reach now and then.
    const persist = now - this.lastOpenSave >= this.opts.saveOpenEveryMs || this.index.open?.file !== file;
    if (persist) this.lastOpenSave = now;
    this.index.setOpen({ file, start: run.openStart, end: Math.max(run.openStart, Math.min(now, Math.round(run.anchor + run.reached))) }, persist);
  }

  /** Takes the segment list's new lines: each closed segment joins the index. */
  private collect(run: Run): void {
    if (run.anchor === undefined) return;
    let lines: string[];
    try {
      lines = readFileSync(join(this.index.dir, segmentListName(run.id)), 'utf8').split('\n').filter((l) => l.trim() !== '');
    } catch {
      return; // no segment closed yet
    }
    const now = this.opts.now();
    for (const line of lines.slice(run.listed)) {
      const [file, startS, endS] = line.split(',');
      run.listed += 1;
      if (!file || !Number.isFinite(Number(startS)) || !Number.isFinite(Number(endS))) continue;
      // A segment cannot end after the moment it is listed (its end is the next frame's time, which
      // may lead the reported output time by the camera's frame reordering).
      if (run.fixedAnchor === undefined) run.anchor = Math.max(run.startedAt, Math.min(run.anchor, now - Number(endS) * 1000));
      // Within a run each segment starts where the last one ended.
      const start = run.openStart ?? Math.round(run.anchor + Number(startS) * 1000);
      const end = Math.min(now, Math.round(run.anchor + Number(endS) * 1000));
      let bytes: number | undefined;
      try {
        bytes = statSync(join(this.index.dir, file)).size;
      } catch {
        bytes = undefined;
      }
      if (bytes === undefined || end <= start) {
        // Nothing worth keeping (a last frame's sliver): not indexed, so not kept.
        if (this.index.open?.file === file) this.index.setOpen(null, false);
        rmSync(join(this.index.dir, file), { force: true });
        continue;
      }
      const segment: Segment = { file, start, end, bytes, ...(run.note !== undefined ? { note: run.note } : {}) };
      run.note = undefined;
      run.openStart = end;
      this.index.add(segment);
      this.emit('segment', segment);
    }
  }

  private exited(run: Run, failure: string | undefined): void {
    if (this.run !== run) return;
    this.run = undefined;
    this.collect(run);
    const open = this.index.open;
    // Killed before it could close its last segment: keep its whole fragments, up to where they end.
    const kept = open ? keepWholeFragments(join(this.index.dir, open.file)) : undefined;
    if (open && kept) {
      const end = Math.min(this.opts.now(), open.start + kept.durationMs);
      if (end > open.start) {
        const segment = { file: open.file, start: open.start, end, bytes: kept.bytes, ...(run.note !== undefined ? { note: run.note } : {}) };
        this.index.add(segment);
        this.emit('segment', segment);
      }
    }
    this.index.setWriter(null);
    this.index.setOpen(null);
    if (run.anchor !== undefined && !(this.waiting && failure === undefined)) this.emit('state', false, null);
    if (this.stopped) return;
    if (failure) console.error(`[recorder] camera ${this.cameraId}: ${failure.slice(0, 500)}`);
    if (this.fromSession) {
      // The session goes on: the next run starts with pictures already waiting, or at the next keyframe.
      const waiting = this.waiting;
      this.waiting = undefined;
      if (waiting) this.spawn(waiting);
      return;
    }
    const ranFor = this.opts.now() - run.startedAt;
    if (ranFor > this.opts.maxRetryMs) this.retryMs = this.opts.minRetryMs;
    this.retryTimer = setTimeout(() => this.spawn(), this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.opts.maxRetryMs, this.retryMs * 2);
  }

  /** A camera that stopped sending (ffmpeg still waiting on it) is restarted. */
  private watch(): void {
    const run = this.run;
    if (!run || run.stopping || run.anchor === undefined) return;
    if (this.opts.now() - run.lastProgressAt > this.opts.stallMs) {
      run.stopping = true;
      void run.encoder.stop();
    }
  }
}
