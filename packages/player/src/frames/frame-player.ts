import type { DecoderPrefix, LinkType, PlayCommand } from '@ship-cctv/protocol';
import { Fmp4Error, isInitSegment, readProducerTime, readTrackSamples, readVideoDecoderSetup, type VideoDecoderSetup } from '@ship-cctv/media';
import { Emitter } from '../emitter.ts';
import { LiveSession, type TickReport } from '../live-session.ts';
import { MsePlayer } from '../mse-player.ts';
import { pictureOnlyMime } from '../sound-mime.ts';
import type { CodecInfo, MsePlayerEventMap, MsePlayerOptions, PlayerCommand, PlayerState, PlayerStats } from '../types.ts';
import { SlidingRate } from '../watchdog.ts';
import { PictureAge, watchComposited } from '../picture-age.ts';
import { stripUndefined } from '../stats.ts';
import { FrameSink, type FrameSinkDeps } from './frame-sink.ts';
import { webCodecsDecoders } from '../decoders.ts';
import type { PlayoutClockOptions } from './playout-clock.ts';

const DEFAULTS = { stallTimeoutMs: 4000, silenceReconnectMs: 15_000, startupTimeoutMs: 15_000 };

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
  /**
   * What this browser decodes, as the play says to the server. Default: asked of WebCodecs
   * (VideoDecoder.isConfigSupported) once per page.
   */
  decoders?: readonly DecoderPrefix[];
}

/** The page's WebCodecs answer, asked once (every cell's player shares it), and the answer once it came. */
let pageDecoders: Promise<DecoderPrefix[]> | undefined;
let pageDecodersKnown: DecoderPrefix[] | undefined;

/** What this page decodes: known at once without WebCodecs (H.264 only) or once asked; else the question under way. */
function askPageDecoders(): DecoderPrefix[] | Promise<DecoderPrefix[]> {
  if (pageDecodersKnown) return pageDecodersKnown;
  if (typeof (globalThis as { VideoDecoder?: unknown }).VideoDecoder !== 'function') return ['avc1'];
  pageDecoders ??= webCodecsDecoders().then((found) => (pageDecodersKnown = found));
  return pageDecoders;
}

