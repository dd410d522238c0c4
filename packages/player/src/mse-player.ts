import type { LinkType, MediaClientMessage, MediaServerMessage, PlaybackSpeed } from '@ship-cctv/protocol';
import { MediaSocket, mediaSocketUrl } from './media-socket.ts';
import { MediaSurface } from './media-surface.ts';
import { backoffDelay } from '@ship-cctv/protocol';
import { Emitter } from './emitter.ts';
import { isInitSegment, readBaseDecodeTime, readVideoTrack } from '@ship-cctv/media';
import { frameDurationMs, latencyTargetMs, type LatencyTarget } from './latency-target.ts';
import { decideLiveEdge, toRanges, trimRange } from './live-edge.ts';
import { bufferedAhead, decidePlaybackHead, landingFor, shownRecordedTime } from './playback-head.ts';
import { interpretServerMessage } from './server-events.ts';
import type {
  CodecInfo,
  MediaSourceLike,
  MsePlayerEventMap,
  MsePlayerOptions,
  PlaybackPosition,
  PlayerCommand,
  PlayerError,
  PlayerState,
  PlayerStats,
  SocketConstructor,
} from './types.ts';
import { SlidingRate, stallVerdict } from './watchdog.ts';

const DEFAULTS = {
  liveLatencyTargetMs: 'auto' as LatencyTarget,
  liveJumpMs: 1000,
  maxBufferSeconds: 20,
  stallTimeoutMs: 4000,
  silenceReconnectMs: 15_000,
  startupTimeoutMs: 15_000,
};
/** Catch-up, stats and the watchdogs run at this pace: fine enough for a 1.1× catch-up, cheap. */
const TICK_MS = 250;
const TRIM_EVERY_MS = 2000;
/** Frames over which the arrival latency is taken (the median): a second at 10 fps. */
const ARRIVAL_SAMPLES = 10;
/** HTMLMediaElement.HAVE_FUTURE_DATA: below it, the element waits for data at the playhead. */
const HAVE_FUTURE_DATA = 3;

type Settings = typeof DEFAULTS & MsePlayerOptions;

/** Below this much media ahead of the playhead, a playback the server said was done has ended. */
const PLAYBACK_END_AHEAD_SEC = 0.25;
/** After a seek or speed change, positions of the old stream may still be on their way for this long. */
const STALE_POSITION_MS = 5000;

/** What a ship-end playback adds to a stream (absent for live). */
interface PlaybackRun {
  /** The last position, and where the buffer ended when it came (see shownRecordedTime). */
  position: (PlaybackPosition & { mediaEnd: number | undefined }) | undefined;
  paused: boolean;
  /** A seek or speed change was sent (at `changedAt`): the next init segment starts media to jump to. */
  jumpPending: boolean;
  changedAt: number;
  /** Where that media was placed: the playhead moves there once it is buffered. */
  jumpTo: number | undefined;
  /** The server said the range is done: `ended` once the buffer has played out. */
  endPending: boolean;
}

/**
 * Live H.264 over the media socket into Media Source Extensions. One instance per <video>; play()
 * may be called again with another camera. Errors are reported, not shown: the view decides.
 *
 * A stream is a run of "generations": each `codec` event (first play, definition change,
 * reconnect) starts one, and its first fragment is placed where the buffer ends, so the picture
 * carries on without a blank whatever timestamps the new encoder starts from.
 */
export class MsePlayer extends Emitter<MsePlayerEventMap> {
  private readonly settings: Settings;
  /** The media socket: one at a time, each a session. */
  private readonly socket: MediaSocket;
  /** The MSE core: MediaSource, SourceBuffer and its append queue. */
  private readonly surface: MediaSurface;

