import type { LinkType, MediaClientMessage, PlaybackSpeed } from '@ship-cctv/protocol';
import { isInitSegment, readBaseDecodeTime, readFirstCompositionOffset, readProducerTime, readSoundTrackIds, readTrackBytes, readVideoTrack, stripSoundFromFragment, stripSoundFromInit, withoutProducerTime } from '@ship-cctv/media';
import { pictureOnlyMime } from './sound-mime.ts';
import { mseDecoders } from './decoders.ts';
import { Emitter } from './emitter.ts';
import { latencyTargetMs, type LatencyTarget } from './latency-target.ts';
import { LiveController } from './live-controller.ts';
import { toRanges, trimRange } from './live-edge.ts';
import { LiveSession, type TickReport } from './live-session.ts';
import { MediaSurface } from './media-surface.ts';
import { PlaybackController } from './playback-controller.ts';
import type { StreamMode } from './stream-mode.ts';
import type { CodecInfo, MsePlayerEventMap, MsePlayerOptions, PlaybackPosition, PlayerCommand, PlayerState, PlayerStats } from './types.ts';
import { SlidingRate } from './watchdog.ts';
import { stripUndefined } from './stats.ts';

const DEFAULTS = {
  liveLatencyTargetMs: 'auto' as LatencyTarget,
  liveJumpMs: 1000,
  maxBufferSeconds: 20,
  stallTimeoutMs: 4000,
  silenceReconnectMs: 15_000,
  startupTimeoutMs: 15_000,
};
type Settings = typeof DEFAULTS & MsePlayerOptions;

/**
 * Live H.264 over the media socket into Media Source Extensions. One instance per <video>; play()
 * may be called again with another camera. Errors are reported, not shown: the view decides.
 *
 * A stream is a run of "generations": each `codec` event (first play, definition change,
 * reconnect) starts one, and its first fragment is placed where the buffer ends, so the picture
 * carries on without a blank whatever timestamps the new encoder starts from.
 *
 * This class is the part live and playback share: the MSE core (MediaSurface) and what it
 * measures of the <video>, driving a LiveSession (live-session.ts: the media socket, the state
 * machine, reconnects, server messages and the watchdogs, as FramePlayer's). What differs goes to
 * the stream's mode (stream-mode.ts): LiveController keeps the live edge, PlaybackController
 * pause, seek, speed and the end of a recorded range.
 */
export class MsePlayer extends Emitter<MsePlayerEventMap> {
  private readonly settings: Settings;
  /** The media socket, the state machine, reconnects and the watchdogs. */
  private readonly session: LiveSession;
  /** The MSE core: MediaSource, SourceBuffer and its append queue. */
  private readonly surface: MediaSurface;

  /** The stream playing (live or ship-end playback), until stop(). */
  private mode: StreamMode | undefined;
  /** The same controller when it is a ship-end playback (its controls). */
  private playback: PlaybackController | undefined;
  private generation: { video: { trackId: number; timescale: number } | undefined; placed: boolean; jump: boolean; offsetSec?: number } | undefined;
  /** video.play() was called for the current MediaSource. */
  private mediaStarted = false;
  /** A fragment of this socket's stream went to the buffer. */
  private sessionMedia = false;
  private frameWatchArmed = false;

  private lastCurrentTime = 0;
  private lastFrameTotal = 0;
  /** The stream's frame rate (from `codec`) and the ship's link: what an `auto` latency target follows. */
  private streamFrameRate: number | undefined;
  private link: LinkType | undefined;
  /** Sound: the current stream's sound track ids (from its init segment) and its sample bytes so far. */
  private soundTracks: number[] = [];
  private audioBytes = 0;
  /** The operator wants the sound (setSound); the current stream has some; it is being stripped. */
  private soundWanted = false;
  private streamHasSound = false;
  private stripSound = false;
  private readonly audioRate = new SlidingRate(2000);
  private readonly frameRate = new SlidingRate(2000);

