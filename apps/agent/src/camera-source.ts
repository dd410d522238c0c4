import type { CameraState, EncodeSpec, PlaybackSpeed, RecordedSpan } from '@ship-cctv/protocol';
import type { CameraConfig } from './cameras.ts';
import type { CameraSessions } from './media/camera-session.ts';
import type { FrameFeed, FramesRequest } from './events/analyser/frames.ts';
import type { Encoder, EncoderOptions } from './media/encoder.ts';
import type { EncoderOutput, InputProbe } from './media/ffmpeg-args.ts';
import type { Fmp4Source } from './media/flv-packager.ts';
import type { Shot, ShotSize } from './pictures/capture.ts';
import type { PtzBackend } from './ptz/ptz-backend.ts';
import type { RunLog } from './recorder/run-log.ts';
import type { RecentWrites } from './recorder/storage-projection.ts';
import type { SegmentRecorderOptions } from './recorder/segment-recorder.ts';

/**
 * What the agent does with one camera, whatever reads it. The agent's own kind is the URL camera
 * (url-camera.ts: RTSP, or any input ffmpeg opens, steered over ONVIF); another kind of camera
 * plugs in as a CameraKind beside it (the simulator's synthetic camera is one). The live streams,
 * the ship recorder, playback, pictures, PTZ and talkback only ever call this interface.
 */
export interface CameraSource {
  readonly camera: CameraConfig;
  /** The camera's state before anything is known of it (reported in the first hello). */
  initialState(now: number): CameraState;
  /** Called when the agent starts: keeps the camera open while it runs (a URL camera's one session). Returns the release. */
  hold(): () => void;
  /** Whether the camera answers now, asked every probeEveryMs; undefined: its state never changes. */
  readonly online: (() => Promise<boolean>) | undefined;
  /**
   * Whether the camera's pictures are arriving now, known without asking the camera (its session's
   * health): read every few hundred ms, so a camera that stops sending is reported at once.
   * Undefined (or answering undefined): only `online` tells.
   */
  readonly sendingNow?: (() => boolean | undefined) | undefined;
  /** The camera's own video codec as its session read it, read with sendingNow (undefined: not known). */
  readonly codecNow?: (() => 'h264' | 'h265' | undefined) | undefined;
  /** The picture (and sound) of one live stream: see LiveRequest and LiveStart. */
  startLive(req: LiveRequest): Promise<LiveStart>;
  /** Its recording on the ship, asked for once by the ship recorder; undefined: nothing is recorded. */
  openRecording(ctx: RecordingContext): CameraRecording | undefined;
  /**
   * A picture of now (`at` undefined: the moment `now` of the pictures' clock) or of a recorded
   * moment; NoRecording when nothing is recorded then.
   */
  shoot(at: number | undefined, size: ShotSize, now: number): Promise<Shot & { time: number }>;
  /** What steers it, when it is a PTZ camera. */
  readonly ptz: PtzBackend | undefined;
  /** The ship's speaker heard at this camera: talkback's PCM (s16le mono 16 kHz). Undefined: heard nowhere. */
  readonly speaker: ((pcm: Int16Array) => void) | undefined;
  /**
   * A few frames a second of what the camera shows now, as RGB, for the ship's event analysis
   * (events/analyser): from what the camera already sends, never a second connection to it.
   * Absent (or undefined returned): the camera is not analysed.
   */
  analysisFrames?(req: FramesRequest): FrameFeed | undefined;
}

/** A kind of camera: which cameras of the configuration it takes, and how it reads one. */
export interface CameraKind {
  /** Whether a camera whose `source` is this is one of this kind (the URL camera takes any other). */
  takes(source: string): boolean;
  /** A camera of this kind is PTZ with `"ptz": {}` (it steers itself; a URL camera needs ONVIF settings). */
  readonly steersItself?: boolean;
  create(camera: CameraConfig, ctx: CameraContext): CameraSource;
}

/** What the agent gives every camera source. */
export interface CameraContext {
  /** The agent's data directory (recordings, presets); absent: nothing is kept on disk. */
  dataDir: string | undefined;
  /** The agent's camera sessions: one connection per URL camera, shared by recorder, live and pictures (absent: each opens its own). */
  sessions: CameraSessions | undefined;
  now: () => number;
}

