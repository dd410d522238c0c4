import type { MediaClientMessage, MediaServerMessage, PlaybackSpeed, ShipPlaybackCommand } from '@ship-cctv/protocol';
import { toRanges, trimRange, waitingAtPlayhead } from './live-edge.ts';
import type { MediaSurface } from './media-surface.ts';
import { frameDurationMs } from './latency-target.ts';
import { bufferedAhead, decidePlaybackHead, landingFor, shownRecordedTime } from './playback-head.ts';
import type { ModeTick, StreamMode } from './stream-mode.ts';
import type { PlaybackPosition, PlayerStats } from './types.ts';

/** Below this much media ahead of the playhead, a playback the server said was done has ended. */
const PLAYBACK_END_AHEAD_SEC = 0.25;
/** After a seek or speed change, positions of the old stream may still be on their way for this long. */
const STALE_POSITION_MS = 5000;
const TRIM_EVERY_MS = 2000;

type Change = Extract<MediaClientMessage, { type: 'seek' | 'speed' }>;

export interface PlaybackContext {
  readonly video: HTMLVideoElement;
  readonly surface: MediaSurface;
  readonly stats: PlayerStats;
  readonly maxBufferSeconds: number;
  /** Sends on the running socket (nothing without one). */
  send(message: MediaClientMessage): void;
  /** A seek or speed change: on the running socket, or a new one where there is none. */
  change(message: Change): void;
  /** The recorded position changed (the player's `position` event). */
  position(position: PlaybackPosition): void;
  /** The range has played out. */
  ended(): void;
  /** Frames per second of the stream, once its codec message came. */
  frameRate?(): number | undefined;
}

/**
 * Ship-end playback: a recorded range the ship sends at the chosen speed. Every frame plays at
 * rate 1 (media time runs in played time), with steps over gaps; pause, seek and speed go to the
 * ship; after a seek or speed change the next init segment's media replaces what is buffered; the
 * `ended` of the server waits until the buffer has played out.
 */
export class PlaybackController implements StreamMode {
  readonly latencyTargetMs = undefined;
  /** The last position, and where the buffer ended when it came (see shownRecordedTime). */
  private lastPosition: (PlaybackPosition & { mediaEnd: number | undefined }) | undefined;
  private isPaused = false;
  /** A seek or speed change was sent (at `changedAt`): the next init segment starts media to jump to. */
  private jumpPending = false;
  private changedAt = 0;
  /** Where that media was placed: the playhead moves there once it is buffered. */
  private jumpTo: number | undefined;
  /** The server said the range is done: `ended` once the buffer has played out. */
  private endPending = false;
  private lastTrimAt = 0;
  /** Since when the element has waited although it should play (see decidePlaybackHead). */
  private waitingSince: number | undefined;

  constructor(
    private command: ShipPlaybackCommand,
    private readonly ctx: PlaybackContext,
  ) {}

  get userPaused(): boolean {
    return this.isPaused;
  }

  get paused(): boolean {
    return this.isPaused;
  }

  get position(): PlaybackPosition | undefined {
    const p = this.lastPosition;
    return p ? { time: p.time, speed: p.speed, paused: p.paused } : undefined;
  }

  /** The recorded time of the frame on screen, estimated from the last position. */
  recordedTime(): number | undefined {
    const p = this.lastPosition;
    return p ? shownRecordedTime(p, this.ctx.video.currentTime, this.command) : undefined;
  }

  /** Holds the picture and asks the ship to stop sending. */
  pause(): void {
    if (this.isPaused) return;
    this.isPaused = true;
    this.ctx.send({ type: 'pause' });
    this.ctx.video.pause();
    this.notePosition({ paused: true });
  }

  /** Asks the ship to carry on; false when it was not paused. The player restarts the element. */
  resume(): boolean {
    if (!this.isPaused) return false;
    this.isPaused = false;
    this.ctx.send({ type: 'resume' });
    this.notePosition({ paused: false });
    return true;
  }

  /** Jumps to a recorded time inside the range (after the end: plays again from there). */
  seek(time: number): void {
    const command = this.command;
    const target = Math.min(Math.max(Math.round(time), command.start), command.end - 1);
    this.endPending = false;
    this.notePosition({ time: target, mediaEnd: undefined });
    this.changeRun({ type: 'seek', time: target });
  }

  /** Another speed from the recorded time on screen. */
  setSpeed(speed: PlaybackSpeed): void {
    const command = this.command;
    if (command.speed === speed) return;
    this.command = { ...command, speed };
    this.notePosition({ time: this.recordedTime() ?? command.start, speed, mediaEnd: undefined });
    this.changeRun({ type: 'speed', speed });
  }