  constructor(
    private readonly video: HTMLVideoElement,
    options: MsePlayerOptions,
  ) {
    super();
    this.settings = { ...DEFAULTS, ...stripUndefined(options) };
    this.link = options.link;
    this.session = new LiveSession(
      this.settings,
      video,
      {
        commandToSend: () => this.mode?.commandToSend(),
        connecting: () => {
          this.sessionMedia = this.frameWatchArmed = false;
        },
        opened: () => this.mode?.opened(),
        codec: (codec) => this.onCodec(codec),
        position: (position) => this.playback?.onPosition(position),
        binary: (bytes) => this.onBinary(bytes),
        serverEnded: () => this.mode?.serverEnded() ?? false,
        tick: (now) => this.tick(now),
        paintingStuck: () => this.teardownMedia(),
      },
      (type, payload) => this.emit(type, payload),
    );
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
    return this.session.state;
  }

  get stats(): PlayerStats {
    return { ...this.s };
  }

  private get s(): PlayerStats {
    return this.session.stats;
  }

  /**
   * The ship's link now (from its status), kept for an `auto` latency target (every link holds the
   * same least target today; see latency-target.ts). Takes effect at once, without a restart.
   */
  setLink(link: LinkType | undefined): void {
    this.link = link;
  }

  /** The live latency the catch-up aims for now, ms (for `auto`: measured once frames came, see ArrivalJitter). */
  get latencyTargetMs(): number {
    return this.mode?.latencyTargetMs ?? latencyTargetMs(this.settings.liveLatencyTargetMs, this.streamFrameRate, this.link);
  }

  /** Opens the media socket and plays `command` (live or ship-end playback); again after a close, until stop(). */
  play(command: PlayerCommand): void {
    this.stop();
    this.mode = this.modeFor(command);
    this.session.play();
  }

  stop(): void {
    this.session.end();
    this.mode = this.playback = undefined;
    this.teardownMedia();
    this.session.setState('idle');
  }

  destroy(): void {
    this.stop();
    this.video.removeEventListener('error', this.onVideoError);
    this.removeAllListeners();
  }

  /** After the continuous-watching limit: carry on (on a new socket if the server closed it). */
  continueWatching(): void {
    this.session.continueWatching();
  }

  // ── ship-end playback (PlaybackController) ───────────────────────────────────────────────────

  /** Ship-end playback: the operator paused it (the state stays `playing`: nothing is wrong). */
  get paused(): boolean {
    return this.playback?.paused ?? false;
  }

  /** Ship-end playback: the last position (server's, or a seek's target); undefined for live. */
  get position(): PlaybackPosition | undefined {
    return this.playback?.position;
  }

  /** Ship-end playback: the recorded time of the frame on screen, estimated from the last position. */
  recordedTime(): number | undefined {
    return this.playback?.recordedTime();
  }

  /** Ship-end playback: hold the picture and ask the ship to stop sending. */
  pause(): void {
    this.playback?.pause();
  }

  resume(): void {
    if (!this.playback?.resume()) return;
    this.session.quietOnPurpose(performance.now());
    if (this.mediaStarted) void this.video.play().catch(() => undefined);
  }

  /**
   * Ship-end playback: jump to a recorded time inside the range. The server answers with a new
   * codec and init segment; the playhead moves to that media as soon as it is buffered. After the
   * end (or without a socket) the playback starts again from `time`.
   */
  seek(time: number): void {
    this.playback?.seek(time);
  }

  /** Ship-end playback: another speed from the recorded time on screen; new codec and init follow. */
  setSpeed(speed: PlaybackSpeed): void {
    this.playback?.setSpeed(speed);
  }

  /** Sends a seek or speed change on the running socket, or starts afresh where there is none. */
  private changeRun(message: Extract<MediaClientMessage, { type: 'seek' | 'speed' }>): void {
    if (this.session.sendOnStream(message)) return;
    // Ended, stopped by an error, or between reconnects: a new play from the position.
    this.session.reconnectNow(true);
  }