/**
 * Live video decoded by the page itself (WebCodecs) and painted at each frame's time, for the
 * smallest delay that still plays evenly. The media socket, its commands and events, reconnects
 * and watchdogs are MsePlayer's (both drive a LiveSession); what differs is the way to the screen: no media element queue (which runs dry below ~200 ms in
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
  /** The media socket, the state machine, reconnects and the watchdogs. */
  private readonly session: LiveSession;
  private readonly sink: FrameSink;
  private readonly track: TrackGenerator | undefined;
  private readonly writer: WritableStreamDefaultWriter<VideoFrame> | undefined;
  private command: PlayCommand | undefined;
  /** What the plays say this browser decodes; undefined until WebCodecs answered. */
  private decoders: DecoderPrefix[] | undefined;
  private readonly decodersAsked: Promise<DecoderPrefix[]>;
  /** Counts plays: a play waiting for the decoders' answer goes only if no newer play or stop came. */
  private plays = 0;
  /** The player the stream went to for what this one does not do (sound, playback). */
  private delegate: MsePlayer | undefined;
  private delegateOff: Array<() => void> = [];
  private setup: VideoDecoderSetup | undefined;
  private link: LinkType | undefined;
  private soundWanted = false;
  private streamHasSound = false;
  private frameRateOfStream: number | undefined;
  private framesShown = 0;
  private readonly shownRate = new SlidingRate(2000);
  /** How old the frames shown are, from when they left the ship's encoder (stream ms). */
  private readonly age = new PictureAge();
  /** The <video>'s composited frames are watched (requestVideoFrameCallback), until destroy(). */
  private shownWatched = false;

  constructor(
    private readonly video: HTMLVideoElement,
    options: FramePlayerOptions,
  ) {
    super();
    this.settings = { ...DEFAULTS, ...stripUndefined(options) };
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
    this.link = options.link;
    const asked = options.decoders ? [...options.decoders] : askPageDecoders();
    if (Array.isArray(asked)) this.decoders = asked;
    this.decodersAsked = Promise.resolve(asked);
    void this.decodersAsked.then((found) => (this.decoders ??= found));
    this.session = new LiveSession(
      this.settings,
      video,
      {
        commandToSend: () => this.command && { ...this.command, decoders: this.decoders ?? ['avc1'] },
        codec: (codec) => this.onCodec(codec),
        binary: (bytes) => this.onBinary(bytes),
        restarting: () => this.sink.reset(),
        tick: (now) => this.tick(now),
      },
      (type, payload) => this.emit(type, payload),
    );
    video.muted = true;
    video.playsInline = true;
  }

  get state(): PlayerState {
    return this.delegate?.state ?? this.session.state;
  }

  get stats(): PlayerStats {
    return this.delegate?.stats ?? { ...this.s };
  }

  private get s(): PlayerStats {
    return this.session.stats;
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
    this.attachTrack();
    this.watchShown();
    if (this.decoders) return this.session.play();
    // The first play of the page waits for WebCodecs' answer (a few ms), so it says what it decodes.
    const play = this.plays;
    void this.decodersAsked.then(() => {
      if (play === this.plays && this.command === command) this.session.play();
    });
  }

  stop(): void {
    this.plays++;
    this.dropDelegate();
    this.session.end();
    this.sink.reset();
    this.command = undefined;
    this.session.setState('idle');
  }

  destroy(): void {
    this.stop();
    this.shownWatched = false;
    this.sink.close();
    void this.writer?.close().catch(() => undefined);
    this.track?.stop();
    if (this.video.srcObject) this.video.srcObject = null;
    this.removeAllListeners();
  }

  continueWatching(): void {
    if (this.delegate) this.delegate.continueWatching();
    else this.session.continueWatching();
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
    this.session.end();
    this.sink.reset();
    this.dropDelegate();
    this.video.srcObject = null;
    // MsePlayer mutes its element (autoplay); the operator's choice stands.
    const muted = this.video.muted;
    const inner = new MsePlayer(this.video, { ...this.settings, link: this.link });
    this.video.muted = muted;
    const forward = <K extends keyof MsePlayerEventMap>(type: K) => inner.on(type, (payload) => this.emit(type, payload));
    this.delegateOff = (['state', 'error', 'status', 'notice', 'codec', 'reconnect', 'firstFrame', 'position', 'continued'] as const).map((type) => forward(type));
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

  // ── stream ────────────────────────────────────────────────────────────────────────────────

  private onCodec(codec: CodecInfo): void {
    this.streamHasSound = pictureOnlyMime(codec.mime) !== codec.mime;
    this.s.width = codec.width;
    this.s.height = codec.height;
    this.frameRateOfStream = codec.frameRate;
    if (this.streamHasSound && this.soundWanted && this.command) this.handOver(this.command, true);
  }

  private onBinary(bytes: Uint8Array<ArrayBuffer>): void {
    try {
      if (isInitSegment(bytes)) {
        const setup = readVideoDecoderSetup(bytes);
        if (!setup) throw new Fmp4Error('unsupported', 'no H.264, H.265 or AV1 video track');
        this.setup = setup;
        this.age.newTimeline();
        this.sink.configure(setup);
        return;
      }
      const setup = this.setup;
      if (!setup) return;
      const samples = readTrackSamples(bytes, setup.trackId, setup.defaults);
      const produced = readProducerTime(bytes);
      const first = samples[0];
      if (produced && first) this.age.noteProduced((first.presentationTime / setup.timescale) * 1000, produced.wallMs);
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
    void this.video.play()?.catch((err: unknown) => this.session.playRefused(err));
  }

  /**
   * The frames the <video> composites (requestVideoFrameCallback: its media time is the frame's
   * timestamp, ours): the picture's age is read there, when it is on screen, not as it is handed to
   * the track — that is a compositor step earlier. Where the browser has no callback, as it is handed.
   */
  private watchShown(): void {
    const video = this.video;
    if (this.shownWatched) return;
    this.shownWatched = watchComposited(
      video,
      () => this.shownWatched,
      (mediaTime, shownAtMs) => {
        // Not while the stream went to an MsePlayer on the same element (its own player reads its age).
        if (!this.delegate) {
          this.age.noteShown(mediaTime * 1000, 500 / (this.frameRateOfStream || 10), shownAtMs);
        }
      },
    );
  }

  private onPresented(mediaMs: number): void {
    this.framesShown++;
    if (!this.shownWatched) this.age.noteShown(mediaMs, 500 / (this.frameRateOfStream || 10));
    // Frames the sink holds still show after the socket was lost.
    this.session.framesShown(performance.now(), true);
  }

  private onDecodeFailure(error: Error): void {
    // A decoder that said it takes AV1 or H.265 and then fails on it (a GPU driver's promise,
    // w3c/webcodecs #614): the stream comes again without that codec in the play, so the server
    // sends H.264.
    const failed = fallbackPrefixes(this.setup?.codec);
    if (failed.length > 0 && this.decoders?.some((d) => failed.includes(d))) {
      this.decoders = this.decoders.filter((d) => !failed.includes(d));
      this.sink.reset();
      this.session.reconnectNow(true);
      return;
    }
    const unsupported = error instanceof Fmp4Error && error.code === 'unsupported';
    if (!this.session.reportMediaFailure({ kind: unsupported ? 'unsupported' : 'decode', message: error.message, cause: error })) return;
    if (unsupported) {
      this.session.dropSocket();
      this.sink.reset();
      this.session.setState('error');
    } else {
      this.session.restart();
    }
  }

  // ── stats ─────────────────────────────────────────────────────────────────────────────────────

  /** The session's tick: what this player measures of the frames it showed. */
  private tick(now: number): TickReport {
    const s = this.s;
    this.shownRate.add(now, this.framesShown);
    s.fps = Math.round(this.shownRate.perSecond() * 10) / 10;
    const buffered = this.sink.clock.bufferedMs();
    s.latencyMs = buffered === undefined ? undefined : Math.round(buffered);
    s.latencyTargetMs = this.latencyTargetMs;
    s.pictureAgeMs = this.age.medianMs(now);
    return {};
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

/** The decoder prefixes a play leaves out after its decoder failed on a stream of this codec (none for H.264, the fallback itself). */
export function fallbackPrefixes(codec: string | undefined): DecoderPrefix[] {
  if (codec?.startsWith('av01')) return ['av01'];
  if (codec?.startsWith('hvc1') || codec?.startsWith('hev1')) return ['hvc1', 'hev1'];
  return [];
}
