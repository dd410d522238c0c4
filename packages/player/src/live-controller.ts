import type { PlayCommand as LiveCommand } from '@ship-cctv/protocol';
import { ArrivalJitter } from './arrival-jitter.ts';
import { frameDurationMs } from './latency-target.ts';
import { decideLiveEdge, toRanges, trimRange, waitingAtPlayhead } from './live-edge.ts';
import type { MediaSurface } from './media-surface.ts';
import type { StreamMode, ModeTick } from './stream-mode.ts';
import type { PlayerStats } from './types.ts';
import { PictureAge, watchComposited } from './picture-age.ts';
import { medianOf } from './stats.ts';

/** Frames over which the arrival latency is taken (the median): a second at 10 fps. */
const ARRIVAL_SAMPLES = 10;
const TRIM_EVERY_MS = 2000;

export interface LiveContext {
  readonly video: HTMLVideoElement;
  readonly surface: MediaSurface;
  readonly stats: PlayerStats;
  readonly liveJumpMs: number;
  readonly maxBufferSeconds: number;
  /**
   * The latency the catch-up aims for now, ms: follows the stream's frame rate and, for an `auto`
   * target, how late frames have been coming (`measuredAllowanceMs`, once measured) or else the link.
   */
  latencyTargetMs(measuredAllowanceMs: number | undefined): number;
  /** The stream's frame rate, from its `codec` event. */
  frameRate(): number | undefined;
}

/**
 * Live: keep the picture near the live edge. The first frame goes to the edge; then each tick
 * plays a little faster when behind, seeks when far behind or stuck, and trims what is behind.
 * The frame on screen (requestVideoFrameCallback) tells where the picture is when currentTime
 * does not (see decideLiveEdge).
 */
export class LiveController implements StreamMode {
  readonly userPaused = false;
  /** End of the buffer − currentTime just after each of the last frames was appended. */
  private readonly arrivalLatencies: number[] = [];
  /** How unevenly frames arrive (for an `auto` target). */
  private readonly jitter = new ArrivalJitter();
  /** How old the frames shown are, from when their fragments left the ship's encoder (buffer seconds). */
  private readonly age = new PictureAge();
  /** Media time of the newest frame shown: a seek never goes back to it or before (no frame shows twice). */
  private newestShown: number | undefined;
  private lastBufferEnd = 0;
  private lastTrimAt = 0;
  /** Since when the element's clock stands still although it should play; undefined while it plays. */
  private stuckSince: number | undefined;
  /** The frame on screen lately, and when it showed. */
  private presented: { mediaTime: number; at: number } | undefined;
  private presentedWatch: object | undefined;
  /** When the controller last moved currentTime (performance.now()). */
  private seekedAt: number | undefined;

  constructor(
    private readonly command: LiveCommand,
    private readonly ctx: LiveContext,
  ) {}

  get latencyTargetMs(): number {
    return this.ctx.latencyTargetMs(this.jitter.allowanceMs());
  }

  commandToSend(): LiveCommand {
    return this.command;
  }

  opened(): void {}

  takeJump(): boolean {
    return false;
  }

  producedAt(mediaSec: number, wallMs: number): void {
    this.age.noteProduced(mediaSec, wallMs);
  }

  placed(): void {
    // A new generation: its encoder's frames are timed afresh.
    this.jitter.restart();
  }

  serverEnded(): boolean {
    return false;
  }

  reset(): void {
    this.arrivalLatencies.length = 0;
    this.lastBufferEnd = 0;
    this.stuckSince = undefined;
    this.presented = this.presentedWatch = undefined;
    this.newestShown = this.seekedAt = undefined;
    this.jitter.restart();
    this.age.reset();
  }

  buffered(sb: SourceBuffer, mediaStarted: boolean): void {
    if (mediaStarted) this.noteArrival(toRanges(sb.buffered).at(-1)?.[1]);
  }