  /** The controller of a command: live or ship-end playback. */
  private modeFor(command: PlayerCommand): StreamMode {
    const common = { video: this.video, surface: this.surface, stats: this.s, maxBufferSeconds: this.settings.maxBufferSeconds };
    // The viewer says what MSE plays here: an H.265 camera's recording then comes as the ship keeps it.
    const decoders = command.decoders ?? mseDecoders({ isTypeSupported: (mime) => this.surface.supports(mime) });
    if (command.mode === 'shipPlayback') {
      this.playback = new PlaybackController({ ...command, decoders }, {
        ...common,
        send: (message) => this.session.send(message),
        change: (message) => this.changeRun(message),
        position: (position) => this.emit('position', position),
        ended: () => this.session.setState('ended'),
        frameRate: () => this.streamFrameRate,
      });
      return this.playback;
    }
    // …and a definition's AV1 only when it may.
    const live = { ...command, decoders };
    return new LiveController(live, {
      ...common,
      liveJumpMs: this.settings.liveJumpMs,
      latencyTargetMs: (measuredAllowanceMs) => latencyTargetMs(this.settings.liveLatencyTargetMs, this.streamFrameRate, this.link, measuredAllowanceMs),
      frameRate: () => this.streamFrameRate,
    });
  }

  /**
   * Whether the stream's sound goes to the media element. Off (the default, a muted cell): a stream
   * with sound is played picture-only — its sound track stripped before MSE — so the picture plays
   * as early as one without sound (a SourceBuffer with both tracks plays only where both are
   * buffered and holds the picture to its audio clock). Turning it on while such a stream plays
   * starts the stream again with its sound (a new MediaSource: a short blank until its keyframe).
   */
  setSound(on: boolean): void {
    if (on === this.soundWanted) return;
    this.soundWanted = on;
    if (!this.streamHasSound || !this.mode) return;
    this.session.dropSocket();
    this.teardownMedia();
    this.session.reconnectNow();
  }

  private onCodec(codec: CodecInfo): void {
    const pictureOnly = pictureOnlyMime(codec.mime);
    this.streamHasSound = pictureOnly !== codec.mime;
    this.stripSound = this.streamHasSound && !this.soundWanted;
    const mime = this.stripSound ? pictureOnly : codec.mime;
    if (!this.surface.supports(mime)) {
      this.session.fail({ kind: 'unsupported', message: `This browser cannot play ${mime}` });
      this.session.dropSocket();
      this.teardownMedia();
      this.session.setState('error');
      return;
    }
    this.s.width = codec.width;
    this.s.height = codec.height;
    this.streamFrameRate = codec.frameRate;
    // Definition change or reconnect: the decoder switches in place and the picture stays; first
    // codec, or no changeType (older browsers): a fresh MediaSource, at the cost of a blank.
    if (this.surface.use(mime) === 'opened') this.resetMediaState();
    this.generation = { video: undefined, placed: false, jump: false };
  }

