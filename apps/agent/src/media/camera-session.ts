import type { VideoPacket } from './access-unit.ts';
import {
  type CameraReader,
  type CameraReaderEnd,
  type CameraReaderKind,
  type CameraReaderSetting,
  type SessionCodec,
  cameraReaderFor,
  cameraReaderSetting,
  startFfmpegReader,
} from './camera-reader.ts';
import type { Encoder, EncoderExit, EncoderOptions, EncoderState } from './encoder.ts';
import type { InputProbe } from './ffmpeg-args.ts';
import { FrameRateMeter } from './frame-rate.ts';
import { startRtspReader } from './rtsp/reader.ts';
import { type SessionConfig, type SessionContainer, type SessionMuxer, containerOf, muxerFor, sessionConfig } from './session-muxer.ts';

/**
 * One session per camera (go2rtc's one producer, many consumers): a single reader reads the
 * camera (one RTSP session; camera-reader.ts: the agent's own RTSP client for rtsp:// URLs, ffmpeg
 * for the rest) into whole H.264 or H.265 pictures and hands them to every consumer of that camera — the ship
 * recorder, live streams (copied or transcoded), pictures. A consumer that joins gets the
 * sequence header and the current GOP from its keyframe at once, so a live view of a recorded
 * camera starts from the running session: no probe, no second camera session, no wait for the
 * camera's next keyframe.
 *
 * Time: the pictures' decode times are the session's own, in ms, continuous across everything —
 * ffmpeg restarts after a camera drop, and jumps in the camera's timestamps (backwards, stalled,
 * or ahead by more than MAX_GAP_MS; a GStreamer camera resets them for every client when a new
 * one starts PLAY) — each such place is stamped one frame after the last picture and flagged
 * `discontinuity`, so the recorder starts a new segment there instead of writing a run of
 * frames one tick apart, and a live stream goes on without a backwards step.
 *
 * Health comes from the session's own flow: when the last picture arrived, bytes, pictures, runs.
 * A camera with no picture for `silentMs` (1.5 s, or three of its frame intervals if longer) is
 * not sending: health says offline at once, whatever the reader does. A camera that sends nothing
 * for `stallMs` is restarted, as is one whose reader ends: one that was sending within the last
 * `quickRetryForMs` is tried again every `minRetryMs` (it dropped: it is back as soon as it
 * answers), one that has not sent for longer with backoff up to `maxRetryMs`. A camera whose
 * codec the session cannot carry (MJPEG …) is marked `unsupported`; its consumers then read it
 * themselves. H.264 goes to ffmpeg consumers as FLV, H.265 as hvc1 fragmented MP4
 * (session-muxer.ts): `subscribeStream` picks it, `container` names it.
 */

/** Pictures whose capture delay is kept (cameraDelayMs): 5 s at 10 fps. */
const CAMERA_DELAYS_KEPT = 50;
/** Fewer than this and the camera's delay is not known yet. */
const MIN_CAMERA_DELAYS = 5;
/** A camera whose pictures arrive later than this after their capture has a clock that disagrees with the ship's. */
const MAX_CAMERA_DELAY_MS = 1_000;

export interface SessionPicture extends VideoPacket {
  /** The first picture after a time jump, a camera drop or a new sequence header. */
  discontinuity: boolean;
  /** Wall clock (epoch ms) when it arrived: what the recorder places its segments by. */
  arrivedAt: number;
}

export type SessionEvent =
  | { kind: 'config'; record: Buffer; config: SessionConfig }
  | { kind: 'picture'; picture: SessionPicture }
  /** The camera's reader ended (camera gone or stalled); the session retries by itself. */
  | { kind: 'down'; reason: string }
  /** The camera sends something the session cannot use while it goes on reading (health().problem). */
  | { kind: 'problem'; text: string };

