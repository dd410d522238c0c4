import { join } from 'node:path';

/** Settings of the shore recorder; every one has an environment variable (see the root README). */
export interface RecorderSettings {
  /** Folder of the segment files (RECORDINGS_DIR; default DATA_DIR/recordings). */
  dir: string;
  /** Segments older than this are deleted (RECORDING_MAX_AGE_HOURS, default 168 = 7 days). */
  maxAgeMs: number;
  /** Past this many bytes on disk the oldest segments are deleted (RECORDING_MAX_GB, default 20). */
  maxBytes: number;
  /** A new segment starts at the first keyframe after this much video (RECORDING_SEGMENT_SECONDS, default 60). */
  segmentSeconds: number;
  /** Longest clip that can be exported (CLIP_MAX_MINUTES, default 10). */
  clipMaxMs: number;
  /** How often retention runs (ms). */
  retentionEveryMs: number;
  /** How often configurations are read again, so scheduled windows open and close (ms). */
  configEveryMs: number;
  /** How long a finished clip stays downloadable (ms). */
  clipKeepMs: number;
}

function positive(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${value}"`);
  return n;
}

/** The recorder's settings from the environment; `dataDir` is the server's DATA_DIR. */
export function readRecorderSettings(env: NodeJS.ProcessEnv, dataDir: string): RecorderSettings {
  return {
    dir: env.RECORDINGS_DIR || join(dataDir, 'recordings'),
    maxAgeMs: positive(env.RECORDING_MAX_AGE_HOURS, 168, 'RECORDING_MAX_AGE_HOURS') * 3_600_000,
    maxBytes: Math.round(positive(env.RECORDING_MAX_GB, 20, 'RECORDING_MAX_GB') * 1024 ** 3),
    segmentSeconds: positive(env.RECORDING_SEGMENT_SECONDS, 60, 'RECORDING_SEGMENT_SECONDS'),
    clipMaxMs: positive(env.CLIP_MAX_MINUTES, 10, 'CLIP_MAX_MINUTES') * 60_000,
    retentionEveryMs: 60_000,
    configEveryMs: 30_000,
    clipKeepMs: 3_600_000,
  };
}
