import type { MediaClientMessage, MediaServerMessage, PlayCommand } from '@ship-cctv/protocol';
import { AppendQueue } from './append-queue.ts';
import { backoffDelay } from './backoff.ts';
import { Emitter } from './emitter.ts';
import { isInitSegment, readBaseDecodeTime, readTimescale } from './fmp4.ts';
import { decideLiveEdge, toRanges, trimRange } from './live-edge.ts';
import { interpretServerMessage } from './server-events.ts';
import type {
  CodecInfo,
  MediaSourceConstructor,
  MediaSourceLike,
  MsePlayerOptions,
  PlayerError,
  PlayerEventMap,
  PlayerState,
  PlayerStats,
  SocketConstructor,
  SocketLike,
} from './types.ts';
import { SlidingRate, stallVerdict } from './watchdog.ts';

const DEFAULTS = {
  liveLatencyTargetMs: 300,
  liveJumpMs: 3000,
  maxBufferSeconds: 20,
  stallTimeoutMs: 4000,
  silenceReconnectMs: 15_000,
  startupTimeoutMs: 15_000,
};
/** Catch-up, stats and the watchdogs run at this pace: fine enough for 1.5× catch-up, cheap. */
const TICK_MS = 250;
const TRIM_EVERY_MS = 2000;
const SOCKET_OPEN = 1;

type Settings = typeof DEFAULTS & MsePlayerOptions;

/**
 * Live H.264 over the media socket into Media Source Extensions. One instance per <video>; play()
 * may be called again with another camera. Errors are reported, not shown: the view decides.
 *
 * A stream is a run of "generations": each `codec` event (first play, definition change,
 * reconnect) starts one, and its first fragment is placed where the buffer ends, so the picture
 * carries on without a blank whatever timestamps the new encoder starts from.
 */
export class MsePlayer extends Emitter<PlayerEventMap> {
  private readonly settings: Settings;
  private readonly Socket: SocketConstructor;
  private readonly MediaSourceImpl: MediaSourceConstructor | undefined;
  private readonly queue: AppendQueue<SourceBuffer>;

  private currentState: PlayerState = 'idle';
  private s: PlayerStats = emptyStats();
  private command: PlayCommand | undefined;
  private socket: SocketLike | undefined;
  /** Increments per socket, so callbacks of an old one are ignored. */
  private session = 0;
  private media: { source: MediaSourceLike; mime: string; url: string } | undefined;
  private generation: { timescale: number | undefined; placed: boolean } | undefined;
  private tickTimer: ReturnType<typeof setInterval> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;

  private attempt = 0;
  private finalFromServer = false;
  private serverHold = false;
  /** video.play() was called for the current MediaSource. */
  private mediaStarted = false;
  /** A fragment of this session went to the buffer / a frame of it is on screen. */
  private sessionMedia = false;
  private sessionFrames = false;
  private frameWatchArmed = false;
  private failedSession = -1;

  private playCalledAt = 0;
  /** Since when a (first) frame is awaited; undefined while frames show. */
  private waitingSince: number | undefined;
  private startupGraceMs = 0;
  private startupReported = false;
  private lastBytesAt = 0;
  private lastProgressAt = 0;
  private lastCurrentTime = 0;
  private lastTrimAt = 0;
  private lastFrameTotal = 0;
  private readonly byteRate = new SlidingRate(2000);
  private readonly frameRate = new SlidingRate(2000);

  constructor(
    private readonly video: HTMLVideoElement,
    options: MsePlayerOptions,
  ) {
    super();
    this.settings = { ...DEFAULTS, ...stripUndefined(options) };
    this.Socket = options.WebSocketImpl ?? (globalThis.WebSocket as SocketConstructor);
    const managed = (globalThis as { ManagedMediaSource?: MediaSourceConstructor }).ManagedMediaSource;
    this.MediaSourceImpl = options.MediaSourceImpl ?? globalThis.MediaSource ?? managed;
    // Safari's ManagedMediaSource (iPhone) only streams when AirPlay is off for the element.
    if (!options.MediaSourceImpl && !globalThis.MediaSource && managed) video.disableRemotePlayback = true;
    this.queue = new AppendQueue<SourceBuffer>({
      onUpdateEnd: (sb) => this.onBuffered(sb),
      // Make room by dropping all but the last second behind the playhead; if there is none, the
      // queue waits for the next tick (the jump to the live edge will have moved the playhead).
      onQuotaExceeded: (sb) => trimRange(toRanges(sb.buffered), this.video.currentTime, 1, 0),
      onError: (err) => this.onMediaFailure(err),
    });
    // Browsers only autoplay muted video, and the streams carry no sound.
    video.muted = true;
    video.playsInline = true;
    video.addEventListener('error', this.onVideoError);
  }