export interface CameraSessionOptions {
  ffmpegCommand?: string;
  /** Which reader reads the camera (camera-reader.ts). Default: AGENT_CAMERA_READER, else auto. */
  reader?: CameraReaderSetting;
  /** No picture for this long: the reader is restarted. Default 10 s. */
  stallMs?: number;
  /** No picture for this long: the camera is not sending (health offline). Default 1.5 s, or 3 frame intervals if longer. */
  silentMs?: number;
  /** A camera that sent a picture this recently is retried every minRetryMs, without backoff. Default 10 min. */
  quickRetryForMs?: number;
  /** The reader's first byte may take this long. Default 15 s. */
  firstByteTimeoutMs?: number;
  minRetryMs?: number;
  maxRetryMs?: number;
  /** With no consumer left the session stays open this long (a viewer switching back). Default 10 s. */
  lingerMs?: number;
  now?: () => number;
  /** Something wrong with a camera's stream while it is read (health().problem), once per cause: for the agent's log. */
  onProblem?: (url: string, text: string) => void;
}

export interface CameraSessionHealth {
  /** A picture came within stallMs. */
  online: boolean;
  lastPictureAt: number | undefined;
  pictures: number;
  bytes: number;
  /** Camera readers started (RTSP sessions opened) since the session was made. */
  runs: number;
  discontinuities: number;
  lastError: string | undefined;
  /** The reader of the last run; undefined before the first. */
  reader: CameraReaderKind | undefined;
  /** Why the rtsp reader handed this camera to ffmpeg (it stays with ffmpeg). */
  fallback: string | undefined;
  /** The codec of the camera's pictures, once a sequence header came. */
  codec: SessionCodec | undefined;
  /** What is wrong with the camera's stream while it is read (parameter sets missing …); cleared by its next sequence header. */
  problem: string | undefined;
}

/** A gap between two pictures longer than this is a jump in the camera's clock, not its frame interval. */
export const MAX_GAP_MS = 2_000;

/** The GOP kept for consumers that join is dropped past this size (memory on the ship). */
const MAX_GOP_BYTES = 32 * 1024 * 1024;

/** `replayed`: the event is part of what a joining consumer is handed at once (the GOP so far). */
type Listener = (e: SessionEvent, replayed?: boolean) => void;

export class CameraSession {
  private readonly listeners = new Set<Listener>();
  private readonly opts: Required<Omit<CameraSessionOptions, 'now' | 'onProblem'>> & { now: () => number };
  private readonly onProblem: ((url: string, text: string) => void) | undefined;
  private reader: CameraReader | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private lingerTimer: NodeJS.Timeout | undefined;
  private watchTimer: NodeJS.Timeout | undefined;
  private retryMs: number;
  private runStartedAt = 0;
  /** Bytes of this run: until the first, the reader's own first-byte time-out applies. */
  private runBytes = 0;
  private config: SessionConfig | undefined;
  /** Pictures from the last keyframe on: what a new consumer starts with. */
  private gop: SessionPicture[] = [];
  private gopBytes = 0;
  /** The camera's ms and ours for the last picture; the offset between them in this stretch. */
  private lastCameraMs: number | undefined;
  private lastMs: number | undefined;
  private offsetMs = 0;
  private frameMs = 100;
  /**
   * The camera's frame rate as a probe gives it (info()): over the last pictures' stamps once they
   * span a second, frameMs's running average of the gaps only before.
   */
  private readonly frameRate = new FrameRateMeter();
  private pendingDiscontinuity = false;
  /** The last picture's camera stamp did not move on from the one before. */
  private stalled = false;
  private recentSizes: { at: number; bytes: number }[] = [];
  /** Arrival − the capture time the camera gave, ms, of the last pictures that had one. */
  private readonly cameraDelays: number[] = [];
  private state: CameraSessionHealth = {
    online: false,
    lastPictureAt: undefined,
    pictures: 0,
    bytes: 0,
    runs: 0,
    discontinuities: 0,
    lastError: undefined,
    reader: undefined,
    fallback: undefined,
    codec: undefined,
    problem: undefined,
  };
  private unsupportedReason: string | undefined;
  private readyWaiters: (() => void)[] = [];

