import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CameraState } from '@ship-cctv/protocol';
import {
  type CameraContext,
  type CameraKind,
  type CameraRecording,
  type SegmentFileEntry,
  type CameraSource,
  type LiveRequest,
  type LiveStart,
  NoRecording,
  type PlaybackRun,
  type PlaybackRunRequest,
  type RecordingContext,
  type RecordingStore,
} from './camera-source.ts';
import { type CameraConfig, type OnvifSettings, cameraDirName, probeCamera } from './cameras.ts';
import { type CameraSession, startSessionTap } from './media/camera-session.ts';
import { type FrameFeed, type FramesRequest, sessionFrames } from './events/analyser/frames.ts';
import { startEncoder } from './media/encoder.ts';
import { type InputProbe, canCopy, canPassThrough, sessionTranscodeArgs, urlCameraArgs, urlCameraFrameRate } from './media/ffmpeg-args.ts';
import { Fmp4Reader } from './media/fmp4.ts';
import { FlvToFmp4 } from './media/flv-packager.ts';
import { liveReader } from './media/live-streams.ts';
import { probeInput } from './media/probe.ts';
import { type Shot, type ShotSize, shootRecording, shootSession, shootUrl } from './pictures/capture.ts';
import { keyframeAtOrBefore } from './playback/keyframes.ts';
import { type ConcatEntry, concatList, recordingPlaybackArgs } from './playback/playback-args.ts';
import { OnvifPtz } from './ptz/onvif-ptz.ts';
import type { PtzBackend } from './ptz/ptz-backend.ts';
import { SegmentRecorder } from './recorder/segment-recorder.ts';

/**
 * A stream of a camera session ends when the camera stays away this long; until then it waits for
 * the camera and goes on with its first picture back (the viewer was told the camera is not
 * sending, and live resumes within a second or two of its return instead of a new stream's start).
 */
const CAMERA_AWAY_MS = 10 * 60_000;

export interface UrlCameraOptions {
  /** ffprobe of a camera a live stream reads itself (replaceable in tests). Default probe.ts. */
  probe?: (url: string) => Promise<InputProbe>;
  /** A good probe of a URL is reused this long (definition switches restart streams). Default 60 s. */
  probeCacheMs?: number;
  /** Whether the camera answers. Default: its session's pictures flow (only one the session cannot carry, H.265, is probed). */
  health?: (url: string) => Promise<boolean>;
  /** Makes the PTZ backend of a camera's `ptz.onvif`. Default: OnvifPtz (ptz/onvif-ptz.ts). */
  onvif?: (settings: OnvifSettings) => PtzBackend;
}

/** The agent's own kind of camera: any camera URL ffmpeg opens (rtsp://, udp://, http://, a file), PTZ over ONVIF. */
export function urlCameras(opts: UrlCameraOptions = {}): CameraKind {
  return { takes: () => true, create: (camera, ctx) => new UrlCamera(camera, ctx, opts) };
}

/**
 * A camera read by URL. With the agent's camera sessions (camera-session.ts) one connection to the
 * camera feeds everything: live streams copy or transcode its pictures, the recorder copies them
 * into segments, pictures decode its latest GOP, and its health is whether pictures flow. Without
 * sessions, or for a camera the session cannot carry (H.265), each of them opens the camera itself.
 */
export class UrlCamera implements CameraSource {
  readonly ptz: PtzBackend | undefined;
  readonly speaker = undefined;
  readonly online: () => Promise<boolean>;
  readonly sendingNow: () => boolean | undefined;
  readonly codecNow: () => 'h264' | 'h265' | undefined;
  private readonly probes = new Map<string, { probe: InputProbe; at: number }>();
  private recording: SegmentRecording | undefined;

  constructor(
    readonly camera: CameraConfig,
    private readonly ctx: CameraContext,
    private readonly opts: UrlCameraOptions = {},
  ) {
    const onvif = camera.ptz?.onvif;
    this.ptz = onvif ? (opts.onvif ?? ((settings) => new OnvifPtz(settings)))(onvif) : undefined;
    const url = camera.source;
    const sessions = ctx.sessions;
    this.sendingNow = () => {
      if (opts.health || !sessions) return undefined;
      const health = sessions.health(url);
      return health && !sessions.get(url).unsupported ? health.online : undefined;
    };
    this.codecNow = () => sessions?.health(url)?.codec;
    this.online = opts.health ? () => (opts.health as (u: string) => Promise<boolean>)(url) : () => (!sessions || sessions.get(url).unsupported ? probeCamera(url) : Promise.resolve(sessions.health(url)?.online ?? false));
  }

  initialState(): CameraState {
    return { cameraId: this.camera.cameraId, online: false, recording: false, recordingSince: null };
  }

  hold(): () => void {
    // The session stays open while the agent runs: its health is known and a live view starts from
    // the running session whether or not the camera is recorded.
    return this.ctx.sessions?.get(this.camera.source).subscribe(() => undefined) ?? (() => undefined);
  }