  get state(): PlayerState {
    return this.currentState;
  }

  get stats(): PlayerStats {
    return { ...this.s };
  }

  /** Opens the media socket and plays `command`; again after a close, until stop(). */
  play(command: PlayCommand): void {
    this.stop();
    this.command = command;
    this.s = emptyStats();
    this.attempt = 0;
    this.playCalledAt = performance.now();
    this.waitingSince = this.playCalledAt;
    this.startupReported = false;
    this.tickTimer = setInterval(() => this.tick(), TICK_MS);
    this.connect();
  }

  stop(): void {
    clearInterval(this.tickTimer);
    clearTimeout(this.retryTimer);
    this.tickTimer = this.retryTimer = undefined;
    this.dropSocket(true);
    this.command = undefined;
    this.teardownMedia();
    this.setState('idle');
  }

  destroy(): void {
    this.stop();
    this.video.removeEventListener('error', this.onVideoError);
    this.removeAllListeners();
  }

  /** After the continuous-watching limit: carry on (on a new socket if the server closed it). */
  continueWatching(): void {
    this.finalFromServer = false;
    if (this.socket) {
      this.send({ type: 'continue' });
    } else if (this.command) {
      clearTimeout(this.retryTimer);
      this.attempt = 0;
      this.connect();
    }
  }

  // ── socket ────────────────────────────────────────────────────────────────────────────────────

  private connect(): void {
    const command = this.command;
    if (!command) return;
    this.retryTimer = undefined;
    const session = ++this.session;
    this.finalFromServer = this.serverHold = false;
    this.sessionMedia = this.sessionFrames = this.frameWatchArmed = false;
    this.startupGraceMs = 0;
    this.lastBytesAt = this.lastProgressAt = performance.now();
    this.setState('connecting');

    const socket = new this.Socket(this.socketUrl());
    socket.binaryType = 'arraybuffer';
    socket.onopen = () => {
      if (session !== this.session) return;
      socket.send(JSON.stringify(command));
      this.setState('starting');
    };
    socket.onmessage = (ev) => {
      if (session !== this.session) return;
      if (typeof ev.data === 'string') this.onText(ev.data);
      else if (ev.data instanceof ArrayBuffer) this.onBinary(new Uint8Array(ev.data));
    };
    // An error is always followed by a close; the close decides.
    socket.onclose = () => {
      if (session !== this.session) return;
      this.socket = undefined;
      if (this.command && !this.finalFromServer) this.scheduleReconnect();
    };
    this.socket = socket;
  }

  private socketUrl(): string {
    const url = new URL(this.settings.url, globalThis.location?.href);
    // A path such as PATHS.media resolves against the page; the socket wants ws(s).
    if (url.protocol === 'http:') url.protocol = 'ws:';
    if (url.protocol === 'https:') url.protocol = 'wss:';
    if (this.settings.token) url.searchParams.set('token', this.settings.token);
    return url.toString();
  }

  private send(message: MediaClientMessage): void {
    if (this.socket?.readyState === SOCKET_OPEN) this.socket.send(JSON.stringify(message));
  }

  /** Forget the socket without reconnecting; with `stop`, tell the server first. */
  private dropSocket(stop: boolean): void {
    const socket = this.socket;
    if (!socket) return;
    if (stop) this.send({ type: 'stop' });
    this.socket = undefined;
    this.session++;
    socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
    socket.close();
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

  /** The socket looks dead or the media pipeline broke: start over on a new socket. */
  private restart(): void {
    this.dropSocket(true);
    this.scheduleReconnect();
  }

  // ── server messages ───────────────────────────────────────────────────────────────────────────

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
    const MediaSourceImpl = this.MediaSourceImpl;
    if (!MediaSourceImpl?.isTypeSupported(codec.mime)) {
      this.fail({ kind: 'unsupported', message: `This browser cannot play ${codec.mime}` });
      this.dropSocket(true);
      this.teardownMedia();
      this.setState('error');
      return;
    }
    this.s.width = codec.width;
    this.s.height = codec.height;
    const sb = this.queue.attached;
    const media = this.media;
    if (media && sb && media.source.readyState === 'open' && !this.video.error && typeof sb.changeType === 'function') {
      // Definition change or reconnect: keep the picture and switch the decoder in order with
      // the appends (the old fragments still queued must go in under the old codec).
      if (codec.mime !== media.mime) {
        const mime = codec.mime;
        this.queue.run((b) => b.changeType(mime));
        media.mime = mime;
      }
    } else {
      // First codec, or no changeType (older browsers): a fresh MediaSource, at the cost of a blank.
      this.openMedia(MediaSourceImpl, codec.mime);
    }
    this.generation = { timescale: undefined, placed: false };
  }