  constructor(
    readonly url: string,
    opts: CameraSessionOptions = {},
  ) {
    this.opts = {
      ffmpegCommand: opts.ffmpegCommand ?? 'ffmpeg',
      reader: opts.reader ?? cameraReaderSetting(process.env.AGENT_CAMERA_READER),
      stallMs: opts.stallMs ?? 10_000,
      silentMs: opts.silentMs ?? 1_500,
      quickRetryForMs: opts.quickRetryForMs ?? 600_000,
      firstByteTimeoutMs: opts.firstByteTimeoutMs ?? 15_000,
      minRetryMs: opts.minRetryMs ?? 1_000,
      maxRetryMs: opts.maxRetryMs ?? 30_000,
      lingerMs: opts.lingerMs ?? 10_000,
      now: opts.now ?? Date.now,
    };
    this.onProblem = opts.onProblem;
    this.retryMs = this.opts.minRetryMs;
  }

  /** Why the session cannot serve this camera (H.265 …); its consumers read it themselves. */
  get unsupported(): string | undefined {
    return this.unsupportedReason;
  }

  /** The camera's frame interval as measured (100 ms until measured). */
  get frameIntervalMs(): number {
    return this.frameMs;
  }

  get consumers(): number {
    return this.listeners.size;
  }

  /**
   * How long the camera's pictures take to reach the ship after their capture: the median, over
   * the last pictures, of their arrival − when the camera says it captured them (its RTCP sender
   * reports, rtsp/stream.ts). 0 where the camera says nothing, or where its clock and the ship's
   * disagree beyond reason (a picture from the future, or older than a second on arrival).
   * A live stream's producer times start this much before the ship packages each picture.
   */
  cameraDelayMs(): number {
    const sorted = [...this.cameraDelays].sort((a, b) => a - b);
    if (sorted.length < MIN_CAMERA_DELAYS) return 0;
    const median = sorted[Math.floor(sorted.length / 2)] as number;
    return median >= 0 && median <= MAX_CAMERA_DELAY_MS ? Math.round(median) : 0;
  }

  health(): CameraSessionHealth {
    const last = this.state.lastPictureAt;
    return { ...this.state, online: this.reader !== undefined && last !== undefined && this.opts.now() - last < this.silentAfterMs() };
  }

  /** How long without a picture the camera counts as not sending: a slow camera's frames are further apart. */
  private silentAfterMs(): number {
    return Math.max(this.opts.silentMs, 3 * this.frameMs);
  }

  /** What a probe would say, from the pictures themselves; undefined before the first keyframe. */
  info(): InputProbe | undefined {
    if (!this.config || this.gop.length === 0 || this.config.width === undefined || this.config.height === undefined) return undefined;
    const probe: InputProbe = { codec: this.config.codec === 'h265' ? 'hevc' : 'h264', width: this.config.width, height: this.config.height, pixFmt: 'yuv420p' };
    const rate = this.frameRate.rate() ?? (this.frameMs > 0 ? 1000 / this.frameMs : undefined);
    if (rate !== undefined) probe.frameRate = Math.round(rate * 1000) / 1000;
    const now = this.opts.now();
    const recent = this.recentSizes.filter((s) => now - s.at <= 5_000);
    if (recent.length >= 2) {
      const span = Math.max(1, (recent.at(-1) as { at: number }).at - (recent[0] as { at: number }).at);
      probe.bitrateKbps = Math.round((recent.reduce((n, s) => n + s.bytes, 0) * 8) / span);
    }
    return probe;
  }

