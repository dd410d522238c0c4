import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { backoffDelay, type DefinitionModel } from '@ship-cctv/protocol';
import { type InitSegment, type MediaFragment, mimeFor } from '../../core/media/fmp4.ts';
import { RECORDING_META_FILE, SegmentFile } from './segment-file.ts';
import type { NewRecording, NewSegment } from './repo.ts';

/** Retries of an index operation the database refused. */
const INDEX_RETRY = { minMs: 250, maxMs: 30_000 };

/**
 * A recording that ends shorter than this, within its first segment, is not kept: a stream that
 * ended or changed at once would list as a 0:00 recording beside the real one.
 */
export const MIN_RECORDING_MS = 1_000;

/** What a camera recorder needs of the index. */
export interface RecorderIndex {
  createRecording(r: NewRecording): Promise<void>;
  addSegment(s: NewSegment): Promise<void>;
  closeRecording(id: string, opts?: { endedUnwatched?: boolean }): Promise<boolean>;
  deleteRecording(id: string): Promise<void>;
}

export type RecordingEvent =
  | { kind: 'started'; cameraId: string; recordingId: string; configId: string; start: number }
  | { kind: 'stopped'; cameraId: string; recordingId: string; configId: string; start: number; end: number };

export interface CameraRecorderDeps {
  cameraId: string;
  shipId: string;
  index: RecorderIndex;
  /** Folder of the segment files. */
  root: string;
  /** A new segment starts at the first keyframe after this many seconds of video. */
  segmentSeconds: number;
  newId(): string;
  now(): number;
  onEvent(event: RecordingEvent): void;
  log: FastifyBaseLogger;
  /**
   * Called with a finished segment's file (relative to root) before it is indexed: copies it to the
   * shared object store when there is one (STORAGE=nats), so other instances can serve it.
   */
  shareSegment?: ((relative: string) => Promise<void>) | undefined;
  /** Told of each segment finished on disk ('written') or given up after a failed write or finish ('failed'). */
  onSegment?: ((result: 'written' | 'failed') => void) | undefined;
}

interface Segment {
  seq: number;
  startTick: number;
  endTick: number;
  file: SegmentFile | undefined;
  failed: boolean;
}

interface Run {
  recordingId: string;
  configId: string;
  init: InitSegment;
  mime: string;
  /** Wall-clock time of a media time: the first keyframe's tick is taken to have been shot when it arrived. */
  anchor: { wall: number; tick: number };
  segment: Segment | undefined;
  nextSeq: number;
  /** Set when the recording's folder could not be made: nothing more of this run is kept. */
  failed: boolean;
  startMs: number;
  endMs: number;
}

/**
 * Records one camera: follows one live source, and while attached writes its fMP4 as a recording
 * (a continuous run of one stream at one definition) cut into self-contained segment files, each
 * beginning with the init segment and a keyframe. Decisions are taken synchronously as fragments
 * arrive; file and index work runs in order on one queue, so a slow disk never holds up the relay.
 */
export class CameraRecorder {
  private source: unknown;
  private pending: { init: InitSegment; model: DefinitionModel; configId: string } | undefined;
  private run: Run | undefined;
  private work: Promise<void> = Promise.resolve();
  /**
   * Index operations, in order, each retried until the database takes it: a database outage must
   * not cost video. Kept apart from the file queue so the disk never waits for the database.
   */
  private indexing: Promise<void> = Promise.resolve();
  private giveUp = false;

  constructor(private readonly deps: CameraRecorderDeps) {}

  /**
   * Stops retrying index operations (server shutdown). What is not indexed yet is on disk with its
   * recording's description, and start-up recovery indexes it.
   */
  abandonIndexing(): void {
    this.giveUp = true;
  }

  /** The live source being recorded, if any. */
  get attachedTo(): unknown {
    return this.source;
  }

  get recording(): { recordingId: string; configId: string; start: number } | undefined {
    const run = this.run;
    return run && !run.failed ? { recordingId: run.recordingId, configId: run.configId, start: run.startMs } : undefined;
  }

  /** Record this source from its next keyframe (a recording already running is finished first). */
  attach(source: unknown, init: InitSegment, model: DefinitionModel, configId: string): void {
    this.finishRun();
    this.source = source;
    this.pending = { init, model, configId };
  }

