import type { LinkType, MediaServerMessage, PlayCommand } from '@ship-cctv/protocol';
import { backoffDelay } from '@ship-cctv/protocol';
import { Fmp4Error, isInitSegment, readProducerTime, readTrackSamples, readVideoDecoderSetup, type VideoDecoderSetup } from '@ship-cctv/media';
import { Emitter } from '../emitter.ts';
import { MediaSocket, mediaSocketUrl } from '../media-socket.ts';
import { MsePlayer } from '../mse-player.ts';
import { interpretServerMessage } from '../server-events.ts';
import { pictureOnlyMime } from '../sound-mime.ts';
import type { CodecInfo, MsePlayerEventMap, MsePlayerOptions, PlayerCommand, PlayerError, PlayerState, PlayerStats, SocketConstructor } from '../types.ts';
import { SlidingRate, stallVerdict } from '../watchdog.ts';
import { emptyStats, medianOf, notePresentation, stripUndefined } from '../stats.ts';
import { FrameSink, type FrameSinkDeps } from './frame-sink.ts';
import type { PlayoutClockOptions } from './playout-clock.ts';

const DEFAULTS = { stallTimeoutMs: 4000, silenceReconnectMs: 15_000, startupTimeoutMs: 15_000 };
const TICK_MS = 250;
/** Ages of the last frames shown, whose median is stats.pictureAgeMs. */
const AGE_SAMPLES = 10;
const MAX_BELIEVABLE_AGE_MS = 120_000;
/** Producer times kept for frames not shown yet. */
const PRODUCED_KEPT = 60;

/** A browser track fed with frames (Chrome's MediaStreamTrackGenerator). */
interface TrackGenerator extends MediaStreamTrack {
  readonly writable: WritableStream<VideoFrame>;
}
type TrackGeneratorConstructor = new (init: { kind: 'video' }) => TrackGenerator;

export interface FramePlayerOptions extends MsePlayerOptions {
  /** The jitter buffer's settings (tests, benchmarks). */
  playout?: PlayoutClockOptions;
  /** Browser parts, for tests. */
  sinkDeps?: FrameSinkDeps;
}

/**
 * Live video decoded by the page itself (WebCodecs) and painted at each frame's time, for the
 * smallest delay that still plays evenly. The media socket, its commands and events are MsePlayer's;
 * what differs is the way to the screen: no media element queue (which runs dry below ~200 ms in
 * Chrome), but a jitter buffer of its own (PlayoutClock) that holds each frame only as long as the
 * link's jitter needs, the frames going to the <video> as a MediaStream track.
 *
 * For what it does not do itself it hands the stream to an MsePlayer on the same <video>: sound
 * (an operator who unmutes a cell that has sound: the picture then follows the sound's clock) and
 * ship-end playback. `framePlayerSupported()` (supported.ts) says whether this browser can run it at all (Chrome
 * and Edge: VideoDecoder and MediaStreamTrackGenerator in a secure context); elsewhere use MsePlayer.
 */
export class FramePlayer extends Emitter<MsePlayerEventMap> {
  private readonly settings: typeof DEFAULTS & FramePlayerOptions;
  private readonly socket: MediaSocket;
  private readonly sink: FrameSink;
  private readonly track: TrackGenerator | undefined;
  private readonly writer: WritableStreamDefaultWriter<VideoFrame> | undefined;
  private command: PlayCommand | undefined;
  /** The player the stream went to for what this one does not do (sound, playback). */
  private delegate: MsePlayer | undefined;
  private delegateOff: Array<() => void> = [];
  private currentState: PlayerState = 'idle';
  private s: PlayerStats = emptyStats();
  private setup: VideoDecoderSetup | undefined;
  private link: LinkType | undefined;
  private soundWanted = false;
  private streamHasSound = false;
  private frameRateOfStream: number | undefined;
  private tickTimer: ReturnType<typeof setInterval> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private attempt = 0;
  private finalFromServer = false;
  private serverHold = false;
  private failedSession = -1;
  private playCalledAt = 0;
  private waitingSince: number | undefined;
  private startupGraceMs = 0;
  private startupReported = false;
  private sessionFrames = false;
  private lastBytesAt = 0;
  private lastProgressAt = 0;
  private framesShown = 0;
  private readonly byteRate = new SlidingRate(2000);
  private readonly shownRate = new SlidingRate(2000);
  private readonly produced: Array<[mediaMs: number, wallMs: number]> = [];
  private readonly ages: Array<{ ms: number; at: number }> = [];