  async startLive(req: LiveRequest): Promise<LiveStart> {
    const url = this.camera.source;
    // URL cameras are carried video only (their sessions read the picture alone).
    const session = this.ctx.sessions?.get(url);
    if (session && !session.unsupported) {
      const fromSession = await this.liveFromSession(req, session);
      if (fromSession !== 'fallback') return fromSession;
    }
    if (!req.wanted()) return { kind: 'gone' };
    let probe: InputProbe;
    try {
      probe = await this.probe(url);
    } catch (err) {
      if (!req.wanted()) return { kind: 'gone' };
      return { kind: 'failed', reason: `camera ${this.camera.cameraId} did not answer`, detail: (err as Error).message };
    }
    if (!req.wanted()) return { kind: 'gone' };
    const { encode, output } = req;
    const args = urlCameraArgs({ url, encode, probe, output });
    return {
      kind: 'ready',
      reader: liveReader(output, urlCameraFrameRate({ encode, probe }), encode, canCopy(probe, encode)),
      start: () => startEncoder(args, { ...req.encoder, command: req.ffmpegCommand }),
    };
  }

  /**
   * A live stream from the camera's session: copied when the session's pictures fit the template,
   * else transcoded from them. 'fallback' when the session cannot carry the camera (then the
   * stream reads the camera itself).
   */
  private async liveFromSession(req: LiveRequest, session: CameraSession): Promise<LiveStart | 'fallback'> {
    // Held while waiting, so the session opens (or stays open) for this stream; let go once the
    // stream's own subscription holds it (or nothing starts).
    const unsubscribe = session.subscribe(() => undefined);
    let held = true;
    const release = () => {
      if (held) unsubscribe();
      held = false;
    };
    let info: InputProbe;
    try {
      info = await session.ready(req.encoder.firstByteTimeoutMs);
    } catch (err) {
      release();
      if (session.unsupported) return 'fallback';
      if (!req.wanted()) return { kind: 'gone' };
      return { kind: 'failed', reason: `camera ${this.camera.cameraId} did not answer`, detail: (err as Error).message };
    }
    if (!req.wanted()) {
      release();
      return { kind: 'gone' };
    }
    const { encode } = req;
    const cameraCodec = info.codec === 'hevc' ? 'h265' : 'h264';
    const passThrough = canPassThrough(info, encode);
    if (canCopy(info, encode) || passThrough) {
      // The session's pictures are whole already: no joining here. H.265 comes as hvc1 fragmented
      // MP4 from the session itself; H.264 as FLV, packaged here.
      return {
        kind: 'ready',
        cameraCodec,
        transcoded: false,
        reader: passThrough
          ? new Fmp4Reader({ outputClock: capturedClock(session) })
          : new FlvToFmp4({ frameRate: info.frameRate ?? encode.frameRate, width: encode.width, height: encode.height, outputClock: capturedClock(session) }),
        start: () => {
          const tap = startSessionTap(session, { ...req.encoder, resumeWithinMs: CAMERA_AWAY_MS });
          release();
          return tap;
        },
        ended: release,
      };
    }
    // One container per stream: the session's at the start (FLV for H.264, hvc1 MP4 for H.265).
    const container = session.container ?? 'flv';
    return {
      kind: 'ready',
      cameraCodec,
      transcoded: true,
      reader: liveReader(req.output, encode.frameRate, encode, false, capturedClock(session)),
      start: () => {
        const encoder = startEncoder(sessionTranscodeArgs(encode, req.output, info.frameRate, container), { ...req.encoder, command: req.ffmpegCommand, stdin: true });
        // A camera that stays away ends the stream (as the copied one does, startSessionTap).
        let away: NodeJS.Timeout | undefined;
        const unsubscribeStream = session.subscribeStream(
          (chunk) => encoder.write(chunk),
          (e) => {
            if (e.kind === 'picture') {
              clearTimeout(away);
              away = undefined;
            } else if (e.kind === 'down' && !away) {
              away = setTimeout(() => req.fail(`camera stream ended: ${e.reason}`), CAMERA_AWAY_MS);
            }
          },
          // A camera that changes its codec (or, read as MP4, its parameters) needs another decoder:
          // this stream ends, shore asks again.
          { squeezeReplay: true, oneConfig: true, onStreamChange: (reason) => req.fail(reason) },
        );
        void encoder.exited.then(() => {
          clearTimeout(away);
          unsubscribeStream();
        });
        release();
        return encoder;
      },
      ended: release,
    };
  }

  /** Frames for the event analysis, decoded from the camera's running session (none for a camera the session cannot carry). */
  analysisFrames(req: FramesRequest): FrameFeed | undefined {
    const session = this.ctx.sessions?.get(this.camera.source);
    if (!session || session.unsupported) return undefined;
    return sessionFrames(session, req);
  }