  /** A server position, unless it was sent before the server took a seek or speed change. */
  onPosition(msg: Extract<MediaServerMessage, { type: 'position' }>): void {
    const changing = this.jumpPending || this.jumpTo !== undefined;
    if (changing && performance.now() - this.changedAt < STALE_POSITION_MS) return;
    this.notePosition({ time: msg.time, speed: msg.speed, mediaEnd: this.ctx.surface.ranges().at(-1)?.[1] });
  }

  /**
   * A reconnect or Continue after the watching limit resumes where it was: the same range from
   * the last known position, at the current speed.
   */
  commandToSend(): ShipPlaybackCommand {
    const command = this.command;
    const position = this.lastPosition;
    if (!position || position.time <= command.start) return command;
    return { ...command, start: Math.min(Math.floor(position.time), command.end - 1) };
  }

  opened(): void {
    if (this.isPaused) this.ctx.send({ type: 'pause' });
  }

  takeJump(): boolean {
    if (!this.jumpPending) return false;
    this.jumpPending = false;
    return true;
  }

  placed(at: number, jump: boolean): void {
    if (jump) this.jumpTo = at;
  }

  buffered(sb: SourceBuffer): void {
    const jumpTo = this.jumpTo;
    const landing = jumpTo === undefined ? undefined : landingFor(jumpTo, toRanges(sb.buffered));
    if (landing === undefined) return;
    this.jumpTo = undefined;
    this.ctx.video.currentTime = landing;
  }

  start(sb: SourceBuffer): boolean {
    const video = this.ctx.video;
    const seekTo = decidePlaybackHead(video.currentTime, toRanges(sb.buffered));
    if (seekTo !== undefined) video.currentTime = seekTo;
    // Paused before the first picture: resume() starts it.
    return !this.isPaused;
  }

  framesShowing(): boolean {
    return false;
  }

  serverEnded(): boolean {
    // The ship has sent the whole range; what is buffered still has to play (see tick).
    this.endPending = true;
    return true;
  }

  reset(): void {
    this.waitingSince = undefined;
  }

  /** Every frame at rate 1, a step over gaps and out of a stuck clock, the buffer bounded behind the playhead, the end. */
  tick({ ranges, now, progressed, mediaStarted }: ModeTick): void {
    const { video, stats } = this.ctx;
    const waiting = mediaStarted && !video.seeking && waitingAtPlayhead(video, progressed);
    if (!waiting) this.waitingSince = undefined;
    else this.waitingSince ??= now;
    if (mediaStarted && ranges.length > 0 && this.jumpTo === undefined) {
      const seekTo = decidePlaybackHead(video.currentTime, ranges, {
        stuckSec: this.waitingSince === undefined ? 0 : (now - this.waitingSince) / 1000,
        frameSec: frameDurationMs(this.ctx.frameRate?.()) / 1000,
      });
      if (seekTo !== undefined && !video.seeking) {
        video.currentTime = seekTo;
        this.waitingSince = undefined;
      }
    }
    if (video.playbackRate !== 1) video.playbackRate = 1;
    const ahead = bufferedAhead(video.currentTime, ranges);
    stats.latencyMs = ranges.length > 0 ? Math.round(ahead * 1000) : undefined;
    if (ranges.length > 0 && now - this.lastTrimAt >= TRIM_EVERY_MS) {
      this.lastTrimAt = now;
      const cut = trimRange(ranges, video.currentTime, this.ctx.maxBufferSeconds);
      if (cut) this.ctx.surface.remove(cut[0], cut[1]);
    }
    if (this.endPending && !this.isPaused && !this.jumpPending && this.jumpTo === undefined && ahead < PLAYBACK_END_AHEAD_SEC) {
      this.endPending = false;
      this.ctx.ended();
    }
  }

  private changeRun(message: Change): void {
    this.jumpPending = true;
    this.changedAt = performance.now();
    this.jumpTo = undefined;
    this.ctx.change(message);
  }

  private notePosition(change: Partial<PlaybackPosition & { mediaEnd: number | undefined }>): void {
    const base = this.lastPosition ?? { time: this.command.start, speed: this.command.speed, paused: this.isPaused, mediaEnd: undefined };
    this.lastPosition = { ...base, paused: this.isPaused, ...change };
    this.ctx.position({ time: this.lastPosition.time, speed: this.lastPosition.speed, paused: this.lastPosition.paused });
  }
}