  constructor(
    private readonly video: HTMLVideoElement,
    options: FramePlayerOptions,
  ) {
    super();
    this.settings = { ...DEFAULTS, ...stripUndefined(options) };
    this.link = options.link;
    this.socket = new MediaSocket(options.WebSocketImpl ?? (globalThis.WebSocket as SocketConstructor), () => mediaSocketUrl(this.settings.url, this.settings.token));
    let deps = options.sinkDeps;
    if (!deps) {
      const Generator = (globalThis as unknown as { MediaStreamTrackGenerator: TrackGeneratorConstructor }).MediaStreamTrackGenerator;
      this.track = new Generator({ kind: 'video' });
      const writer = this.track.writable.getWriter();
      this.writer = writer;
      deps = browserSinkDeps((frame) => {
        writer.write(frame).catch(() => frame.close());
      });
    }
    this.sink = new FrameSink(
      deps,
      {
        presented: (mediaMs) => this.onPresented(mediaMs),
        skipped: () => {
          this.s.droppedFrames++;
        },
        failed: (error) => this.onDecodeFailure(error),
      },
      options.playout,
    );
    video.muted = true;
    video.playsInline = true;
  }

  get state(): PlayerState {
    return this.delegate?.state ?? this.currentState;
  }

  get stats(): PlayerStats {
    return this.delegate?.stats ?? { ...this.s };
  }

  /** How long a frame waits for its time beyond the quickest path, ms: the measured allowance. */
  get latencyTargetMs(): number {
    return this.delegate?.latencyTargetMs ?? Math.round(this.sink.clock.allowanceMs());
  }

  /** The ship's link now, for the player the stream may go to (the jitter buffer measures the link itself). */
  setLink(link: LinkType | undefined): void {
    this.link = link;
    this.delegate?.setLink(link);
  }

  play(command: PlayerCommand): void {
    this.stop();
    if (command.mode !== 'live') {
      this.handOver(command, false);
      return;
    }
    this.command = command;
    this.s = emptyStats();
    this.attempt = 0;
    this.playCalledAt = performance.now();
    this.waitingSince = this.playCalledAt;
    this.startupReported = false;
    this.attachTrack();
    this.tickTimer = setInterval(() => this.tick(), TICK_MS);
    this.connect();
  }

  stop(): void {
    this.dropDelegate();
    clearInterval(this.tickTimer);
    clearTimeout(this.retryTimer);
    this.tickTimer = this.retryTimer = undefined;
    this.socket.drop(true);
    this.sink.reset();
    this.command = undefined;
    this.setState('idle');
  }

  destroy(): void {
    this.stop();
    this.sink.close();
    void this.writer?.close().catch(() => undefined);
    this.track?.stop();
    if (this.video.srcObject) this.video.srcObject = null;
    this.removeAllListeners();
  }

  continueWatching(): void {
    if (this.delegate) {
      this.delegate.continueWatching();
      return;
    }
    this.finalFromServer = false;
    if (this.socket.connected) this.socket.send({ type: 'continue' });
    else if (this.command) {
      clearTimeout(this.retryTimer);
      this.attempt = 0;
      this.connect();
    }
  }

  /**
   * Sound on: a stream with sound goes to an MsePlayer on the same <video> (the sound needs the
   * element's clock); off: back to frames painted here. A stream without sound stays here.
   */
  setSound(on: boolean): void {
    if (on === this.soundWanted) return;
    this.soundWanted = on;
    const command = this.command;
    if (on && this.streamHasSound && command && !this.delegate) {
      this.handOver(command, true);
    } else if (!on && this.delegate && command) {
      this.play(command);
    }
  }

  // ── the stream handed to an MsePlayer ─────────────────────────────────────────────────────────

  private handOver(command: PlayerCommand, sound: boolean): void {
    clearInterval(this.tickTimer);
    clearTimeout(this.retryTimer);
    this.tickTimer = this.retryTimer = undefined;
    this.socket.drop(true);
    this.sink.reset();
    this.dropDelegate();
    this.video.srcObject = null;
    // MsePlayer mutes its element (autoplay); the operator's choice stands.
    const muted = this.video.muted;
    const inner = new MsePlayer(this.video, { ...this.settings, link: this.link });
    this.video.muted = muted;
    const forward = <K extends keyof MsePlayerEventMap>(type: K) => inner.on(type, (payload) => this.emit(type, payload));
    this.delegateOff = (['state', 'error', 'status', 'notice', 'codec', 'reconnect', 'firstFrame', 'position'] as const).map((type) => forward(type));
    this.delegate = inner;
    if (command.mode === 'live') this.command = command;
    inner.setSound(sound);
    inner.play(command);
  }