  /** Resolves once the session has a keyframe (at once if it has one), rejects after `timeoutMs` or when unsupported. */
  ready(timeoutMs: number): Promise<InputProbe> {
    const now = this.info();
    if (now) return Promise.resolve(now);
    if (this.unsupportedReason) return Promise.reject(new Error(this.unsupportedReason));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.readyWaiters = this.readyWaiters.filter((w) => w !== check);
        reject(new Error(this.state.lastError ?? `no picture from the camera within ${timeoutMs} ms`));
      }, timeoutMs);
      const check = () => {
        const info = this.info();
        if (info) {
          clearTimeout(timer);
          this.readyWaiters = this.readyWaiters.filter((w) => w !== check);
          resolve(info);
        } else if (this.unsupportedReason) {
          clearTimeout(timer);
          this.readyWaiters = this.readyWaiters.filter((w) => w !== check);
          reject(new Error(this.unsupportedReason));
        }
      };
      this.readyWaiters.push(check);
    });
  }

  /**
   * Adds a consumer: it gets the sequence header and the GOP so far at once, then every event.
   * The session starts with its first consumer. Returns the unsubscribe function.
   */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    clearTimeout(this.lingerTimer);
    this.lingerTimer = undefined;
    if (this.config && this.gop.length > 0) {
      listener({ kind: 'config', record: this.config.record, config: this.config }, true);
      for (const picture of this.gop) listener({ kind: 'picture', picture }, true);
    }
    if (!this.reader && !this.retryTimer && !this.unsupportedReason) this.open();
    return () => {
      if (!this.listeners.delete(listener) || this.listeners.size > 0) return;
      clearTimeout(this.lingerTimer);
      this.lingerTimer = setTimeout(() => void this.close(), this.opts.lingerMs);
      this.lingerTimer.unref();
    };
  }

  /** The container `subscribeStream` writes now (the camera's codec); undefined before its first sequence header. */
  get container(): SessionContainer | undefined {
    return this.config ? containerOf(this.config.codec) : undefined;
  }

  /**
   * A consumer that is an ffmpeg process (or a copied live stream): the session's pictures in the
   * container of the camera's codec (session-muxer.ts: FLV for H.264, hvc1 fragmented MP4 for
   * H.265) — the stream's start, its sequence header, the GOP, then every picture — with decode
   * times from 0 at its first keyframe, across discontinuities (the session's clock is continuous).
   * `onEvent` sees every event first (the recorder cuts a segment there). A camera that changes its
   * codec ends what this subscription writes (one container cannot hold both): `onStreamChange` is
   * told why, and the consumer starts again. With `oneConfig` (an ffmpeg reading MP4 from a pipe,
   * which takes one init segment), so does any new sequence header (another picture size …); FLV
   * and the link's own fragments take a new one in the stream.
   */
  subscribeStream(
    write: (chunk: Buffer) => void,
    onEvent?: (e: SessionEvent) => void,
    opts: { squeezeReplay?: boolean; oneConfig?: boolean; onStreamChange?: (reason: string) => void } = {},
  ): () => void {
    let base: number | undefined;
    let configSent: SessionConfig | undefined;
    let config: SessionConfig | undefined;
    let muxer: SessionMuxer | undefined;
    let changed = false;
    // Squeezed: the GOP handed over at once is stamped 1 ms apart (the last one a frame after the
    // one before), so a live viewer passes through it in a few ms and is at the camera's latest
    // picture — instead of playing the GOP at 1× and staying up to a GOP behind the camera.
    let replayed: SessionPicture[] = [];
    let shift = 0;
    const stamp = (p: SessionPicture, ms: number, compositionMs = p.compositionMs) => {
      if (base === undefined || !muxer || !config) return;
      if (configSent !== config) {
        write(muxer.config(config, ms));
        configSent = config;
      }
      write(muxer.picture({ data: p.data, keyframe: p.keyframe, timestampMs: ms, compositionMs }));
    };
    const flushReplay = () => {
      const squeezed = squeezeStamps(replayed, base ?? 0, this.frameMs);
      shift = squeezed.shift;
      replayed.forEach((p, i) => {
        const s = squeezed.stamps[i] as { timestampMs: number; compositionMs: number };
        stamp(p, s.timestampMs, s.compositionMs);
      });
      replayed = [];
    };
    const unsubscribe = this.subscribe((e, isReplay) => {
      onEvent?.(e);
      if (changed) return;
      if (e.kind === 'config') {
        const reason = muxer && config ? streamChange(config, e.config, opts.oneConfig === true && muxer.container === 'mp4') : undefined;
        if (reason) {
          changed = true;
          opts.onStreamChange?.(reason);
          return;
        }
        config = e.config;
      }
      if (e.kind !== 'picture' || !config) return;
      const p = e.picture;
      if (base === undefined) {
        if (!p.keyframe) return;
        base = p.timestampMs;
        muxer = muxerFor(config.codec, () => this.frameMs);
        const head = muxer.start();
        if (head.length > 0) write(head);
      }
      if (opts.squeezeReplay && isReplay) {
        replayed.push(p);
        return;
      }
      if (replayed.length > 0) flushReplay();
      stamp(p, p.timestampMs - base - shift);
    });
    // The GOP was handed over during subscribe(): out at once, not with the next live picture.
    if (replayed.length > 0) flushReplay();
    return unsubscribe;
  }

  /** Ends the camera's reader now (no consumer, or the agent stops). */
  async close(): Promise<void> {
    clearTimeout(this.lingerTimer);
    clearTimeout(this.retryTimer);
    clearInterval(this.watchTimer);
    this.lingerTimer = this.retryTimer = this.watchTimer = undefined;
    const reader = this.reader;
    this.reader = undefined;
    if (reader) await reader.stop();
  }

  /** Stops for good: every consumer is dropped. */
  async stop(): Promise<void> {
    this.listeners.clear();
    await this.close();
  }

  private open(): void {
    this.retryTimer = undefined;
    if (this.listeners.size === 0) return;
    this.runStartedAt = this.opts.now();
    this.runBytes = 0;
    this.state.runs += 1;
    const kind = this.state.fallback ? 'ffmpeg' : cameraReaderFor(this.url, this.opts.reader);
    this.state.reader = kind;
    const start = kind === 'rtsp' ? startRtspReader : startFfmpegReader;
    const reader: CameraReader = start(
      this.url,
      { ffmpegCommand: this.opts.ffmpegCommand, firstByteTimeoutMs: this.opts.firstByteTimeoutMs },
      {
        onBytes: (n) => {
          if (this.reader !== reader) return;
          this.state.bytes += n;
          this.runBytes += n;
        },
        onConfig: (record, codec) => {
          if (this.reader === reader) this.configure(record, codec ?? 'h264');
        },
        onProblem: (text) => {
          if (this.reader === reader) this.problem(text);
        },
        onPicture: (p) => {
          // Pictures before the first sequence header are not decodable anyway.
          if (this.reader === reader && this.config) this.picture(p);
        },
        onEnd: (end) => {
          if (this.reader === reader) this.ended(reader, end);
        },
      },
    );
    this.reader = reader;
    this.watchTimer = setInterval(() => {
      const last = Math.max(this.state.lastPictureAt ?? 0, this.runStartedAt);
      if (this.reader === reader && this.runBytes > 0 && this.opts.now() - last > this.opts.stallMs) void reader.stop(`no picture from the camera for ${this.opts.stallMs} ms`);
    }, 1_000);
    this.watchTimer.unref();
  }

  /**
   * A new sequence header (the same one again changes nothing). Another codec or picture size
   * than before is a new stream for every consumer: a discontinuity, the GOP starts again, and the
   * recorder starts a new segment. An unreadable one is a problem said, and its pictures wait.
   */
  private configure(record: Buffer, codec: SessionCodec): void {
    if (record.length < 7 || (this.config?.record.equals(record) && this.config.codec === codec)) return;
    let next: SessionConfig;
    try {
      next = sessionConfig(Buffer.from(record), codec);
    } catch (err) {
      this.problem(`the camera's ${codec === 'h265' ? 'H.265' : 'H.264'} sequence header is unreadable: ${(err as Error).message}`);
      return;
    }
    this.config = next;
    this.state.codec = codec;
    this.state.problem = undefined;
    this.gop = [];
    this.pendingDiscontinuity = true;
    this.emit({ kind: 'config', record: next.record, config: next });
  }

  /** Says what is wrong with the camera's stream (health, consumers, the log), once until it changes. */
  private problem(text: string): void {
    if (this.state.problem === text) return;
    this.state.problem = this.state.lastError = text;
    this.emit({ kind: 'problem', text });
    this.onProblem?.(this.url, text);
  }

  /** The reader ended: the camera dropped, stalled, or cannot be read this way; retried with backoff. */
  private ended(reader: CameraReader, end: CameraReaderEnd): void {
    this.reader = undefined;
    clearInterval(this.watchTimer);
    this.watchTimer = undefined;
    this.state.lastError = end.reason;
    this.gop = [];
    this.pendingDiscontinuity = true;
    this.lastCameraMs = undefined;
    if (end.unsupported && this.config === undefined) this.unsupportedReason = end.unsupported;
    // The camera answered but not in a way the rtsp reader takes: ffmpeg reads it from now on, at once.
    const fallback = reader.kind === 'rtsp' && end.fallback !== undefined;
    if (fallback) this.state.fallback = end.fallback;
    this.emit({ kind: 'down', reason: end.reason });
    for (const w of [...this.readyWaiters]) w();
    if (this.unsupportedReason || this.listeners.size === 0) return;
    if (fallback) {
      this.retryTimer = setTimeout(() => this.open(), 0);
      this.retryTimer.unref();
      return;
    }
    if (this.opts.now() - this.runStartedAt > this.opts.maxRetryMs) this.retryMs = this.opts.minRetryMs;
    // A camera that just dropped is asked again every minRetryMs: it comes back the moment it answers.
    const last = this.state.lastPictureAt;
    const dropped = last !== undefined && this.opts.now() - last < this.opts.quickRetryForMs;
    this.retryTimer = setTimeout(() => this.open(), dropped ? this.opts.minRetryMs : this.retryMs);
    this.retryTimer.unref();
    if (!dropped) this.retryMs = Math.min(this.opts.maxRetryMs, this.retryMs * 2);
  }

  /** Puts a picture on the session's continuous clock and hands it on. */
  private picture(p: VideoPacket): void {
    const now = this.opts.now();
    let discontinuity = this.pendingDiscontinuity;
    let ms: number;
    const gap = this.lastCameraMs === undefined ? undefined : p.timestampMs - this.lastCameraMs;
    if (this.lastMs === undefined) {
      this.offsetMs = -p.timestampMs;
      ms = 0;
    } else if (!discontinuity && gap === 0 && this.stalled) {
      // Still the same stalled stamp (ffmpeg holds a backwards stamp at the last one it wrote
      // until the camera's clock passes it): one frame on, the jump already flagged.
      ms = this.lastMs + this.frameMs;
      this.offsetMs = ms - p.timestampMs;
    } else if (discontinuity || gap === undefined || gap <= 0 || gap > MAX_GAP_MS) {
      // A jump in the camera's clock (or a new run): one frame after the last picture.
      discontinuity = true;
      ms = this.lastMs + this.frameMs;
      this.offsetMs = ms - p.timestampMs;
    } else {
      ms = p.timestampMs + this.offsetMs;
      this.frameMs = this.frameMs * 0.8 + gap * 0.2;
    }
    this.stalled = gap !== undefined && gap <= 0 && this.lastMs !== undefined;
    if (discontinuity) this.frameRate.restart();
    this.frameRate.note(ms);
    if (discontinuity && this.lastMs !== undefined) this.state.discontinuities += 1;
    this.pendingDiscontinuity = false;
    this.lastCameraMs = p.timestampMs;
    this.lastMs = ms;
    this.state.pictures += 1;
    this.state.lastPictureAt = now;
    this.recentSizes.push({ at: now, bytes: p.data.length });
    while (this.recentSizes.length > 0 && now - (this.recentSizes[0] as { at: number }).at > 5_000) this.recentSizes.shift();
    if (p.capturedAt !== undefined) {
      this.cameraDelays.push(now - p.capturedAt);
      if (this.cameraDelays.length > CAMERA_DELAYS_KEPT) this.cameraDelays.shift();
    }
    const picture: SessionPicture = { ...p, timestampMs: ms, discontinuity, arrivedAt: now };
    if (picture.keyframe) {
      this.gop = [picture];
      this.gopBytes = picture.data.length;
    } else if (this.gop.length > 0) {
      this.gop.push(picture);
      this.gopBytes += picture.data.length;
      // A camera with a very long GOP: a consumer joining late waits for the next keyframe instead.
      if (this.gopBytes > MAX_GOP_BYTES) this.gop = [];
    }
    if (picture.keyframe) this.retryMs = this.opts.minRetryMs;
    this.emit({ kind: 'picture', picture });
    if (picture.keyframe) for (const w of [...this.readyWaiters]) w();
  }

  private emit(e: SessionEvent): void {
    for (const l of [...this.listeners]) l(e);
  }
}

