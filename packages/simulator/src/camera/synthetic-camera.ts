import { join } from 'node:path';
import type { CameraState } from '@ship-cctv/protocol';
import {
  type CameraConfig,
  type CameraContext,
  type CameraKind,
  type CameraSource,
  FlvToFmp4,
  type FrameFeed,
  type FramesRequest,
  frameSize,
  rawFrameOutputArgs,
  startRawFrames,
  LIVE_SOUND,
  type LiveRequest,
  type LiveStart,
  NoRecording,
  type RecordingContext,
  type Shot,
  type ShotSize,
  cameraDirName,
  liveReader,
  shootInput,
  startEncoder,
} from '@ship-cctv/agent';
import { SyntheticPtz } from '../ptz/synthetic-ptz.ts';
import { type CameraFonts, fontsFor } from './fonts.ts';
import { SpeakerFeed, type SpeakerPump } from './speaker-feed.ts';
import { type PtzStage, syntheticCameraArgs, syntheticCameraGraph } from './synthetic-picture.ts';
import { SyntheticRecorder, SyntheticRecording } from './synthetic-recording.ts';
import { type SyntheticActors, actorSeed, walkerImagePath } from './synthetic-actors.ts';

/** A camera whose `source` is this is the synthetic camera. */
export const SYNTHETIC_SOURCE = 'synthetic';
/** The synthetic camera's recorder can render any moment of this window (it is a function of time). */
export const SYNTHETIC_RETENTION_MS = 7 * 24 * 3_600_000;

export interface SyntheticCamerasOptions {
  /** Fonts of the camera's text. Default: fonts.ts. */
  fonts?: (cameraName: string) => CameraFonts;
  /** The window the camera can play back. Default SYNTHETIC_RETENTION_MS (7 days). */
  retentionMs?: number;
  /** A live stream with sound mixes in the ship's speaker (talkback, speaker-feed.ts). Default true. */
  hearsSpeaker?: boolean;
  /**
   * People walk across and boats pass now and then (synthetic-actors.ts), in live, pictures,
   * playback and the frames the agent's event analysis reads: every camera (true) or those of
   * the set (camera ids). Default none: the picture the tests know.
   */
  actors?: boolean | ReadonlySet<string>;
}

/**
 * The synthetic camera as a kind of camera the agent reads (`"source": "synthetic"`): give it to
 * ShipAgent's `cameraKinds`, or to readAgentConfig/parseCameras so `"ptz": {}` is accepted.
 */
export function syntheticCameras(opts: SyntheticCamerasOptions = {}): CameraKind {
  return { takes: (source) => source === SYNTHETIC_SOURCE, steersItself: true, create: (camera, ctx) => new SyntheticCamera(camera, ctx, opts) };
}

/** The synthetic camera's picture at `at` (epoch ms): drawn for that instant, burned-in clock and all. */
export function shootSynthetic(cameraName: string, at: number, size: ShotSize, fonts: CameraFonts, ptz?: PtzStage, actors?: SyntheticActors): Promise<Shot> {
  const graph = syntheticCameraGraph({ cameraName, encode: { ...size, frameRate: 10, bitrateKbps: 1, codec: 'h264' }, startEpochMs: at, realtime: false, ...fonts, ...(ptz ? { ptz } : {}), ...(actors ? { actors } : {}) });
  return shootInput(['-f', 'lavfi', '-i', graph], size);
}

/**
 * The built-in synthetic camera as a camera source: its picture (and sound) is a function of
 * absolute time (synthetic-picture.ts), so it is always online, "records" without storing anything
 * (any moment of its window is drawn again on playback, synthetic-recording.ts), takes a picture of
 * any recorded moment, hears the ship's speaker in its sound (speaker-feed.ts) and, with `"ptz": {}`,
 * is a PTZ camera whose window pans, tilts and zooms over a larger scene (ptz/synthetic-ptz.ts).
 */
export class SyntheticCamera implements CameraSource {
  readonly ptz: SyntheticPtz | undefined;
  readonly online = undefined;
  /** The ship's speaker as this camera hears it. */
  readonly feed: SpeakerFeed;
  readonly speaker: (pcm: Int16Array) => void;
  private readonly name: string;
  private readonly retentionMs: number;
  private readonly fonts: () => CameraFonts;
  private recording: SyntheticRecording | undefined;
  /** Its walkers and boats, when it has them. */
  readonly actors: SyntheticActors | undefined;