  private dropDelegate(): void {
    const inner = this.delegate;
    if (!inner) return;
    for (const off of this.delegateOff) off();
    this.delegateOff = [];
    this.delegate = undefined;
    inner.destroy();
    this.video.removeAttribute('src');
    this.video.load();
  }

  // ── socket ────────────────────────────────────────────────────────────────────────────────────

  private connect(): void {
    const command = this.command;
    if (!command) return;
    this.retryTimer = undefined;
    this.finalFromServer = this.serverHold = false;
    this.sessionFrames = false;
    this.startupGraceMs = 0;
    this.lastBytesAt = this.lastProgressAt = performance.now();
    this.setState('connecting');
    this.socket.open({
      open: () => {
        this.socket.send(command);
        this.setState('starting');
      },
      text: (text) => this.onText(text),
      binary: (bytes) => this.onBinary(bytes),
      closed: () => {
        if (this.command && !this.finalFromServer) this.scheduleReconnect();
      },
    });
  }

  private scheduleReconnect(): void {
    clearTimeout(this.retryTimer);
    const delayMs = backoffDelay(this.attempt, this.settings.reconnect);
    this.attempt++;
    this.s.reconnects++;
    if (this.waitingSince === undefined) {
      this.waitingSince = performance.now();
      this.startupReported = false;
    }
    this.setState('reconnecting');
    this.emit('reconnect', { attempt: this.attempt, delayMs });
    this.retryTimer = setTimeout(() => this.connect(), delayMs);
  }

  private restart(): void {
    this.socket.drop(true);
    this.sink.reset();
    this.scheduleReconnect();
  }

  private onText(text: string): void {
    let msg: MediaServerMessage;
    try {
      msg = JSON.parse(text) as MediaServerMessage;
    } catch {
      return;
    }
    if (msg.type === 'codec') {
      this.emit('codec', msg);
      this.onCodec(msg);
      return;
    }
    if (msg.type === 'position') return;
    const effect = interpretServerMessage(msg, { framesShowing: this.sessionFrames });
    if (effect.final !== undefined) this.finalFromServer = effect.final;
    if (effect.hold !== undefined) this.serverHold = effect.hold;
    if (effect.startupGraceMs !== undefined) this.startupGraceMs = effect.startupGraceMs;
    if (effect.state) this.setState(effect.state);
    if (effect.error) this.fail(effect.error);
    if (msg.type === 'status') this.emit('status', msg);
    else if (msg.type === 'notice') this.emit('notice', msg);
  }

  private onCodec(codec: CodecInfo): void {
    this.streamHasSound = pictureOnlyMime(codec.mime) !== codec.mime;
    this.s.width = codec.width;
    this.s.height = codec.height;
    this.frameRateOfStream = codec.frameRate;
    if (this.streamHasSound && this.soundWanted && this.command) this.handOver(this.command, true);
  }

  private onBinary(bytes: Uint8Array<ArrayBuffer>): void {
    this.s.bytesReceived += bytes.byteLength;
    this.lastBytesAt = performance.now();
    try {
      if (isInitSegment(bytes)) {
        const setup = readVideoDecoderSetup(bytes);
        if (!setup) throw new Fmp4Error('unsupported', 'no H.264 or H.265 video track');
        this.setup = setup;
        this.produced.length = 0;
        this.sink.configure(setup);
        return;
      }
      const setup = this.setup;
      if (!setup) return;
      const samples = readTrackSamples(bytes, setup.trackId, setup.defaults);
      const produced = readProducerTime(bytes);
      const first = samples[0];
      if (produced && first) {
        notePresentation(this.produced, (first.presentationTime / setup.timescale) * 1000, produced.wallMs);
        if (this.produced.length > PRODUCED_KEPT) this.produced.shift();
      }
      this.sink.push(samples, setup.timescale);
    } catch (err) {
      this.onDecodeFailure(err instanceof Error ? err : new Error(String(err)));
    }
  }

  // ── frames ────────────────────────────────────────────────────────────────────────────────────

  private attachTrack(): void {
    const track = this.track;
    if (!track) return;
    const stream = this.video.srcObject as MediaStream | null;
    if (!stream || !stream.getVideoTracks().includes(track)) this.video.srcObject = new MediaStream([track]);
    void this.video.play()?.catch((err: unknown) => {
      if ((err as { name?: unknown } | null)?.name !== 'NotAllowedError') return;
      this.startupReported = true;
      this.fail({ kind: 'autoplay', message: 'The browser refused to start playback', cause: err });
    });
  }

