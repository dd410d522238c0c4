import { EventEmitter } from 'node:events';
import { statfsSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentPlaybackMessage, type RecordedSpan, type RecorderStorage, VOD_MAX_SPANS } from '@ship-cctv/protocol';
import type { CameraRecording, RecordingStore } from '../camera-source.ts';
import type { CameraSources } from '../camera-sources.ts';
import { RunLog } from './run-log.ts';
import { GapFacts } from './gap-facts.ts';
import { type ShipGap, shipGaps } from './gap-causes.ts';
import type { SegmentRecorderOptions } from './segment-recorder.ts';
import { DAY_MS, allowedBytes, projectStorage } from './storage-projection.ts';

export interface ShipRecorderOptions {
  /**
   * The agent's data directory: URL cameras are recorded under `recordings/<cameraId>/`, and the
   * agent's run periods are kept in `runs.json`. Absent: URL cameras are not recorded and the run
   * periods live in memory.
   */
  dataDir?: string;
  /** Recordings older than this are deleted. Default 7 days. */
  maxAgeMs?: number;
  /** All cameras' recorded files together stay under this; the oldest go first. Default 20 GiB. */
  maxBytes?: number;
  /**
   * Bytes kept free on the data directory's filesystem: below this the oldest recordings go, so
   * that a full disk never stops recording. Default 1 GiB.
   */
  minFreeBytes?: number;
  /** Free bytes on the filesystem holding `dir` (undefined: not known). Default: statfs. */
  diskFree?: (dir: string) => number | undefined;
  /** The recent rate the storage projection uses is measured over this. Default 1 day. */
  rateWindowMs?: number;
  /** How often the limits are applied besides at every new file. Default 60 s. */
  retentionEveryMs?: number;
  /** How long the agent's run periods are kept. Default 7 days. */
  runsKeepMs?: number;
  segments?: SegmentRecorderOptions;
  now?: () => number;
}

export interface ShipRecorderEvents {
  /** A camera started or stopped recording. */
  recording: [cameraId: string, recording: boolean, since: number | null];
  /** What the recorder can keep: first known, or whether it falls short of the days asked changed. */
  storage: [RecorderStorage];
}

/** Most spans one vod.result carries (the agent-link schema's bound). */
export const MAX_SPANS_PER_RESULT = VOD_MAX_SPANS;

const WEEK_MS = 7 * DAY_MS;

/** Free bytes for an unprivileged writer on the filesystem holding `dir`. */
function statfsFree(dir: string): number | undefined {
  try {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return undefined;
  }
}

/**
 * The ship recorder: every camera of the ship, recorded whether or not anyone watches and whether
 * or not the link is up — each by its camera source (a URL camera is copied into segments). Answers
 * `vod.query` and hands playback and pictures a camera's recording. Retention: by age and by total
 * size over every camera's files — the size being the configured limit, or less when the disk has
 * less to give (a margin is always kept free, so a full disk never stops recording) — checked as
 * files are added and once a minute. Each check also projects how many days the disk given holds
 * at the recent rate (storage()).
 */
export class ShipRecorder extends EventEmitter<ShipRecorderEvents> {
  /** The periods the agent ran, kept in the data directory. */
  readonly runLog: RunLog;
  /** Camera silences and disk evictions, kept in the data directory: the causes of gaps. */
  readonly gapFacts: GapFacts;
  private readonly storeCameras = new Map<RecordingStore, string>();
  private readonly recordings = new Map<string, CameraRecording>();
  private readonly stores: RecordingStore[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  private readonly maxAgeMs: number;
  private readonly maxBytes: number;
  private readonly minFreeBytes: number;
  private readonly diskFree: (dir: string) => number | undefined;
  private lastStorage: RecorderStorage | undefined;

  constructor(
    private readonly sources: CameraSources,
    private readonly opts: ShipRecorderOptions = {},
  ) {
    super();
    this.now = opts.now ?? Date.now;
    this.maxAgeMs = opts.maxAgeMs ?? WEEK_MS;
    this.maxBytes = opts.maxBytes ?? 20 * 1024 ** 3;
    this.minFreeBytes = opts.minFreeBytes ?? 1024 ** 3;
    this.diskFree = opts.diskFree ?? statfsFree;
    this.runLog = new RunLog({
      ...(opts.dataDir ? { file: join(opts.dataDir, 'runs.json') } : {}),
      keepMs: opts.runsKeepMs ?? WEEK_MS,
      now: this.now,
    });
    this.gapFacts = new GapFacts({
      ...(opts.dataDir ? { file: join(opts.dataDir, 'gap-facts.json') } : {}),
      keepMs: opts.runsKeepMs ?? WEEK_MS,
      lastRunEnd: this.runLog.periods().at(-1)?.end,
      now: this.now,
    });
    for (const source of sources) {
      const { cameraId } = source.camera;
      const recording = source.openRecording({ dataDir: opts.dataDir, now: this.now, runs: this.runLog, ...(opts.segments ? { segments: opts.segments } : {}) });
      if (!recording) continue;
      recording.onState?.((recording, since) => this.emit('recording', cameraId, recording, since));
      if (recording.store) {
        recording.store.onAdded(() => this.applyRetention());
        this.stores.push(recording.store);
        this.storeCameras.set(recording.store, cameraId);
      }
      this.recordings.set(cameraId, recording);
    }
  }

  start(): void {
    this.runLog.start();
    this.applyRetention();
    for (const r of this.recordings.values()) r.start();
    clearInterval(this.timer);
    this.timer = setInterval(() => this.applyRetention(), this.opts.retentionEveryMs ?? 60_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.recordings.values()].map((r) => r.stop()));
    this.gapFacts.closeAll();
    this.runLog.stop();
  }