  constructor(
    readonly camera: CameraConfig,
    ctx: CameraContext,
    private readonly opts: SyntheticCamerasOptions = {},
  ) {
    this.name = camera.name ?? camera.cameraId;
    this.retentionMs = opts.retentionMs ?? SYNTHETIC_RETENTION_MS;
    const fonts = opts.fonts ?? fontsFor;
    this.fonts = () => fonts(this.name);
    // Presets are kept under the agent's data directory (`ptz/<camera>.json`), else in memory.
    this.ptz = camera.ptz ? new SyntheticPtz(ctx.dataDir ? { presetsFile: join(ctx.dataDir, 'ptz', `${cameraDirName(camera.cameraId)}.json`) } : {}) : undefined;
    this.feed = new SpeakerFeed(camera.cameraId);
    const acts = opts.actors === true || (opts.actors instanceof Set && opts.actors.has(camera.cameraId));
    this.actors = acts ? { seed: actorSeed(this.name), walkerImage: walkerImagePath() } : undefined;
    this.speaker = (pcm) => this.feed.push(pcm);
  }

  /** Always up, and always "recording" its whole window. */
  initialState(now: number): CameraState {
    return { cameraId: this.camera.cameraId, online: true, recording: true, recordingSince: now - this.retentionMs };
  }

  hold(): () => void {
    return () => undefined;
  }

  async startLive(req: LiveRequest): Promise<LiveStart> {
    const { encode } = req;
    // A PTZ camera's stream draws the larger scene and follows the camera's moves through its ffmpeg's zmq filter.
    const window = this.ptz ? await this.ptz.openLive(encode.width, encode.height) : undefined;
    if (!req.wanted()) {
      window?.close();
      return { kind: 'gone' };
    }
    const speakerInput = req.audio && this.opts.hearsSpeaker !== false;
    const args = syntheticCameraArgs({
      cameraName: this.name,
      encode,
      realtime: true,
      output: req.output,
      ...this.fonts(),
      ...(req.audio ? { audio: { spec: LIVE_SOUND, speakerInput } } : {}),
      ...(window ? { ptz: window.stage } : {}),
      ...(this.actors ? { actors: this.actors } : {}),
    });
    let pump: SpeakerPump | undefined;
    const ended = () => {
      pump?.stop();
      window?.close();
    };
    if (req.audio) {
      return {
        kind: 'ready',
        reader: new FlvToFmp4({ frameRate: encode.frameRate, width: encode.width, height: encode.height, audio: LIVE_SOUND, outputClock: Date.now }),
        start: () => {
          const encoder = startEncoder(args, { ...req.encoder, command: req.ffmpegCommand, onSound: (chunk) => req.onSound(chunk), speakerInput });
          if (speakerInput) pump = this.feed.pump((chunk) => encoder.writeSpeaker(chunk));
          void window?.attach();
          return encoder;
        },
        ended,
      };
    }
    return {
      kind: 'ready',
      reader: liveReader(req.output, encode.frameRate, encode),
      start: () => {
        const encoder = startEncoder(args, { ...req.encoder, command: req.ffmpegCommand });
        void window?.attach();
        return encoder;
      },
      ended,
    };
  }

  openRecording(ctx: RecordingContext): SyntheticRecording {
    this.recording = new SyntheticRecording(new SyntheticRecorder(this.camera.cameraId, ctx.runs, this.retentionMs, ctx.now), this.name, this.fonts, this.actors);
    return this.recording;
  }

  /** Drawn for the moment asked (a past one only when it counts as recorded), with the PTZ window of that moment. */
  async shoot(at: number | undefined, size: ShotSize, now: number): Promise<Shot & { time: number }> {
    const time = at ?? now;
    if (at !== undefined && (this.recording?.spans(at, at + 1).length ?? 0) === 0) throw new NoRecording(this.camera.cameraId, at);
    return { ...(await shootSynthetic(this.name, time, size, this.fonts(), this.ptz?.stillStage(size.width, size.height, time), this.actors)), time };
  }

  /**
   * Frames for the agent's event analysis: the camera's picture drawn at the analysis size and
   * rate, in real time (it is a function of time: the same picture live shows, with no camera to
   * connect to). A PTZ camera is not analysed (its window moves).
   */
  analysisFrames(req: FramesRequest): FrameFeed | undefined {
    if (this.ptz) return undefined;
    const size = frameSize(1280, 720, req.maxWidth);
    const graph = syntheticCameraGraph({
      cameraName: this.name,
      encode: { ...size, frameRate: req.fps, bitrateKbps: 1, codec: 'h264' },
      realtime: true,
      ...this.fonts(),
      ...(this.actors ? { actors: this.actors } : {}),
    });
    return startRawFrames(['-f', 'lavfi', '-i', graph, ...rawFrameOutputArgs(req.fps, size.width, size.height)], size.width, size.height, req);
  }
}