  private onPresented(mediaMs: number): void {
    this.framesShown++;
    this.noteAge(mediaMs);
    const now = performance.now();
    this.lastProgressAt = now;
    if (!this.sessionFrames) {
      this.sessionFrames = true;
      if (this.s.firstFrameMs === undefined) {
        this.s.firstFrameMs = Math.round(now - this.playCalledAt);
        this.emit('firstFrame', { ms: this.s.firstFrameMs });
      }
      this.waitingSince = undefined;
      this.attempt = 0;
    }
    const state = this.currentState;
    if (state === 'connecting' || state === 'starting' || state === 'stalled' || state === 'reconnecting') this.setState('playing');
  }

  private noteAge(mediaMs: number): void {
    const halfFrame = 500 / (this.frameRateOfStream || 10);
    const list = this.produced;
    let i = 0;
    while (i < list.length && (list[i]?.[0] ?? 0) < mediaMs - halfFrame) i++;
    const hit = list[i];
    list.splice(0, i);
    if (!hit || Math.abs(hit[0] - mediaMs) > halfFrame) return;
    const ms = Date.now() - hit[1];
    if (ms < 0 || ms > MAX_BELIEVABLE_AGE_MS) return;
    this.ages.push({ ms, at: performance.now() });
    if (this.ages.length > AGE_SAMPLES) this.ages.shift();
  }

  private onDecodeFailure(error: Error): void {
    if (!this.command || this.failedSession === this.socket.session) return;
    this.failedSession = this.socket.session;
    const unsupported = error instanceof Fmp4Error && error.code === 'unsupported';
    this.fail({ kind: unsupported ? 'unsupported' : 'decode', message: error.message, cause: error });
    if (unsupported) {
      this.socket.drop(true);
      this.sink.reset();
      this.setState('error');
      return;
    }
    this.restart();
  }

  // ── watchdogs ─────────────────────────────────────────────────────────────────────────────────

  private tick(): void {
    const now = performance.now();
    const s = this.s;
    this.byteRate.add(now, s.bytesReceived);
    s.bitrateKbps = Math.round((this.byteRate.perSecond() * 8) / 1000);
    this.shownRate.add(now, this.framesShown);
    s.fps = Math.round(this.shownRate.perSecond() * 10) / 10;
    const buffered = this.sink.clock.bufferedMs();
    s.latencyMs = buffered === undefined ? undefined : Math.round(buffered);
    s.latencyTargetMs = this.latencyTargetMs;
    const recent = this.ages.filter((a) => now - a.at <= 2_000).map((a) => a.ms);
    const age = medianOf(recent);
    s.pictureAgeMs = age === undefined ? undefined : Math.round(age);
    if (this.settings.captureLatencyProbe) s.captureLatencyMs = this.settings.captureLatencyProbe(this.video);

    const state = this.currentState;
    if (state === 'playing' || state === 'stalled') {
      const verdict = stallVerdict({
        now,
        lastProgressAt: this.lastProgressAt,
        lastBytesAt: this.lastBytesAt,
        stallTimeoutMs: this.settings.stallTimeoutMs,
        silenceReconnectMs: this.settings.silenceReconnectMs,
      });
      if (verdict === 'reconnect' && !this.serverHold) {
        this.restart();
        return;
      }
      if (verdict !== 'ok' && state === 'playing') {
        this.setState('stalled');
        this.fail({ kind: 'stalled', message: `No picture for ${this.settings.stallTimeoutMs} ms` });
      }
    }
    const waiting = state === 'connecting' || state === 'starting' || state === 'reconnecting';
    const bound = this.settings.startupTimeoutMs + this.startupGraceMs;
    if (waiting && this.waitingSince !== undefined && !this.startupReported && now - this.waitingSince >= bound) {
      this.startupReported = true;
      this.fail({ kind: 'startup', message: `No picture within ${bound} ms` });
    }
  }

  private setState(state: PlayerState): void {
    const previous = this.currentState;
    if (previous === state) return;
    this.currentState = state;
    this.emit('state', { state, previous });
  }

  private fail(error: PlayerError): void {
    this.emit('error', error);
  }
}

/** The browser's WebCodecs decoder and timers, frames shown through `show`. */
function browserSinkDeps(show: (frame: VideoFrame) => void): FrameSinkDeps {
  return {
    createDecoder: (init) => new VideoDecoder(init),
    chunk: (init) => new EncodedVideoChunk(init),
    show,
    now: () => performance.now(),
    setTimer: (fn, ms) => setTimeout(fn, ms),
    clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
}