  private onBinary(bytes: Uint8Array<ArrayBuffer>): void {
    this.s.bytesReceived += bytes.byteLength;
    this.lastBytesAt = performance.now();
    const generation = this.generation;
    // Media before a codec event breaks the protocol; nothing could decode it.
    if (!generation || !this.media) return;
    if (isInitSegment(bytes)) {
      generation.timescale = readTimescale(bytes);
      generation.placed = false;
    } else if (!generation.placed) {
      generation.placed = true;
      const base = readBaseDecodeTime(bytes);
      const timescale = generation.timescale;
      if (base !== undefined && timescale) {
        // Place the new generation where the buffer ends (0 in a fresh MediaSource). Done when
        // the queue reaches it, because only then is the end of the earlier appends known.
        this.queue.run((sb) => {
          sb.timestampOffset = (toRanges(sb.buffered).at(-1)?.[1] ?? 0) - base / timescale;
        });
      }
      this.sessionMedia = true;
    }
    this.queue.append(bytes);
  }

  // ── media ─────────────────────────────────────────────────────────────────────────────────────

  private openMedia(MediaSourceImpl: MediaSourceConstructor, mime: string): void {
    this.teardownMedia();
    const source = new MediaSourceImpl();
    const url = URL.createObjectURL(source as unknown as MediaSource);
    this.media = { source, mime, url };
    source.addEventListener(
      'sourceopen',
      () => {
        if (this.media?.source !== source) return;
        URL.revokeObjectURL(url);
        try {
          const sb = source.addSourceBuffer(this.media.mime);
          sb.mode = 'segments';
          this.queue.attach(sb);
        } catch (err) {
          this.onMediaFailure(err);
        }
      },
      { once: true },
    );
    this.video.src = url;
  }

  private teardownMedia(): void {
    this.queue.detach();
    this.generation = undefined;
    this.mediaStarted = false;
    this.frameRate.reset();
    this.lastFrameTotal = 0;
    const media = this.media;
    if (!media) return;
    this.media = undefined;
    URL.revokeObjectURL(media.url);
    // load() without a src empties the element without the error event that src = '' raises.
    this.video.removeAttribute('src');
    this.video.load();
  }

  /** After each append or remove: start playback on the first media, watch for the first frame. */
  private onBuffered(sb: SourceBuffer): void {
    if (!this.mediaStarted && sb.buffered.length > 0) this.startPlayback(sb);
    if (this.sessionMedia && !this.sessionFrames && !this.frameWatchArmed) {
      this.frameWatchArmed = true;
      const session = this.session;
      // Fires when the frame is composited: the most exact "first frame" a page can see. Without
      // it, the tick notices progress instead.
      this.video.requestVideoFrameCallback?.(() => {
        if (session === this.session) this.noteFrames();
      });
    }
  }

  private startPlayback(sb: SourceBuffer): void {
    this.mediaStarted = true;
    const video = this.video;
    const decision = decideLiveEdge({
      currentTime: video.currentTime,
      ranges: toRanges(sb.buffered),
      targetSec: this.settings.liveLatencyTargetMs / 1000,
      jumpSec: this.settings.liveJumpMs / 1000,
    });
    if (decision.seekTo !== undefined) video.currentTime = decision.seekTo;
    Promise.resolve()
      .then(() => video.play())
      .catch((err: unknown) => {
        // AbortError only means the source was replaced meanwhile.
        if ((err as { name?: unknown } | null)?.name !== 'NotAllowedError') return;
        // The view now knows why no picture comes; a user gesture calling video.play() resumes,
        // and the tick notices the progress. No `startup` on top.
        this.startupReported = true;
        this.fail({ kind: 'autoplay', message: 'The browser refused to start playback', cause: err });
      });
  }

  private readonly onVideoError = (): void => {
    const error = this.video.error;
    if (!this.media || !error) return;
    this.onMediaFailure(new Error(`Media error ${error.code}: ${error.message}`));
  };

  /** A decode or SourceBuffer failure: report once per session, then start afresh from a keyframe. */
  private onMediaFailure(err: unknown): void {
    if (!this.command || this.failedSession === this.session) return;
    this.failedSession = this.session;
    this.fail({ kind: 'decode', message: err instanceof Error ? err.message : String(err), cause: err });
    this.teardownMedia();
    this.restart();
  }