/** Why a consumer's stream cannot go on past a new sequence header: another codec; with `oneConfig`, any other one. */
function streamChange(from: SessionConfig, to: SessionConfig, oneConfig: boolean): string | undefined {
  if (containerOf(from.codec) !== containerOf(to.codec)) return `the camera changed its codec from ${from.codec} to ${to.codec}`;
  if (!oneConfig || from.record.equals(to.record)) return undefined;
  if (from.width !== to.width || from.height !== to.height) return `the camera changed its picture size from ${from.width}×${from.height} to ${to.width}×${to.height}`;
  return 'the camera changed its video parameters';
}

/**
 * Stamps for the GOP a live viewer is handed at once (subscribeStream's squeezeReplay): decode times
 * 1 ms apart, the last one a frame after the one before, so the viewer passes through the GOP in a
 * few ms. With B-frames the presentation times are squeezed with them, by one mapping of the
 * pictures' times (relative to `base`) that keeps their order: every time before the last picture's
 * decode time becomes its rank among those times (the presentation order stays, each presentation
 * time stays at or after its decode time), and the last picture's decode time and everything after
 * it moves back by `shift` — as the live pictures that follow do.
 */
export function squeezeStamps(
  pictures: readonly { timestampMs: number; compositionMs: number }[],
  base: number,
  frameMs: number,
): { stamps: { timestampMs: number; compositionMs: number }[]; shift: number } {
  const last = pictures.at(-1);
  if (!last) return { stamps: [], shift: 0 };
  const lastDts = last.timestampMs - base;
  const early = new Set<number>();
  pictures.forEach((p, i) => {
    const dts = p.timestampMs - base;
    if (i < pictures.length - 1) early.add(dts);
    if (dts + p.compositionMs < lastDts) early.add(dts + p.compositionMs);
  });
  const ranks = new Map([...early].sort((a, b) => a - b).map((t, i) => [t, i]));
  const lastStamp = pictures.length === 1 ? 0 : ranks.size - 1 + Math.max(1, Math.round(frameMs));
  const shift = lastDts - lastStamp;
  const map = (t: number) => (t < lastDts ? (ranks.get(t) as number) : t - shift);
  const stamps = pictures.map((p) => {
    const dts = p.timestampMs - base;
    const timestampMs = map(dts);
    return { timestampMs, compositionMs: map(dts + p.compositionMs) - timestampMs };
  });
  return { stamps, shift };
}