  /**
   * Stop recording (the stream ended, or the configuration is no longer active). `unwatched`: it
   * ended because nobody watches any more, so the time after it is no gap to refill.
   */
  detach(unwatched = false): void {
    this.finishRun(unwatched);
    this.source = undefined;
    this.pending = undefined;
  }

  fragment(source: unknown, fragment: MediaFragment): void {
    if (source !== this.source) return;
    if (!this.run) {
      if (!fragment.keyframe || !this.pending) return;
      this.startRun(fragment);
    } else {
      const seg = this.run.segment;
      const ticks = this.deps.segmentSeconds * this.run.init.timescale;
      if (fragment.keyframe && seg && fragment.baseMediaDecodeTime - seg.startTick >= ticks) {
        this.closeSegment();
        this.openSegment(fragment);
      }
    }
    this.append(fragment);
  }

  /** Resolves once every queued file and index operation is done. */
  async settled(): Promise<void> {
    await this.work;
    await this.indexing;
  }

  // -------------------------------------------------------------------------------------------

  private enqueue(what: string, op: () => Promise<void>): void {
    this.work = this.work.then(op).catch((err: unknown) => {
      this.deps.log.error({ err, cameraId: this.deps.cameraId }, `shore recorder: ${what} failed`);
    });
  }

  private enqueueIndex(what: string, op: () => Promise<void>): void {
    this.indexing = this.indexing.then(async () => {
      for (let attempt = 0; ; attempt++) {
        try {
          await op();
          if (attempt > 0) this.deps.log.info({ cameraId: this.deps.cameraId, attempts: attempt + 1 }, `shore recorder: ${what} succeeded after retrying`);
          return;
        } catch (err) {
          if (this.giveUp) {
            this.deps.log.warn({ err, cameraId: this.deps.cameraId }, `shore recorder: ${what} left to start-up recovery`);
            return;
          }
          if (attempt === 0) this.deps.log.error({ err, cameraId: this.deps.cameraId }, `shore recorder: ${what} failed; retrying`);
          await new Promise((resolve) => setTimeout(resolve, backoffDelay(attempt, INDEX_RETRY)));
        }
      }
    });
  }

  private ms(run: Run, tick: number): number {
    return Math.round(run.anchor.wall + ((tick - run.anchor.tick) * 1000) / run.init.timescale);
  }

  private startRun(first: MediaFragment): void {
    const pending = this.pending;
    if (!pending) return;
    const { init, model, configId } = pending;
    const firstMs = (first.duration * 1000) / init.timescale;
    const wall = Math.round(this.deps.now() - firstMs);
    const run: Run = {
      recordingId: this.deps.newId(),
      configId,
      init,
      mime: mimeFor(init),
      anchor: { wall, tick: first.baseMediaDecodeTime },
      segment: undefined,
      nextSeq: 0,
      failed: false,
      startMs: wall,
      endMs: wall,
    };
    this.run = run;
    const recording = {
      id: run.recordingId,
      cameraId: this.deps.cameraId,
      shipId: this.deps.shipId,
      recordConfigId: configId,
      templateId: model.id,
      startMs: run.startMs,
    };
    this.enqueue('starting a recording', async () => {
      try {
        // The folder and its description first: start-up recovery can index the recording from
        // them alone if the database was away the whole time.
        await mkdir(join(this.deps.root, run.recordingId), { recursive: true });
        await writeFile(join(this.deps.root, run.recordingId, RECORDING_META_FILE), JSON.stringify(recording));
      } catch (err) {
        run.failed = true;
        throw err;
      }
    });
    this.enqueueIndex('starting a recording', async () => {
      if (run.failed) return;
      await this.deps.index.createRecording(recording);
      this.deps.onEvent({ kind: 'started', cameraId: this.deps.cameraId, recordingId: run.recordingId, configId, start: run.startMs });
    });
    this.openSegment(first);
  }