  start(sb: SourceBuffer): boolean {
    const video = this.ctx.video;
    const decision = decideLiveEdge({
      currentTime: video.currentTime,
      ranges: toRanges(sb.buffered),
      targetSec: this.latencyTargetMs / 1000,
      jumpSec: this.ctx.liveJumpMs / 1000,
    });
    if (decision.seekTo !== undefined) {
      video.currentTime = decision.seekTo;
      this.seekedAt = performance.now();
    }
    this.watchPresented();
    return true;
  }

  framesShowing(now: number): boolean {
    return this.presentedTime(now) !== undefined;
  }

  tick({ ranges, now, progressed, mediaStarted }: ModeTick): void {
    const { video, stats } = this.ctx;
    if (!mediaStarted || ranges.length === 0) {
      stats.latencyMs = undefined;
      return;
    }
    // Waiting for the next frame (or a clock that stood still since the last tick): not behind.
    const starved = waitingAtPlayhead(video, progressed);
    if (!starved || video.seeking) this.stuckSince = undefined;
    else this.stuckSince ??= now;
    const decision = decideLiveEdge({
      currentTime: video.currentTime,
      presentedTime: this.presentedTime(now),
      ranges,
      targetSec: this.latencyTargetMs / 1000,
      arrivalLatencySec: medianOf(this.arrivalLatencies),
      jumpSec: this.ctx.liveJumpMs / 1000,
      starved,
      stuckSec: this.stuckSince === undefined ? 0 : (now - this.stuckSince) / 1000,
      newestShownSec: this.newestShown,
      sinceSeekSec: this.seekedAt === undefined ? undefined : (now - this.seekedAt) / 1000,
      currentRate: video.playbackRate,
      frameSec: frameDurationMs(this.ctx.frameRate()) / 1000,
    });
    if (decision.seekTo !== undefined && !video.seeking) {
      video.currentTime = decision.seekTo;
      this.seekedAt = now;
      // Measured before the seek: no longer true.
      this.arrivalLatencies.length = 0;
      this.stuckSince = undefined;
    }
    if (video.playbackRate !== decision.playbackRate) video.playbackRate = decision.playbackRate;
    const latencySec = medianOf(this.arrivalLatencies) ?? decision.latencySec;
    stats.latencyMs = latencySec === undefined ? undefined : Math.round(latencySec * 1000);
    stats.pictureAgeMs = this.age.medianMs(now);
    if (now - this.lastTrimAt >= TRIM_EVERY_MS) {
      this.lastTrimAt = now;
      const cut = trimRange(ranges, video.currentTime, this.ctx.maxBufferSeconds);
      if (cut) this.ctx.surface.remove(cut[0], cut[1]);
    }
  }

  /** After an append that moved the end of the buffer: how far the playhead is from it now. */
  private noteArrival(end: number | undefined): void {
    if (end === undefined || end <= this.lastBufferEnd) return;
    this.lastBufferEnd = end;
    this.jitter.note(performance.now(), end);
    const list = this.arrivalLatencies;
    list.push(end - this.playhead(performance.now()));
    if (list.length > ARRIVAL_SAMPLES) list.shift();
  }

  /** Notes the media time of each frame shown, for as long as this MediaSource lives. */
  private watchPresented(): void {
    const video = this.ctx.video;
    const source = this.ctx.surface.source;
    if (!source || this.presentedWatch === source) return;
    const watching = watchComposited(
      video,
      () => this.presentedWatch === source,
      (mediaTime, shownAtMs) => {
        this.presented = { mediaTime, at: performance.now() };
        this.age.noteShown(mediaTime, frameDurationMs(this.ctx.frameRate()) / 2000, shownAtMs);
        this.newestShown = Math.max(this.newestShown ?? mediaTime, mediaTime);
      },
    );
    if (watching) this.presentedWatch = source;
  }

  /** The frame on screen, if one showed within the last two frame durations (and a bit). */
  private presentedTime(now: number): number | undefined {
    const p = this.presented;
    const freshMs = 2 * frameDurationMs(this.ctx.frameRate()) + 50;
    return p && now - p.at <= freshMs ? p.mediaTime : undefined;
  }

  /** Where the picture is: currentTime, or the frame on screen when that is ahead. */
  private playhead(now: number): number {
    return Math.max(this.ctx.video.currentTime, this.presentedTime(now) ?? 0);
  }
}
