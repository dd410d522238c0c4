import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { type AgentPlaybackMessage, type RecordedSpan, VOD_MAX_SPANS } from '@ship-cctv/protocol';
import type { CameraRecording, RecordingStore } from '../camera-source.ts';
import type { CameraSources } from '../camera-sources.ts';
import { RunLog } from './run-log.ts';
import type { SegmentRecorderOptions } from './segment-recorder.ts';

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
}

/** Most spans one vod.result carries (the agent-link schema's bound). */
export const MAX_SPANS_PER_RESULT = VOD_MAX_SPANS;

const WEEK_MS = 7 * 24 * 3_600_000;

/**
 * The ship recorder: every camera of the ship, recorded whether or not anyone watches and whether
 * or not the link is up — each by its camera source (a URL camera is copied into segments). Answers
 * `vod.query` and hands playback and pictures a camera's recording. Retention: by age and by total
 * size over every camera's files, checked as files are added and once a minute.
 */
export class ShipRecorder extends EventEmitter<ShipRecorderEvents> {
  /** The periods the agent ran, kept in the data directory. */
  readonly runLog: RunLog;
  private readonly recordings = new Map<string, CameraRecording>();
  private readonly stores: RecordingStore[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  private readonly maxAgeMs: number;
  private readonly maxBytes: number;

  constructor(
    private readonly sources: CameraSources,
    private readonly opts: ShipRecorderOptions = {},
  ) {
    super();
    this.now = opts.now ?? Date.now;
    this.maxAgeMs = opts.maxAgeMs ?? WEEK_MS;
    this.maxBytes = opts.maxBytes ?? 20 * 1024 ** 3;
    this.runLog = new RunLog({
      ...(opts.dataDir ? { file: join(opts.dataDir, 'runs.json') } : {}),
      keepMs: opts.runsKeepMs ?? WEEK_MS,
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

  /** The answer to shore's `vod.query`. */
  query(msg: { requestId: number; cameraId: string; start: number; end: number }): AgentPlaybackMessage {
    const { requestId, cameraId, start, end } = msg;
    if (!Number.isFinite(start) || !Number.isFinite(end) || start < 0 || end <= start) {
      return { type: 'vod.failed', requestId, message: `bad time range ${start}–${end}: the end must come after the start` };
    }
    const spans = this.spans(cameraId, start, end);
    if (!spans) return { type: 'vod.failed', requestId, message: `unknown camera ${cameraId}` };
    return { type: 'vod.result', requestId, cameraId, spans: spans.slice(0, MAX_SPANS_PER_RESULT) };
  }

  /** Bytes kept by all cameras' recorded files. */
  totalBytes(): number {
    let sum = 0;
    for (const s of this.stores) sum += s.totalBytes();
    return sum;
  }

  /** Deletes what is older than the age limit, then the oldest files until under the size limit. */
  applyRetention(): void {
    const horizon = this.now() - this.maxAgeMs;
    for (const s of this.stores) s.expire(horizon);
    let total = this.totalBytes();
    while (total > this.maxBytes) {
      let oldest: RecordingStore | undefined;
      for (const s of this.stores) {
        const first = s.oldestStart();
        if (first !== undefined && (!oldest || first < (oldest.oldestStart() ?? Infinity))) oldest = s;
      }
      const removed = oldest?.removeOldest();
      if (!removed) break;
      total -= removed.bytes;
    }
  }
}