/** The agent's camera sessions, one per camera URL, made on first use. */
export class CameraSessions {
  private readonly sessions = new Map<string, CameraSession>();

  private readonly opts: CameraSessionOptions;

  /** Throws at once on a bad AGENT_CAMERA_READER, not when the first camera opens. */
  constructor(opts: CameraSessionOptions = {}) {
    this.opts = { ...opts, reader: opts.reader ?? cameraReaderSetting(process.env.AGENT_CAMERA_READER) };
  }

  get(url: string): CameraSession {
    let s = this.sessions.get(url);
    if (!s) {
      s = new CameraSession(url, this.opts);
      this.sessions.set(url, s);
    }
    return s;
  }

  /** The session's health when there is one (undefined: nobody opened that camera yet). */
  health(url: string): CameraSessionHealth | undefined {
    return this.sessions.get(url)?.health();
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => s.stop()));
  }
}

/**
 * A copied live stream of a camera session, shaped like an encoder (encoder.ts) so LiveStreams
 * treats it as one: the session's pictures (the GOP so far first; FLV for H.264, hvc1 fragmented
 * MP4 for H.265) go to onData, there is no process. It fails when no picture came within the first-byte time-out, or when the camera
 * stays away longer than `resumeWithinMs` after a drop (shorter drops: the stream goes on, the
 * session's clock has no step).
 */
