import { countedLateness, type Arrival } from '../late-bunch.ts';

/**
 * When each decoded live frame goes on screen, for a player that paints frames itself (FramePlayer)
 * rather than queueing them in a media element: a jitter buffer of its own, as a WebRTC receiver
 * keeps one.
 *
 * Every frame's arrival is noted as its lateness, wall clock − media time (ms). The earliest
 * lateness of the last frames is the path with no queueing; the others came that much later. A
 * frame is shown at media time + offset, where the offset aims at the earliest lateness plus an
 * allowance: how much later than the earliest the latest 2 % came, and a margin for decoding. So
 * the picture waits only as long as the link's own jitter needs — tens of milliseconds on an even
 * link, more where segments are lost and resent.
 *
 * The offset moves toward its aim by at most `slew` of a frame per frame (the picture plays a few
 * per cent slower or faster, never jumps) — except in the first `settleMs` of a stream, when it
 * follows the aim at once: a viewer joining a running stream gets the frames since its last
 * keyframe in one burst, the oldest a second or more late, and the picture must go to the newest
 * (the older frames are skipped) instead of starting a second behind. Those first frames count for
 * the earliest lateness but not for the allowance. A frame decoded after its time is shown at once and
 * the offset rises by how late it was, so the frames after it keep their spacing (a stall shows
 * as one frame held, not as frames skipped); the extra then drains at the slew.
 *
 * The allowance covers delays that recur, not the window's single worst hold: frames that came
 * together after a gap (`late-bunch.ts`) count as one event, and the worst such bunch is left out of
 * the quantile. Alone in its window it shows as one frame held, drained at the slew in a few
 * seconds, instead of holding every frame of the next 20 s that much later; a second one within the
 * window raises the allowance as before. Frames that come late but evenly spaced (the link's delay
 * stepping up) are not a bunch and always count.
 */

export interface PlayoutClockOptions {
  /** Frames whose lateness is kept (200: 20 s at 10 fps). */
  window?: number;
  /** Frames needed before the measured allowance replaces `initialAllowanceMs`. */
  minSamples?: number;
  /** The share of frames that should be on time. */
  quantile?: number;
  /** Allowance before anything is measured, ms. */
  initialAllowanceMs?: number;
  /** Least allowance, ms: timers and decoding are never exact. */
  minAllowanceMs?: number;
  /** Most allowance, ms: beyond it the link is failing, not jittery. */
  maxAllowanceMs?: number;
  /** Added to the measured allowance, ms (decode time, the next late frame a little later). */
  marginMs?: number;
  /** Most the offset moves per frame, as a share of the frame's duration. */
  slew?: number;
  /** The start of a stream, ms: the offset follows its aim at once, and lateness counts only for the earliest. */
  settleMs?: number;
}

const DEFAULTS: Required<PlayoutClockOptions> = {
  window: 200,
  minSamples: 30,
  quantile: 0.98,
  initialAllowanceMs: 60,
  minAllowanceMs: 15,
  maxAllowanceMs: 1500,
  marginMs: 15,
  slew: 0.08,
  settleMs: 1000,
};

export class PlayoutClock {
  private readonly o: Required<PlayoutClockOptions>;
  /** The last frames' arrivals after the start (`window` of them): the allowance's measure. */
  private readonly arrivals: Arrival[] = [];
  /** Lateness of the frames of the first `settleMs` (the joining burst): for the earliest only. */
  private readonly early: number[] = [];
  private firstArrival: number | undefined;
  private lastArrival = 0;
  private offset: number | undefined;
  private lastMediaMs: number | undefined;
  /** The allowance measured before a restart: where the next generation starts. */
  private carried: number | undefined;

  constructor(options: PlayoutClockOptions = {}) {
    this.o = { ...DEFAULTS, ...options };
  }

  /** A frame of media time `mediaMs` arrived at `wallMs`. */
  arrived(wallMs: number, mediaMs: number): void {
    this.firstArrival ??= wallMs;
    this.lastArrival = wallMs;
    if (this.settling()) {
      this.early.push(wallMs - mediaMs);
      return;
    }
    this.arrivals.push({ lateness: wallMs - mediaMs, wallMs, mediaMs });
    if (this.arrivals.length > this.o.window) this.arrivals.shift();
    // Once measured, the start's frames go: the two clocks drift apart over hours.
    if (this.arrivals.length >= this.o.minSamples) this.early.length = 0;
  }

  /** Within the first `settleMs` of the stream (or before its first frame). */
  get starting(): boolean {
    return this.settling();
  }

  private settling(): boolean {
    return this.firstArrival === undefined || this.lastArrival - this.firstArrival < this.o.settleMs;
  }

  private earliest(): number | undefined {
    if (this.arrivals.length === 0 && this.early.length === 0) return undefined;
    return Math.min(...this.arrivals.map((a) => a.lateness), ...this.early);
  }

  /** How long frames wait beyond the earliest path, ms: the allowance aimed at. */
  allowanceMs(): number {
    const o = this.o;
    if (this.arrivals.length < o.minSamples) return this.carried ?? o.initialAllowanceMs;
    const sorted = countedLateness(this.arrivals, 0, o.minSamples).sort((a, b) => a - b);
    const earliest = sorted[0] ?? 0;
    const late = sorted[Math.min(sorted.length - 1, Math.floor(o.quantile * sorted.length))] ?? earliest;
    return Math.min(o.maxAllowanceMs, Math.max(o.minAllowanceMs, late - earliest + o.marginMs));
  }

  /** The offset aimed at: the earliest lateness plus the allowance. */
  private aim(): number | undefined {
    const earliest = this.earliest();
    return earliest === undefined ? undefined : earliest + this.allowanceMs();
  }

  /**
   * When the frame of media time `mediaMs` is due on screen (wall ms). Called once per frame, in
   * media order, as each is scheduled; moves the offset a step toward its aim.
   */
  dueAt(mediaMs: number): number {
    const aim = this.aim() ?? 0;
    const step = this.lastMediaMs === undefined ? 0 : Math.max(0, mediaMs - this.lastMediaMs);
    this.lastMediaMs = mediaMs;
    if (this.offset === undefined || this.settling()) this.offset = aim;
    else {
      const most = step * this.o.slew;
      this.offset += Math.max(-most, Math.min(most, aim - this.offset));
    }
    return mediaMs + this.offset;
  }

  /** A frame due at `dueMs` could only be shown at `shownMs`: later frames move by as much. */
  late(dueMs: number, shownMs: number): void {
    if (this.offset !== undefined && shownMs > dueMs) this.offset += shownMs - dueMs;
  }

  /** How long the frame now scheduled waits beyond the earliest path, ms (the latency the buffer adds). */
  bufferedMs(): number | undefined {
    const earliest = this.earliest();
    if (this.offset === undefined || earliest === undefined) return undefined;
    return Math.max(0, this.offset - earliest);
  }

  /** A new encoder (definition change, reconnect): its media times start elsewhere; the allowance carries over. */
  restart(): void {
    if (this.arrivals.length >= this.o.minSamples) this.carried = this.allowanceMs();
    this.arrivals.length = 0;
    this.early.length = 0;
    this.offset = this.lastMediaMs = this.firstArrival = undefined;
    this.lastArrival = 0;
  }
}