  private onBinary(received: Uint8Array<ArrayBuffer>): void {
    const generation = this.generation;
    // Media before a codec event breaks the protocol; nothing could decode it.
    if (!generation || !this.surface.source) return;
    const init = isInitSegment(received);
    // When the picture left the ship's encoder: read, then dropped (not for the decoder).
    const produced = init ? undefined : readProducerTime(received);
    if (produced) received = withoutProducerTime(received);
    if (!init && this.soundTracks.length > 0) this.audioBytes += readTrackBytes(received, this.soundTracks);
    let bytes = received;
    if (this.stripSound) {
      const stripped = init ? stripSoundFromInit(received).init : stripSoundFromFragment(received, this.soundTracks);
      // Sound only: nothing for a picture-only player.
      if (!stripped) return;
      bytes = new Uint8Array(stripped);
    }
    if (init) {
      this.soundTracks = readSoundTrackIds(received);
      generation.video = readVideoTrack(bytes);
      generation.placed = false;
      // A playback's new init after a seek or speed change: its media replaces what is buffered.
      if (this.mode?.takeJump()) generation.jump = true;
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
          generation.offsetSec = sb.timestampOffset;
          this.mode?.placed(at, jump);
          if (produced) this.mode?.producedAt?.(at + readFirstCompositionOffset(bytes, video.trackId) / timescale, produced.wallMs);
        });
      }
      this.sessionMedia = true;
    } else if (produced && generation.video && generation.offsetSec !== undefined) {
      const video = generation.video;
      const base = readBaseDecodeTime(bytes, video.trackId);
      if (base !== undefined) this.mode?.producedAt?.((base + readFirstCompositionOffset(bytes, video.trackId)) / video.timescale + generation.offsetSec, produced.wallMs);
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
    this.mode?.reset();
  }

  private teardownMedia(): void {
    this.surface.teardown();
    this.resetMediaState();
  }

  /** After each append or remove: start playback on the first media, watch for the first frame. */
  private onBuffered(sb: SourceBuffer): void {
    this.mode?.buffered(sb, this.mediaStarted);
    if (!this.mediaStarted && sb.buffered.length > 0) this.startPlayback(sb);
    if (this.sessionMedia && !this.session.socketShowedFrames && !this.frameWatchArmed) {
      this.frameWatchArmed = true;
      const socket = this.session.socketNumber;
      // Fires when the frame is composited: the most exact "first frame" a page can see. Without
      // it, the tick notices progress instead.
      this.video.requestVideoFrameCallback?.(() => {
        if (socket === this.session.socketNumber) this.noteFrames();
      });
    }
  }

  private startPlayback(sb: SourceBuffer): void {
    this.mediaStarted = true;
    const video = this.video;
    if (this.mode && !this.mode.start(sb)) return;
    // A refusal to autoplay: a user gesture calling video.play() resumes, and the tick notices
    // the progress. AbortError only means the source was replaced meanwhile.
    Promise.resolve()
      .then(() => video.play())
      .catch((err: unknown) => this.session.playRefused(err));
  }

  private readonly onVideoError = (): void => {
    const error = this.video.error;
    if (!this.surface.source || !error) return;
    this.onMediaFailure(new Error(`Media error ${error.code}: ${error.message}`));
  };

  /** A decode or SourceBuffer failure: report once per session, then start afresh from a keyframe. */
  private onMediaFailure(err: unknown): void {
    if (!this.session.reportMediaFailure({ kind: 'decode', message: err instanceof Error ? err.message : String(err), cause: err })) return;
    this.teardownMedia();
    this.session.restart();
  }

  // ── progress ──────────────────────────────────────────────────────────────────────────────

  /** The session's tick: the element's stats and progress, the mode's catch-up; frames that came back. */
  private tick(now: number): TickReport {
    const video = this.video;
    this.audioRate.add(now, this.audioBytes);
    this.s.audioKbps = Math.round((this.audioRate.perSecond() * 8) / 100) / 10;
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
    const mode = this.mode;
    // Frames showing count as progress too (a live picture whose clock stands still, see decideLiveEdge).
    if (progressed || mode?.framesShowing(now)) this.session.noteProgress(now);
    // A paused playback shows no progress and gets no bytes on purpose: not a stall, not silence.
    const userPaused = mode?.userPaused ?? false;
    if (userPaused) this.session.quietOnPurpose(now);

    mode?.tick({ ranges: this.surface.ranges(), now, progressed, mediaStarted: this.mediaStarted });
    this.s.playbackRate = video.playbackRate;
    this.s.latencyTargetMs = mode?.latencyTargetMs;
    // Retries an append that met a full buffer.
    this.surface.queue.pump();

    const state = this.session.state;
    const framesResumed = progressed && this.session.bytesFresh(now) && (state === 'starting' || state === 'stalled');
    if (framesResumed) this.noteFrames();
    return { framesResumed, userPaused };
  }

  /** Frames of the current socket are on screen. */
  private noteFrames(): void {
    if (this.video.paused || !this.mode) return;
    this.session.framesShown(performance.now());
  }
}