/** One live stream shore asked for, as a camera source is asked to start it. */
export interface LiveRequest {
  encode: EncodeSpec;
  /** Shore asked for sound too (a source without sound sends the picture alone). */
  audio: boolean;
  /** What an encoder writes on stdout (the reader returned must read it). */
  output: EncoderOutput;
  ffmpegCommand: string;
  /** What the stream's encoder reports to: first byte, data, exit (and its time-outs). */
  encoder: EncoderOptions;
  /** The encoder's sound (FLV on SOUND_OUTPUT_FD), for the stream's reader to package beside the picture. */
  onSound(chunk: Buffer): void;
  /** False once the stream was stopped or replaced while the source got ready: it then starts nothing. */
  wanted(): boolean;
  /** The camera went away for good while the stream ran: the stream fails with this reason. */
  fail(reason: string): void;
}

/**
 * A source's answer to a live request: ready (the stream sets `reader`, then calls `start`, at
 * once: data handed over while starting is read), failed (said to shore as live.failed), or gone
 * (the stream was stopped meanwhile: nothing to say).
 */
export type LiveStart =
  | {
      kind: 'ready';
      reader: Fmp4Source;
      start(): Encoder;
      /** After the encoder exited: what the stream held is let go. */
      ended?(): void;
      /** The camera's own codec, when known (said to shore in live.started). */
      cameraCodec?: 'h264' | 'h265';
      /** Whether this stream decodes and re-encodes the camera's picture (said to shore). */
      transcoded?: boolean;
    }
  | { kind: 'failed'; reason: string; detail?: string }
  | { kind: 'gone' };

/** What the ship recorder gives a camera's recording. */
export interface RecordingContext {
  /** The agent's data directory; absent: a recording that needs files is not made. */
  dataDir: string | undefined;
  now: () => number;
  /** The periods the agent ran (run-log.ts), kept in the data directory. */
  runs: RunLog;
  /** Options of segment recordings (URL cameras). */
  segments?: SegmentRecorderOptions;
}

/** A camera's recording on the ship. */
export interface CameraRecording {
  /** Recorded spans overlapping [start, end), clipped to it. */
  spans(start: number, end: number): RecordedSpan[];
  /** The ffmpeg command of one playback run of [from, to): fragmented MP4 on stdout, paced in played time. */
  playbackRun(run: PlaybackRunRequest): Promise<PlaybackRun>;
  /** Recording runs from start() (the agent starts) to stop(). */
  start(): void;
  stop(): Promise<void>;
  /** Started or stopped recording (since = the run's first moment, or null). */
  onState?(listener: (recording: boolean, since: number | null) => void): void;
  /** Files the recording keeps, under the ship recorder's retention (age and total size). */
  readonly store?: RecordingStore;
  /**
   * The closed segment files overlapping [start, end), oldest first, with their full paths (backfill
   * copies them to shore as they are). Absent: the recording keeps no files to copy.
   */
  segmentFiles?(start: number, end: number): SegmentFileEntry[];
  /** The closed segment file of that name (its start, when known, finds it without a look at every file); undefined: none. */
  segmentFile?(file: string, start?: number): SegmentFileEntry | undefined;
}

/** One closed segment file of a recording. */
export interface SegmentFileEntry {
  file: string;
  path: string;
  start: number;
  end: number;
  bytes: number;
}

export interface PlaybackRunRequest {
  from: number;
  to: number;
  encode: EncodeSpec;
  speed: PlaybackSpeed;
  /** Where a run may write a file it needs (removed when the run ends). */
  tmpDir: string;
  /** ffprobe of a recorded file. */
  probe: (path: string) => Promise<InputProbe>;
}

export interface PlaybackRun {
  args: string[];
  /** The run's first recorded moment: `from`, or the keyframe before it the picture really begins at. */
  from: number;
  /** A file made for the run, removed when it ends. */
  tempFile?: string;
}

/** A recording's files, for retention across every camera (oldest first). */
export interface RecordingStore {
  totalBytes(): number;
  /** Start of the oldest file kept; undefined when none is. */
  oldestStart(): number | undefined;
  /** Deletes the oldest file (`end`: the end of what it held, when known); undefined when none is left. */
  removeOldest(): { bytes: number; end?: number } | undefined;
  /** Deletes what ended before `horizon`. */
  expire(horizon: number): void;
  /** A file was added (retention is checked again). */
  onAdded(listener: () => void): void;
  /** What was written lately: the files that began at or after `since` (undefined: none). */
  recent?(since: number): RecentWrites | undefined;
}

/** The ship recorder holds nothing of a camera at a moment a picture asks for. */
export class NoRecording extends Error {
  constructor(cameraId: string, at: number) {
    super(`the ship recorder holds nothing of camera ${cameraId} at ${new Date(at).toISOString()}`);
  }
}