export function startSessionTap(session: CameraSession, opts: EncoderOptions & { resumeWithinMs?: number }): Encoder {
  let state: EncoderState = 'starting';
  let bytes = 0;
  let resolveExited!: (info: EncoderExit) => void;
  const exited = new Promise<EncoderExit>((resolve) => (resolveExited = resolve));
  let downTimer: NodeJS.Timeout | undefined;
  const finish = (ended: boolean, reason: string) => {
    if (state === 'ended' || state === 'failed') return;
    unsubscribe();
    clearTimeout(startTimer);
    clearTimeout(downTimer);
    state = ended ? 'ended' : 'failed';
    const info: EncoderExit = { state, reason, code: null, signal: null, stderrTail: '', bytes };
    resolveExited(info);
    // Like a process's exit: after the caller has its handle.
    setImmediate(() => opts.onExit?.(info));
  };
  const startTimer = setTimeout(() => finish(false, session.health().lastError ?? `no picture from the camera within ${opts.firstByteTimeoutMs} ms`), opts.firstByteTimeoutMs);
  const unsubscribe = session.subscribeStream(
    (chunk) => {
      if (state === 'ended' || state === 'failed') return;
      bytes += chunk.length;
      if (state === 'starting') {
        state = 'running';
        clearTimeout(startTimer);
        opts.onRunning?.();
      }
      opts.onData(chunk);
    },
    (e) => {
      if (e.kind === 'down' && state === 'running') {
        if (session.unsupported) return finish(false, session.unsupported);
        clearTimeout(downTimer);
        downTimer = setTimeout(() => finish(false, `camera stream ended: ${e.reason}`), opts.resumeWithinMs ?? 20_000);
      } else if (e.kind === 'picture') {
        clearTimeout(downTimer);
        downTimer = undefined;
      }
    },
    // Another codec needs another packaging (and the viewer another decoder), and a camera's H.265
    // with new parameters may no longer fit the definition: the stream ends, shore asks again.
    { squeezeReplay: true, oneConfig: true, onStreamChange: (reason) => setImmediate(() => finish(false, reason)) },
  );
  return {
    pid: undefined,
    get state() {
      return state;
    },
    exited,
    stop() {
      finish(true, 'stopped');
      return exited;
    },
    write: () => false,
    endInput: () => undefined,
    writeSpeaker: () => false,
  };
}