  // ── watchdogs ─────────────────────────────────────────────────────────────────────────────────

  private tick(): void {
    const now = performance.now();
    const video = this.video;
    const settings = this.settings;

    this.byteRate.add(now, this.s.bytesReceived);
    this.s.bitrateKbps = Math.round((this.byteRate.perSecond() * 8) / 1000);
    const quality = video.getVideoPlaybackQuality?.();
    if (quality) {
      // The counters restart with a new MediaSource.
      if (quality.totalVideoFrames < this.lastFrameTotal) this.frameRate.reset();
      this.lastFrameTotal = quality.totalVideoFrames;
      this.frameRate.add(now, quality.totalVideoFrames);
      this.s.fps = Math.round(this.frameRate.perSecond() * 10) / 10;
      this.s.droppedFrames = quality.droppedVideoFrames;
    }

    const progressed = !video.paused && Math.abs(video.currentTime - this.lastCurrentTime) > 0.001;
    this.lastCurrentTime = video.currentTime;
    if (progressed) this.lastProgressAt = now;

    const sb = this.queue.attached;
    const ranges = sb && this.media?.source.readyState === 'open' ? toRanges(sb.buffered) : [];
    if (this.mediaStarted && ranges.length > 0) {
      const decision = decideLiveEdge({
        currentTime: video.currentTime,
        ranges,
        targetSec: settings.liveLatencyTargetMs / 1000,
        jumpSec: settings.liveJumpMs / 1000,
      });
      if (decision.seekTo !== undefined && !video.seeking) video.currentTime = decision.seekTo;
      if (video.playbackRate !== decision.playbackRate) video.playbackRate = decision.playbackRate;
      this.s.latencyMs = decision.latencySec === undefined ? undefined : Math.round(decision.latencySec * 1000);
      if (now - this.lastTrimAt >= TRIM_EVERY_MS) {
        this.lastTrimAt = now;
        const cut = trimRange(ranges, video.currentTime, settings.maxBufferSeconds);
        if (cut) this.queue.remove(cut[0], cut[1]);
      }
    } else {
      this.s.latencyMs = undefined;
    }
    this.s.playbackRate = video.playbackRate;
    // Retries an append that met a full buffer.
    this.queue.pump();

    const state = this.currentState;
    const bytesFresh = now - this.lastBytesAt < settings.stallTimeoutMs;
    if (progressed && bytesFresh && (state === 'starting' || state === 'stalled')) {
      this.noteFrames();
    } else if (state === 'playing' || state === 'stalled') {
      const verdict = stallVerdict({
        now,
        lastProgressAt: this.lastProgressAt,
        lastBytesAt: this.lastBytesAt,
        stallTimeoutMs: settings.stallTimeoutMs,
        silenceReconnectMs: settings.silenceReconnectMs,
      });
      if (verdict === 'reconnect' && !this.serverHold) {
        this.restart();
        return;
      }
      if (verdict !== 'ok' && state === 'playing') {
        this.setState('stalled');
        this.fail({ kind: 'stalled', message: `No picture for ${settings.stallTimeoutMs} ms` });
      }
    }

    const waiting = state === 'connecting' || state === 'starting' || state === 'reconnecting';
    const bound = settings.startupTimeoutMs + this.startupGraceMs;
    if (waiting && this.waitingSince !== undefined && !this.startupReported && now - this.waitingSince >= bound) {
      this.startupReported = true;
      this.fail({ kind: 'startup', message: `No picture within ${bound} ms` });
    }

    if (settings.captureLatencyProbe) this.s.captureLatencyMs = settings.captureLatencyProbe(video);
  }

  /** Frames of the current session are on screen. */
  private noteFrames(): void {
    if (this.video.paused || !this.command) return;
    const now = performance.now();
    if (this.s.firstFrameMs === undefined) {
      this.s.firstFrameMs = Math.round(now - this.playCalledAt);
      this.emit('firstFrame', { ms: this.s.firstFrameMs });
    }
    this.sessionFrames = true;
    this.waitingSince = undefined;
    this.attempt = 0;
    this.lastProgressAt = now;
    const state = this.currentState;
    if (state === 'connecting' || state === 'starting' || state === 'stalled') this.setState('playing');
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

function emptyStats(): PlayerStats {
  return {
    latencyMs: undefined,
    bitrateKbps: 0,
    fps: 0,
    bytesReceived: 0,
    droppedFrames: 0,
    firstFrameMs: undefined,
    captureLatencyMs: undefined,
    playbackRate: 1,
    reconnects: 0,
    width: undefined,
    height: undefined,
  };
}

/** So an explicit `undefined` option does not override a default. */
function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