  private currentState: PlayerState = 'idle';
  private s: PlayerStats = emptyStats();
  private command: PlayerCommand | undefined;
  private playback: PlaybackRun | undefined;
  private generation: { video: { trackId: number; timescale: number } | undefined; placed: boolean; jump: boolean } | undefined;
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
  /** Live: end of the buffer − currentTime just after each of the last frames was appended. */
  private readonly arrivalLatencies: number[] = [];
  private lastBufferEnd = 0;
  /** Since when the element's clock stands still although it should play; undefined while it plays. */
  private stuckSince: number | undefined;
  /** Live: the frame on screen lately (requestVideoFrameCallback), and when it showed. */
  private presented: { mediaTime: number; at: number } | undefined;
  private presentedWatch: MediaSourceLike | undefined;
  /** The stream's frame rate (from `codec`) and the ship's link: what an `auto` latency target follows. */
  private streamFrameRate: number | undefined;
  private link: LinkType | undefined;
  private readonly byteRate = new SlidingRate(2000);
  private readonly frameRate = new SlidingRate(2000);

  constructor(
    private readonly video: HTMLVideoElement,
    options: MsePlayerOptions,
  ) {
    super();
    this.settings = { ...DEFAULTS, ...stripUndefined(options) };
    this.link = options.link;
    this.socket = new MediaSocket(options.WebSocketImpl ?? (globalThis.WebSocket as SocketConstructor), () => mediaSocketUrl(this.settings.url, this.settings.token));
    this.surface = new MediaSurface(
      video,
      {
        onBuffered: (sb) => this.onBuffered(sb),
        // Make room by dropping all but the last second behind the playhead; if there is none, the
        // queue waits for the next tick (the jump to the live edge will have moved the playhead).
        onQuotaExceeded: (sb) => trimRange(toRanges(sb.buffered), this.video.currentTime, 1, 0),
        onError: (err) => this.onMediaFailure(err),
      },
      { MediaSourceImpl: options.MediaSourceImpl },
    );
    // Browsers only autoplay muted video; a stream's sound plays once the user unmutes.
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

  /**
   * The ship's link now (from its status), for an `auto` latency target: a steady link (4G, LEO)
   * holds about a frame and a half, a satellite link 300 ms. Takes effect at once, without a restart.
   */
  setLink(link: LinkType | undefined): void {
    this.link = link;
  }

  /** The live latency the catch-up aims for now, ms. */
  get latencyTargetMs(): number {
    return latencyTargetMs(this.settings.liveLatencyTargetMs, this.streamFrameRate, this.link);
  }

  /** Opens the media socket and plays `command` (live or ship-end playback); again after a close, until stop(). */
  play(command: PlayerCommand): void {
    this.stop();
    this.command = command;
    if (command.mode === 'shipPlayback') {
      this.playback = { position: undefined, paused: false, jumpPending: false, changedAt: 0, jumpTo: undefined, endPending: false };
    }
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
    this.playback = undefined;
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
    if (this.socket.connected) {
      this.send({ type: 'continue' });
    } else if (this.command) {
      clearTimeout(this.retryTimer);
      this.attempt = 0;
      this.connect();
    }
  }

  // ── ship-end playback ─────────────────────────────────────────────────────────────────────────

  /** Ship-end playback: the operator paused it (the state stays `playing`: nothing is wrong). */
  get paused(): boolean {
    return this.playback?.paused ?? false;
  }

  /** Ship-end playback: the last position (server's, or a seek's target); undefined for live. */
  get position(): PlaybackPosition | undefined {
    const position = this.playback?.position;
    return position ? { time: position.time, speed: position.speed, paused: position.paused } : undefined;
  }

  /** Ship-end playback: the recorded time of the frame on screen, estimated from the last position. */
  recordedTime(): number | undefined {
    const position = this.playback?.position;
    const command = this.command;
    if (!position || command?.mode !== 'shipPlayback') return undefined;
    return shownRecordedTime(position, this.video.currentTime, command);
  }

  /** Ship-end playback: hold the picture and ask the ship to stop sending. */
  pause(): void {
    const run = this.playback;
    if (!run || run.paused) return;
    run.paused = true;
    this.send({ type: 'pause' });
    this.video.pause();
    this.notePosition({ paused: true });
  }

  resume(): void {
    const run = this.playback;
    if (!run?.paused) return;
    run.paused = false;
    this.lastProgressAt = this.lastBytesAt = performance.now();
    this.send({ type: 'resume' });
    if (this.mediaStarted) void this.video.play().catch(() => undefined);
    this.notePosition({ paused: false });
  }

  /**
   * Ship-end playback: jump to a recorded time inside the range. The server answers with a new
   * codec and init segment; the playhead moves to that media as soon as it is buffered. After the
   * end (or without a socket) the playback starts again from `time`.
   */
  seek(time: number): void {
    const command = this.command;
    const run = this.playback;
    if (!run || command?.mode !== 'shipPlayback') return;
    const target = Math.min(Math.max(Math.round(time), command.start), command.end - 1);
    run.endPending = false;
    this.notePosition({ time: target, mediaEnd: undefined });
    this.changeRun({ type: 'seek', time: target });
  }

  /** Ship-end playback: another speed from the recorded time on screen; new codec and init follow. */
  setSpeed(speed: PlaybackSpeed): void {
    const command = this.command;
    const run = this.playback;
    if (!run || command?.mode !== 'shipPlayback' || command.speed === speed) return;
    this.command = { ...command, speed };
    this.notePosition({ time: this.recordedTime() ?? command.start, speed, mediaEnd: undefined });
    this.changeRun({ type: 'speed', speed });
  }

  /** Sends a seek or speed change on the running socket, or starts afresh where there is none. */
  private changeRun(message: Extract<MediaClientMessage, { type: 'seek' | 'speed' }>): void {
    const run = this.playback;
    if (!run) return;
    run.jumpPending = true;
    run.changedAt = performance.now();
    run.jumpTo = undefined;
    if (this.socket.isOpen && !this.finalFromServer) {
      this.send(message);
      return;
    }
    // Ended, stopped by an error, or between reconnects: a new play from the position.
    this.dropSocket(true);
    clearTimeout(this.retryTimer);
    this.attempt = 0;
    this.waitingSince ??= performance.now();
    this.connect();
  }

  private notePosition(change: Partial<PlaybackPosition & { mediaEnd: number | undefined }>): void {
    const run = this.playback;
    const command = this.command;
    if (!run || command?.mode !== 'shipPlayback') return;
    const base = run.position ?? { time: command.start, speed: command.speed, paused: run.paused, mediaEnd: undefined };
    run.position = { ...base, paused: run.paused, ...change };
    this.emit('position', { time: run.position.time, speed: run.position.speed, paused: run.position.paused });
  }

  /**
   * The command for a new socket. A playback resumes where it was (a reconnect, or Continue after
   * the watching limit): the same range from the last known position, at the current speed.
   */
  private commandToSend(): PlayerCommand | undefined {
    const command = this.command;
    const position = this.playback?.position;
    if (command?.mode !== 'shipPlayback' || !position || position.time <= command.start) return command;
    return { ...command, start: Math.min(Math.floor(position.time), command.end - 1) };
  }

  // ── socket ────────────────────────────────────────────────────────────────────────────────────

  private connect(): void {
    const command = this.commandToSend();
    if (!command) return;
    this.retryTimer = undefined;
    this.finalFromServer = this.serverHold = false;
    this.sessionMedia = this.sessionFrames = this.frameWatchArmed = false;
    this.startupGraceMs = 0;
    this.lastBytesAt = this.lastProgressAt = performance.now();
    this.setState('connecting');
    this.socket.open({
      open: () => {
        this.send(command);
        if (this.playback?.paused) this.send({ type: 'pause' });
        this.setState('starting');
      },
      text: (text) => this.onText(text),
      binary: (bytes) => this.onBinary(bytes),
      closed: () => {
        if (this.command && !this.finalFromServer) this.scheduleReconnect();
      },
    });
  }

  private send(message: MediaClientMessage): void {
    this.socket.send(message);
  }

  /** Forget the socket without reconnecting; with `stop`, tell the server first. */
  private dropSocket(stop: boolean): void {
    this.socket.drop(stop);
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
    if (msg.type === 'position') {
      this.onPosition(msg);
      return;
    }
    const effect = interpretServerMessage(msg, { framesShowing: this.sessionFrames });
    if (effect.final !== undefined) this.finalFromServer = effect.final;
    if (effect.hold !== undefined) this.serverHold = effect.hold;
    if (effect.startupGraceMs !== undefined) this.startupGraceMs = effect.startupGraceMs;
    if (effect.state === 'ended' && this.playback) {
      // The ship has sent the whole range; what is buffered still has to play (see followPlayback).
      this.playback.endPending = true;
    } else if (effect.state) this.setState(effect.state);
    if (effect.error) this.fail(effect.error);
    if (msg.type === 'status') this.emit('status', msg);
    else if (msg.type === 'notice') this.emit('notice', msg);
  }

  private onPosition(msg: Extract<MediaServerMessage, { type: 'position' }>): void {
    const run = this.playback;
    if (!run) return;
    // Positions sent before the server took a seek or speed change would pull the time back.
    const changing = run.jumpPending || run.jumpTo !== undefined;
    if (changing && performance.now() - run.changedAt < STALE_POSITION_MS) return;
    const ranges = this.surface.ranges();
    this.notePosition({ time: msg.time, speed: msg.speed, mediaEnd: ranges.at(-1)?.[1] });
  }

  private onCodec(codec: CodecInfo): void {
    if (!this.surface.supports(codec.mime)) {
      this.fail({ kind: 'unsupported', message: `This browser cannot play ${codec.mime}` });
      this.dropSocket(true);
      this.teardownMedia();
      this.setState('error');
      return;
    }
    this.s.width = codec.width;
    this.s.height = codec.height;
    this.streamFrameRate = codec.frameRate;
    // Definition change or reconnect: the decoder switches in place and the picture stays; first
    // codec, or no changeType (older browsers): a fresh MediaSource, at the cost of a blank.
    if (this.surface.use(codec.mime) === 'opened') this.resetMediaState();
    this.generation = { video: undefined, placed: false, jump: false };
  }

  private onBinary(bytes: Uint8Array<ArrayBuffer>): void {
    this.s.bytesReceived += bytes.byteLength;
    this.lastBytesAt = performance.now();
    const generation = this.generation;
    // Media before a codec event breaks the protocol; nothing could decode it.
    if (!generation || !this.surface.source) return;
    if (isInitSegment(bytes)) {
      generation.video = readVideoTrack(bytes);
      generation.placed = false;
      // A playback's new init after a seek or speed change: its media replaces what is buffered.
      if (this.playback?.jumpPending) {
        this.playback.jumpPending = false;
        generation.jump = true;
      }
    } else if (!generation.placed) {
      generation.placed = true;
      // Placed by its video; sound in the same fragments moves with it (one timestampOffset).
      const video = generation.video;
      const base = video && readBaseDecodeTime(bytes, video.trackId);
      const timescale = video?.timescale;
      if (base !== undefined && timescale) {
        // Place the new generation where the buffer ends (0 in a fresh MediaSource). Done when
        // the queue reaches it, because only then is the end of the earlier appends known.
        const jump = generation.jump;
        this.surface.run((sb) => {
          const at = toRanges(sb.buffered).at(-1)?.[1] ?? 0;
          sb.timestampOffset = at - base / timescale;
          if (jump && this.playback) this.playback.jumpTo = at;
        });
      }
      this.sessionMedia = true;
    }
    this.surface.append(bytes);
  }

  // ── media ─────────────────────────────────────────────────────────────────────────────────────

  /** A fresh MediaSource (or none): what the player knew of the old one's playback starts over. */
  private resetMediaState(): void {
    this.generation = undefined;
    this.mediaStarted = false;
    this.frameRate.reset();
    this.lastFrameTotal = 0;
    this.arrivalLatencies.length = 0;
    this.lastBufferEnd = 0;
    this.stuckSince = undefined;
    this.presented = this.presentedWatch = undefined;
  }

  private teardownMedia(): void {
    this.surface.teardown();
    this.resetMediaState();
  }

  /** After each append or remove: start playback on the first media, watch for the first frame. */
  private onBuffered(sb: SourceBuffer): void {
    if (!this.playback && this.mediaStarted) this.noteArrival(toRanges(sb.buffered).at(-1)?.[1]);
    const jumpTo = this.playback?.jumpTo;
    const landing = jumpTo === undefined ? undefined : landingFor(jumpTo, toRanges(sb.buffered));
    if (landing !== undefined && this.playback) {
      this.playback.jumpTo = undefined;
      this.video.currentTime = landing;
    }
    if (!this.mediaStarted && sb.buffered.length > 0) this.startPlayback(sb);
    if (this.sessionMedia && !this.sessionFrames && !this.frameWatchArmed) {
      this.frameWatchArmed = true;
      const session = this.socket.session;
      // Fires when the frame is composited: the most exact "first frame" a page can see. Without
      // it, the tick notices progress instead.
      this.video.requestVideoFrameCallback?.(() => {
        if (session === this.socket.session) this.noteFrames();
      });
    }
  }

  /** After an append that moved the end of the buffer: how far the playhead is from it now. */
  private noteArrival(end: number | undefined): void {
    if (end === undefined || end <= this.lastBufferEnd) return;
    this.lastBufferEnd = end;
    const list = this.arrivalLatencies;
    list.push(end - this.playhead(performance.now()));
    if (list.length > ARRIVAL_SAMPLES) list.shift();
  }

  /**
   * Live: note the media time of each frame shown, for as long as this MediaSource lives. The
   * frame on screen tells where the picture is when currentTime does not (see decideLiveEdge).
   */
  private watchPresented(): void {
    const video = this.video;
    const source = this.surface.source;
    if (!source || this.presentedWatch === source || typeof video.requestVideoFrameCallback !== 'function') return;
    this.presentedWatch = source;
    const onFrame = (_now: number, meta: VideoFrameCallbackMetadata): void => {
      if (this.presentedWatch !== source || this.playback) return;
      this.presented = { mediaTime: meta.mediaTime, at: performance.now() };
      video.requestVideoFrameCallback(onFrame);
    };
    video.requestVideoFrameCallback(onFrame);
  }

  /** The frame on screen, if one showed within the last two frame durations (and a bit). */
  private presentedTime(now: number): number | undefined {
    const p = this.presented;
    const freshMs = 2 * frameDurationMs(this.streamFrameRate) + 50;
    return p && now - p.at <= freshMs ? p.mediaTime : undefined;
  }

  /** Where the picture is: currentTime, or the frame on screen when that is ahead. */
  private playhead(now: number): number {
    return Math.max(this.video.currentTime, this.presentedTime(now) ?? 0);
  }

  private startPlayback(sb: SourceBuffer): void {
    this.mediaStarted = true;
    const video = this.video;
    if (this.playback) {
      const seekTo = decidePlaybackHead(video.currentTime, toRanges(sb.buffered));
      if (seekTo !== undefined) video.currentTime = seekTo;
      // Paused before the first picture: resume() starts it.
      if (this.playback.paused) return;
    } else {
      const decision = decideLiveEdge({
        currentTime: video.currentTime,
        ranges: toRanges(sb.buffered),
        targetSec: this.latencyTargetMs / 1000,
        jumpSec: this.settings.liveJumpMs / 1000,
      });
      if (decision.seekTo !== undefined) video.currentTime = decision.seekTo;
      this.watchPresented();
    }
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
    if (!this.surface.source || !error) return;
    this.onMediaFailure(new Error(`Media error ${error.code}: ${error.message}`));
  };

  /** A decode or SourceBuffer failure: report once per session, then start afresh from a keyframe. */
  private onMediaFailure(err: unknown): void {
    if (!this.command || this.failedSession === this.socket.session) return;
    this.failedSession = this.socket.session;
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
    // Frames showing count as progress too (a live picture whose clock stands still, see decideLiveEdge).
    if (progressed || (!this.playback && this.presentedTime(now) !== undefined)) this.lastProgressAt = now;
    // A paused playback shows no progress and gets no bytes on purpose: not a stall, not silence.
    const userPaused = this.playback?.paused ?? false;
    if (userPaused) this.lastProgressAt = this.lastBytesAt = now;

    const ranges = this.surface.ranges();
    if (this.playback) {
      this.followPlayback(ranges, now);
    } else if (this.mediaStarted && ranges.length > 0) {
      // Waiting for the next frame (or a clock that stood still since the last tick): not behind.
      const starved = !video.paused && (video.readyState < HAVE_FUTURE_DATA || !progressed);
      const presentedTime = this.presentedTime(now);
      if (!starved || video.seeking) this.stuckSince = undefined;
      else this.stuckSince ??= now;
      const decision = decideLiveEdge({
        currentTime: video.currentTime,
        presentedTime,
        ranges,
        targetSec: this.latencyTargetMs / 1000,
        arrivalLatencySec: medianOf(this.arrivalLatencies),
        jumpSec: settings.liveJumpMs / 1000,
        starved,
        stuckSec: this.stuckSince === undefined ? 0 : (now - this.stuckSince) / 1000,
        currentRate: video.playbackRate,
        frameSec: frameDurationMs(this.streamFrameRate) / 1000,
      });
      if (decision.seekTo !== undefined && !video.seeking) {
        video.currentTime = decision.seekTo;
        // Measured before the seek: no longer true.
        this.arrivalLatencies.length = 0;
        this.stuckSince = undefined;
      }
      if (video.playbackRate !== decision.playbackRate) video.playbackRate = decision.playbackRate;
      const latencySec = medianOf(this.arrivalLatencies) ?? decision.latencySec;
      this.s.latencyMs = latencySec === undefined ? undefined : Math.round(latencySec * 1000);
      if (now - this.lastTrimAt >= TRIM_EVERY_MS) {
        this.lastTrimAt = now;
        const cut = trimRange(ranges, video.currentTime, settings.maxBufferSeconds);
        if (cut) this.surface.remove(cut[0], cut[1]);
      }
    } else {
      this.s.latencyMs = undefined;
    }
    this.s.playbackRate = video.playbackRate;
    this.s.latencyTargetMs = this.playback ? undefined : this.latencyTargetMs;
    // Retries an append that met a full buffer.
    this.surface.queue.pump();

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
    if (waiting && !userPaused && this.waitingSince !== undefined && !this.startupReported && now - this.waitingSince >= bound) {
      this.startupReported = true;
      this.fail({ kind: 'startup', message: `No picture within ${bound} ms` });
    }

    if (settings.captureLatencyProbe) this.s.captureLatencyMs = settings.captureLatencyProbe(video);
  }

  /**
   * Ship-end playback each tick: play every frame at rate 1 (the ship sends at the chosen speed),
   * step over gaps, keep the buffer bounded behind the playhead, and end once the server said the
   * range is done and the buffer has played out.
   */
  private followPlayback(ranges: Array<[number, number]>, now: number): void {
    const run = this.playback;
    const video = this.video;
    if (!run) return;
    if (this.mediaStarted && ranges.length > 0 && run.jumpTo === undefined) {
      const seekTo = decidePlaybackHead(video.currentTime, ranges);
      if (seekTo !== undefined && !video.seeking) video.currentTime = seekTo;
    }
    if (video.playbackRate !== 1) video.playbackRate = 1;
    const ahead = bufferedAhead(video.currentTime, ranges);
    this.s.latencyMs = ranges.length > 0 ? Math.round(ahead * 1000) : undefined;
    if (ranges.length > 0 && now - this.lastTrimAt >= TRIM_EVERY_MS) {
      this.lastTrimAt = now;
      const cut = trimRange(ranges, video.currentTime, this.settings.maxBufferSeconds);
      if (cut) this.surface.remove(cut[0], cut[1]);
    }
    if (run.endPending && !run.paused && !run.jumpPending && run.jumpTo === undefined && ahead < PLAYBACK_END_AHEAD_SEC) {
      run.endPending = false;
      this.setState('ended');
    }
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
    latencyTargetMs: undefined,
    reconnects: 0,
    width: undefined,
    height: undefined,
  };
}

function medianOf(xs: readonly number[]): number | undefined {
  if (xs.length === 0) return undefined;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** So an explicit `undefined` option does not override a default. */
function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