  /** A camera's recording; undefined when the ship records nothing of it. */
  recording(cameraId: string): CameraRecording | undefined {
    return this.recordings.get(cameraId);
  }

  /** Recorded spans of a camera overlapping [start, end), clipped; undefined for an unknown camera. */
  spans(cameraId: string, start: number, end: number): RecordedSpan[] | undefined {
    if (!this.sources.has(cameraId)) return undefined;
    return this.recordings.get(cameraId)?.spans(start, end) ?? [];
  }

  /** The camera sends again (true) or went silent (false): kept as the cause of the gap it leaves. */
  cameraSending(cameraId: string, sending: boolean): void {
    if (this.sources.has(cameraId)) this.gapFacts.sending(cameraId, sending);
  }

  /** The times of [start, min(end, now)) nothing is recorded of a camera, with their cause; undefined for an unknown camera. */
  gaps(cameraId: string, start: number, end: number, recorded?: readonly RecordedSpan[]): ShipGap[] | undefined {
    const spans = recorded ?? this.spans(cameraId, start, end);
    if (!spans) return undefined;
    const now = this.now();
    return shipGaps(spans, start, Math.min(end, now), {
      runs: this.runLog.periods(),
      firstStart: this.runLog.firstStart,
      retentionHorizon: now - this.maxAgeMs,
      diskFullUntil: this.gapFacts.diskFullUntil(cameraId),
      silences: this.gapFacts.silencesOf(cameraId),
    });
  }

  /** The answer to shore's `vod.query`. */
  query(msg: { requestId: number; cameraId: string; start: number; end: number }): AgentPlaybackMessage {
    const { requestId, cameraId, start, end } = msg;
    if (!Number.isFinite(start) || !Number.isFinite(end) || start < 0 || end <= start) {
      return { type: 'vod.failed', requestId, message: `bad time range ${start}–${end}: the end must come after the start` };
    }
    const spans = this.spans(cameraId, start, end);
    if (!spans) return { type: 'vod.failed', requestId, message: `unknown camera ${cameraId}` };
    const sent = spans.slice(0, MAX_SPANS_PER_RESULT);
    // A cut answer is known only up to its last span: its gaps only that far.
    const knownUntil = sent.length < spans.length ? (sent.at(-1)?.end ?? start) : end;
    const gaps = (this.gaps(cameraId, start, knownUntil, sent) ?? []).slice(0, MAX_SPANS_PER_RESULT);
    return { type: 'vod.result', requestId, cameraId, spans: sent, gaps };
  }

  /** Bytes kept by all cameras' recorded files. */
  totalBytes(): number {
    let sum = 0;
    for (const s of this.stores) sum += s.totalBytes();
    return sum;
  }

  /**
   * What the recorder can keep, as of the last retention check; undefined when it keeps no files
   * (no camera recorded on disk).
   */
  storage(): RecorderStorage | undefined {
    return this.lastStorage;
  }

  private freeBytes(): number | undefined {
    return this.opts.dataDir ? this.diskFree(this.opts.dataDir) : undefined;
  }

  /**
   * Deletes what is older than the age limit, then the oldest files until under the bytes allowed
   * (the size limit, or what the disk has to give), and projects what the recorder can keep.
   */
  applyRetention(): void {
    const now = this.now();
    const horizon = now - this.maxAgeMs;
    for (const s of this.stores) s.expire(horizon);
    let total = this.totalBytes();
    let free = this.freeBytes();
    const allowed = allowedBytes({ maxBytes: this.maxBytes, usedBytes: total, freeBytes: free, minFreeBytes: this.minFreeBytes });
    const before = total;
    while (total > allowed) {
      let oldest: RecordingStore | undefined;
      for (const s of this.stores) {
        const first = s.oldestStart();
        if (first !== undefined && (!oldest || first < (oldest.oldestStart() ?? Infinity))) oldest = s;
      }
      const removed = oldest?.removeOldest();
      if (!removed || !oldest) break;
      const cameraId = this.storeCameras.get(oldest);
      if (cameraId !== undefined && removed.end !== undefined) this.gapFacts.evictedForSpace(cameraId, removed.end);
      total -= removed.bytes;
    }
    if (total < before && free !== undefined) free = this.freeBytes();
    this.project(now, total, free);
  }

  private project(now: number, usedBytes: number, freeBytes: number | undefined): void {
    if (this.stores.length === 0) return;
    const since = now - (this.opts.rateWindowMs ?? DAY_MS);
    const storage = projectStorage({
      keepDays: this.maxAgeMs / DAY_MS,
      maxBytes: this.maxBytes,
      usedBytes,
      freeBytes,
      minFreeBytes: this.minFreeBytes,
      recent: this.stores.map((s) => s.recent?.(since)),
      now,
    });
    const last = this.lastStorage;
    this.lastStorage = storage;
    if (!last || last.short !== storage.short || (last.holdsDays === null) !== (storage.holdsDays === null)) this.emit('storage', storage);
  }
}