  private openSegment(first: MediaFragment): void {
    const run = this.run;
    if (!run) return;
    const seg: Segment = { seq: run.nextSeq++, startTick: first.baseMediaDecodeTime, endTick: first.baseMediaDecodeTime, file: undefined, failed: false };
    run.segment = seg;
    // Named in the file being written, so that start-up recovery can place it after a crash.
    const startMs = this.ms(run, seg.startTick);
    this.enqueue('opening a segment file', async () => {
      if (run.failed) return;
      try {
        seg.file = await SegmentFile.create(this.deps.root, run.recordingId, seg.seq, startMs);
        await seg.file.write(run.init.data);
      } catch (err) {
        seg.failed = true;
        throw err;
      }
    });
  }

  private append(fragment: MediaFragment): void {
    const run = this.run;
    const seg = run?.segment;
    if (!run || !seg) return;
    seg.endTick = Math.max(seg.endTick, fragment.baseMediaDecodeTime + fragment.duration);
    const data = fragment.data;
    this.enqueue('writing a segment', async () => {
      if (run.failed || seg.failed || !seg.file) return;
      try {
        await seg.file.write(data);
      } catch (err) {
        seg.failed = true;
        throw err;
      }
    });
  }

  /** Finishes the segment being written: durable on disk first, then indexed. */
  private closeSegment(): void {
    const run = this.run;
    const seg = run?.segment;
    if (!run || !seg) return;
    run.segment = undefined;
    const startMs = this.ms(run, seg.startTick);
    const endMs = this.ms(run, seg.endTick);
    this.enqueue('finishing a segment', async () => {
      const file = seg.file;
      if (!file) return;
      if (run.failed || seg.failed || endMs <= startMs) {
        // A segment cut short by a failed write is lost footage; an empty one (no time) is not.
        if (run.failed || seg.failed) this.deps.onSegment?.('failed');
        await file.abort();
        return;
      }
      const bytes = file.bytes;
      let relative: string;
      try {
        relative = await file.finish(seg.seq, startMs, endMs);
      } catch (err) {
        this.deps.onSegment?.('failed');
        await file.abort();
        throw err;
      }
      this.deps.onSegment?.('written');
      run.endMs = endMs;
      if (this.deps.shareSegment) {
        const share = this.deps.shareSegment;
        await share(relative).catch((err: unknown) => this.deps.log.warn({ err, file: relative }, 'shore recorder: copying a segment to the shared store failed; it stays on this instance only'));
      }
      this.enqueueIndex('indexing a segment', () =>
        this.deps.index.addSegment({
          id: `${run.recordingId}-${seg.seq}`,
          recordingId: run.recordingId,
          seq: seg.seq,
          startMs,
          endMs,
          bytes,
          file: relative,
          mime: run.mime,
        }),
      );
    });
  }

  private finishRun(unwatched = false): void {
    const run = this.run;
    if (!run) return;
    const seg = run.segment;
    if (seg?.seq === 0 && ((seg.endTick - seg.startTick) * 1000) / run.init.timescale < MIN_RECORDING_MS) return this.discardRun(run, seg);
    this.closeSegment();
    this.run = undefined;
    // After the last segment's file work, which queues its indexing.
    this.enqueue('closing a recording', async () => {
      this.enqueueIndex('closing a recording', () => this.closeIndexed(run, unwatched));
    });
  }

  /** Drops a run still in its first segment and too short to keep: its file, its folder, its row. */
  private discardRun(run: Run, seg: Segment): void {
    run.segment = undefined;
    this.run = undefined;
    this.enqueue('discarding a recording cut short', async () => {
      await seg.file?.abort();
      await rm(join(this.deps.root, run.recordingId), { recursive: true, force: true });
      // After its creation (queued before): the row goes, and the recording is said to have stopped.
      this.enqueueIndex('discarding a recording cut short', async () => {
        if (run.failed) return;
        await this.deps.index.deleteRecording(run.recordingId);
        this.deps.onEvent({ kind: 'stopped', cameraId: this.deps.cameraId, recordingId: run.recordingId, configId: run.configId, start: run.startMs, end: run.startMs });
      });
    });
  }

  private async closeIndexed(run: Run, unwatched: boolean): Promise<void> {
    if (run.failed) return;
    await this.deps.index.closeRecording(run.recordingId, { endedUnwatched: unwatched });
    this.deps.onEvent({
      kind: 'stopped',
      cameraId: this.deps.cameraId,
      recordingId: run.recordingId,
      configId: run.configId,
      start: run.startMs,
      end: run.endMs,
    });
  }
}
