import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { type AgentPlaybackMessage, type RecordedSpan, VOD_MAX_SPANS } from '@ship-cctv/protocol';
import { type CameraConfig, SYNTHETIC_RETENTION_MS, cameraDirName, isSynthetic } from '../cameras.ts';
import type { CameraSessions } from '../media/camera-session.ts';
import { RunLog } from './run-log.ts';
import { SegmentRecorder, type SegmentRecorderOptions } from './segment-recorder.ts';
import { SyntheticRecorder } from './synthetic-recorder.ts';

export interface ShipRecorderOptions {
  /**
   * The agent's data directory: URL cameras are recorded under `recordings/<cameraId>/`, and the
   * agent's run periods (the synthetic cameras' history) are kept in `runs.json`. Absent: URL
   * cameras are not recorded and the synthetic history lives in memory.
   */
  dataDir?: string;
  /** Recordings older than this are deleted. Default 7 days. */
  maxAgeMs?: number;
  /** All URL cameras' recordings together stay under this; the oldest segments go first. Default 20 GiB. */
  maxBytes?: number;
  /** How often the limits are applied besides at every new segment. Default 60 s. */
  retentionEveryMs?: number;
  /** The window the synthetic cameras can play back. Default SYNTHETIC_RETENTION_MS (7 days). */
  syntheticRetentionMs?: number;
  segments?: SegmentRecorderOptions;
  /** The agent's camera sessions: URL cameras are recorded from them (one camera session each). */
  sessions?: CameraSessions;
  now?: () => number;
}

export interface ShipRecorderEvents {
  /** A URL camera started or stopped recording. */
  recording: [cameraId: string, recording: boolean, since: number | null];
}

/** Most spans one vod.result carries (the agent-link schema's bound). */
export const MAX_SPANS_PER_RESULT = VOD_MAX_SPANS;

export type RecordingSource = { kind: 'synthetic'; camera: CameraConfig } | { kind: 'segments'; camera: CameraConfig; recorder: SegmentRecorder };


/**
 * The ship recorder: every camera of the ship, recorded whether or not anyone watches and whether
 * or not the link is up. URL cameras are copied into segments (SegmentRecorder), synthetic cameras
 * can draw any moment of their window (SyntheticRecorder). Answers `vod.query` and tells playback
 * where a camera's recording comes from. Retention: by age and by total size, checked as segments
 * close and once a minute.
 */
export class ShipRecorder extends EventEmitter<ShipRecorderEvents> {
  readonly runLog: RunLog;
  private readonly synthetic = new Map<string, SyntheticRecorder>();
  private readonly segments = new Map<string, SegmentRecorder>();
  private readonly cameras: Map<string, CameraConfig>;
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  private readonly maxAgeMs: number;
  private readonly maxBytes: number;

  constructor(
    cameras: readonly CameraConfig[],
    private readonly opts: ShipRecorderOptions = {},
  ) {
    super();
    this.now = opts.now ?? Date.now;
    this.maxAgeMs = opts.maxAgeMs ?? 7 * 24 * 3_600_000;
    this.maxBytes = opts.maxBytes ?? 20 * 1024 ** 3;
    this.cameras = new Map(cameras.map((c) => [c.cameraId, c]));
    const syntheticRetention = opts.syntheticRetentionMs ?? SYNTHETIC_RETENTION_MS;
    this.runLog = new RunLog({
      ...(opts.dataDir ? { file: join(opts.dataDir, 'runs.json') } : {}),
      keepMs: syntheticRetention,
      now: this.now,
    });
    for (const c of cameras) {
      if (isSynthetic(c)) {
        this.synthetic.set(c.cameraId, new SyntheticRecorder(c.cameraId, this.runLog, syntheticRetention, this.now));
      } else if (opts.dataDir) {
        const recorder = new SegmentRecorder(c.cameraId, c.source, join(opts.dataDir, 'recordings', cameraDirName(c.cameraId)), {
          now: this.now,
          ...opts.segments,
          ...(opts.sessions ? { session: opts.sessions.get(c.source) } : {}),
        });
        recorder.on('state', (recording, since) => this.emit('recording', c.cameraId, recording, since));
        recorder.on('segment', () => this.applyRetention());
        this.segments.set(c.cameraId, recorder);
      }
    }
  }

  start(): void {
    this.runLog.start();
    this.applyRetention();
    for (const r of this.segments.values()) r.start();
    clearInterval(this.timer);
    this.timer = setInterval(() => this.applyRetention(), this.opts.retentionEveryMs ?? 60_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.segments.values()].map((r) => r.stop()));
    this.runLog.stop();
  }

  /** Where a camera's recording comes from; undefined when the ship records nothing of it. */
  source(cameraId: string): RecordingSource | undefined {
    const camera = this.cameras.get(cameraId);
    if (!camera) return undefined;
    if (this.synthetic.has(cameraId)) return { kind: 'synthetic', camera };
    const recorder = this.segments.get(cameraId);
    return recorder ? { kind: 'segments', camera, recorder } : undefined;
  }

  /** Recorded spans of a camera overlapping [start, end), clipped; undefined for an unknown camera. */
  spans(cameraId: string, start: number, end: number): RecordedSpan[] | undefined {
    if (!this.cameras.has(cameraId)) return undefined;
    const synthetic = this.synthetic.get(cameraId);
    if (synthetic) return synthetic.spans(start, end);
    return this.segments.get(cameraId)?.spans(start, end) ?? [];
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

  /** Bytes kept by all URL cameras' recordings. */
  totalBytes(): number {
    let sum = 0;
    for (const r of this.segments.values()) sum += r.index.totalBytes();
    return sum;
  }

  /** Deletes what is older than the age limit, then the oldest segments until under the size limit. */
  applyRetention(): void {
    const horizon = this.now() - this.maxAgeMs;
    for (const r of this.segments.values()) r.index.expire(horizon);
    let total = this.totalBytes();
    while (total > this.maxBytes) {
      let oldest: SegmentRecorder | undefined;
      for (const r of this.segments.values()) {
        const first = r.index.all[0];
        if (first && (!oldest || first.start < (oldest.index.all[0]?.start ?? Infinity))) oldest = r;
      }
      const removed = oldest?.index.removeOldest();
      if (!removed) break;
      total -= removed.bytes;
    }
  }
}