  private async probe(url: string): Promise<InputProbe> {
    const cached = this.probes.get(url);
    const cacheMs = this.opts.probeCacheMs ?? 60_000;
    if (cached && Date.now() - cached.at < cacheMs) return cached.probe;
    const probe = await (this.opts.probe ?? probeInput)(url);
    this.probes.set(url, { probe, at: Date.now() });
    return probe;
  }

  openRecording(ctx: RecordingContext): CameraRecording | undefined {
    if (!ctx.dataDir) return undefined;
    const { cameraId, source } = this.camera;
    const recorder = new SegmentRecorder(cameraId, source, join(ctx.dataDir, 'recordings', cameraDirName(cameraId)), {
      now: ctx.now,
      ...ctx.segments,
      ...(this.ctx.sessions ? { session: this.ctx.sessions.get(source) } : {}),
    });
    this.recording = new SegmentRecording(recorder);
    return this.recording;
  }

  async shoot(at: number | undefined, size: ShotSize, now: number): Promise<Shot & { time: number }> {
    const { cameraId, source } = this.camera;
    if (at === undefined) {
      const session = this.ctx.sessions?.get(source);
      return { ...(await (!session || session.unsupported ? shootUrl(source, size) : shootSession(session, size))), time: now };
    }
    const index = this.recording?.recorder.index;
    const segment = index?.all.find((s) => s.start <= at && at < s.end);
    if (!index || !segment) throw new NoRecording(cameraId, at);
    return { ...(await shootRecording(join(index.dir, segment.file), (at - segment.start) / 1000, size)), time: at };
  }
}

/** A URL camera's recording: its camera copied into segments by a SegmentRecorder. */
export class SegmentRecording implements CameraRecording {
  readonly store: RecordingStore;

  constructor(readonly recorder: SegmentRecorder) {
    const index = recorder.index;
    this.store = {
      totalBytes: () => index.totalBytes(),
      oldestStart: () => index.all[0]?.start,
      removeOldest: () => index.removeOldest(),
      expire: (horizon) => index.expire(horizon),
      onAdded: (listener) => void recorder.on('segment', () => listener()),
      recent: (since) => index.writtenSince(since),
    };
  }

  spans(start: number, end: number) {
    return this.recorder.spans(start, end);
  }

  segmentFiles(start: number, end: number): SegmentFileEntry[] {
    const index = this.recorder.index;
    return index.all.filter((s) => s.end > start && s.start < end).map((s) => ({ file: s.file, path: join(index.dir, s.file), start: s.start, end: s.end, bytes: s.bytes }));
  }

  segmentFile(file: string, start?: number): SegmentFileEntry | undefined {
    const index = this.recorder.index;
    const s = index.find(file, start);
    return s && { file: s.file, path: join(index.dir, s.file), start: s.start, end: s.end, bytes: s.bytes };
  }

  start(): void {
    this.recorder.start();
  }

  stop(): Promise<void> {
    return this.recorder.stop();
  }

  onState(listener: (recording: boolean, since: number | null) => void): void {
    this.recorder.on('state', listener);
  }

  /** The segments of [from, to) as one concat list, started at the keyframe at or before `from`. */
  async playbackRun(run: PlaybackRunRequest): Promise<PlaybackRun> {
    const segments = this.recorder.index.overlapping(run.from, run.to);
    const first = segments[0];
    if (!first) throw new Error('the recording was deleted');
    // Start at the keyframe the picture really begins at, and say so: the run's time is its time.
    let from = run.from;
    const wanted = Math.max(0, (run.from - first.start) / 1000);
    const keyframe = wanted > 0 ? keyframeAtOrBefore(first.path, wanted) : undefined;
    let inpoint = wanted;
    if (keyframe !== undefined && keyframe < wanted) {
      from = Math.round(first.start + keyframe * 1000);
      // Just past the keyframe: the concat demuxer starts at the keyframe at or before its inpoint.
      inpoint = keyframe + 0.001;
    }
    const entries: ConcatEntry[] = segments.map((s, i) => ({
      path: s.path,
      ...(i === 0 ? { inpoint } : {}),
      ...(i === segments.length - 1 && s.end > run.to ? { outpoint: (run.to - s.start) / 1000 } : {}),
    }));
    let probe: InputProbe | undefined;
    if (run.speed === 1) probe = await run.probe(first.path).catch(() => undefined);
    const listFile = join(run.tmpDir, `ship-playback-${randomUUID()}.ffconcat`);
    writeFileSync(listFile, concatList(entries));
    return { args: recordingPlaybackArgs({ listFile, encode: run.encode, speed: run.speed, ...(probe ? { probe } : {}) }), from, tempFile: listFile };
  }
}

/**
 * The clock a live stream from a camera session stamps its pictures with (their prft): the ship's
 * wall clock less the camera's own delay, so a viewer's latency figure starts where the camera
 * captured the picture, as far as the camera says (CameraSession.cameraDelayMs), not where the
 * ship packaged it.
 */
function capturedClock(session: CameraSession): () => number {
  return () => Date.now() - session.cameraDelayMs();
}
