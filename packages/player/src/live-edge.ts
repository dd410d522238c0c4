/** Buffered time ranges as plain pairs, so the decisions below are pure and testable. */
export type Ranges = ReadonlyArray<readonly [start: number, end: number]>;

export function toRanges(buffered: TimeRanges): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < buffered.length; i++) out.push([buffered.start(i), buffered.end(i)]);
  return out;
}

export interface LiveEdgeInput {
  currentTime: number;
  /**
   * Media time of the frame on screen (requestVideoFrameCallback), when frames show lately. Once
   * it ran dry Chrome may go on showing frames as they come while currentTime stands still: the
   * picture is live then, however far currentTime lags, but the clock is moved up to it (a seek to
   * the next frame) before it restarts from where it stood and freezes the picture.
   */
  presentedTime?: number;
  ranges: Ranges;
  /**
   * Latency the catch-up aims for, measured as a frame comes (end of the buffer − currentTime just
   * after it is appended: the frame's own duration plus the time it waits before it shows).
   */
  targetSec: number;
  /** That latency as measured lately (median over the last frames); currentTime's distance from the end without it. */
  arrivalLatencySec?: number;
  /** More than this beyond the target: seek rather than speed up. */
  jumpSec: number;
  /**
   * The element is waiting for data at the playhead (readyState below HAVE_FUTURE_DATA, or its
   * clock did not move since the last look). A starved player is not behind: it is ahead of the
   * stream, and will show the next frame the moment it comes.
   */
  starved?: boolean;
  /**
   * How long the element's clock has stood still although it should play. With media ahead of
   * currentTime that is not starvation: Chrome does not always restart its clock once it ran dry
   * (it shows frames as they come while currentTime stands still), and a seek into the buffer
   * restarts it.
   */
  stuckSec?: number;
  /**
   * Media time of the newest frame already shown. A seek lands after it (on the next frame at the
   * earliest), never on it or before: no frame shows twice and the picture never steps back.
   */
  newestShownSec?: number;
  /**
   * Seconds since the player last moved currentTime itself. A clock behind the picture is moved up
   * at most once a second: a browser whose frame callback runs ahead of its clock by nature is
   * not sent seeking on every tick.
   */
  sinceSeekSec?: number;
  /** The rate now: catch-up that has started carries on down to the target (hysteresis). */
  currentRate?: number;
  /** Duration of one frame: the latency rises and falls by this much as frames come. */
  frameSec?: number;
  maxRate?: number;
}

export interface LiveEdgeDecision {
  /** End of the newest buffered range minus currentTime; undefined with nothing buffered. */
  latencySec: number | undefined;
  playbackRate: number;
  seekTo?: number;
}

/** Rate gained per second of surplus: 0.1 s over the target plays at 1.05×. */
const GAIN_PER_SEC = 0.5;
/** Slowest catch-up, so a small surplus still drains within a few seconds. */
const MIN_CATCH_UP_RATE = 1.03;
/** Fastest catch-up: 10 % faster is not visible on a camera feed and keeps every frame. */
const MAX_RATE = 1.1;
/** Slowest rebuild: 10 % slower is not visible on a camera feed and shows every frame. */
const MIN_RATE = 0.9;
/** Gentlest rebuild, so a small deficit still fills within a few seconds. */
const MAX_REBUILD_RATE = 0.97;
/** Rebuilding starts at this deficit below the target and carries on up to STOP_AT_SEC below it. */
const REBUILD_AT_SEC = 0.04;
/** Allowance for float error when asking whether currentTime lies in a range. */
const EPSILON_SEC = 0.01;
/** A clock standing still this long with media ahead: the element is stuck, not starved (live and playback). */
export const STUCK_SEC = 0.5;
/** The least time between two moves of a clock behind the picture (see `sinceSeekSec`). */
const CLOCK_BEHIND_GAP_SEC = 1;
/** HTMLMediaElement.HAVE_FUTURE_DATA (the constant is not there in every test environment). */
const HAVE_FUTURE_DATA = 3;

/**
 * Whether an element that should play waits at its playhead: readyState below HAVE_FUTURE_DATA,
 * or a clock that did not move since the last look (`progressed`). A paused one waits on purpose.
 */
export function waitingAtPlayhead(video: Pick<HTMLVideoElement, 'paused' | 'readyState'>, progressed: boolean): boolean {
  return !video.paused && (video.readyState < HAVE_FUTURE_DATA || !progressed);
}
/** Catch-up starts at this surplus and carries on down to STOP_AT_SEC (hysteresis). */
const START_AT_SEC = 0.04;
const STOP_AT_SEC = 0.01;
/** Frame duration assumed before the stream's frame rate is known (10 fps). */
const DEFAULT_FRAME_SEC = 0.1;

/**
 * Keep the playhead near the live edge, smoothly:
 * - A starved element (waiting for the next frame at the end of the buffer) is never sped up nor
 *   moved: it is as live as the stream allows, and speeding up would only run it dry again.
 * - A real surplus of buffered media over the target is played out a little faster (1.03–1.1×,
 *   in proportion), from 40 ms over the target down to 10 ms over it.
 * - A seek drops frames, so it is kept for a surplus beyond `jumpSec`, a playhead outside the
 *   newest range (a gap after a definition change or a reconnect that Chrome would not play
 *   across), an element stuck with media ahead (see `stuckSec`), and a clock more than a frame
 *   behind the frame on screen (see `presentedTime`). It never lands on a frame already shown or
 *   an older one (`newestShownSec`): the picture does not step back.
 * - Below the target (judged on the latency measured as frames come), it plays 0.9–0.97× until the
 *   buffer holds the target again: an element that ran dry rebuilds its margin instead of staying
 *   at the edge, where Chrome shows each frame as it comes and the picture stutters.
 */
export function decideLiveEdge(input: LiveEdgeInput): LiveEdgeDecision {
  const { currentTime, ranges, targetSec, jumpSec, starved = false, stuckSec = 0, currentRate = 1, frameSec = DEFAULT_FRAME_SEC, maxRate = MAX_RATE } = input;
  const live = ranges.at(-1);
  if (!live) return { latencySec: undefined, playbackRate: 1 };
  const [start, end] = live;
  // Where the picture is: the frame on screen when it is ahead of a clock that stands still.
  const head = Math.max(currentTime, input.presentedTime ?? currentTime);
  const latencySec = end - head;
  const landing = Math.max(start, end - targetSec);
  const inLiveRange = head >= start - EPSILON_SEC && head <= end + EPSILON_SEC;
  const surplus = (input.arrivalLatencySec ?? latencySec) - targetSec;
  // Media ahead of a clock that stands still, beyond the frame at currentTime: stuck, not starved.
  const stuck = stuckSec >= STUCK_SEC && end - currentTime > frameSec + EPSILON_SEC;
  // The clock stands more than a frame behind the frame on screen: Chrome showed frames as they came
  // while its clock stood still, and once it restarts from there the picture freezes until the
  // clock has caught up with it (a still as long as the lag, and that much more latency after).
  const clockBehind =
    input.presentedTime !== undefined && input.presentedTime - currentTime > frameSec + EPSILON_SEC && (input.sinceSeekSec ?? Infinity) >= CLOCK_BEHIND_GAP_SEC;
  if (!inLiveRange || stuck || clockBehind || latencySec - targetSec > jumpSec) {
    // Not back to a frame already shown: the next one at the earliest (a hair inside it).
    const shown = Math.max(input.newestShownSec ?? -Infinity, input.presentedTime ?? -Infinity);
    const next = shown + frameSec + 0.001;
    const seekTo = Math.max(landing, next);
    // Nothing newer than what was shown is buffered yet: wait for it where the picture is.
    if (seekTo > end + EPSILON_SEC) return { latencySec: Math.max(0, latencySec), playbackRate: 1 };
    return { latencySec: end - seekTo, playbackRate: 1, seekTo };
  }
  // Below the target as frames come (measured just after each append, not the saw-tooth between
  // frames): play a little slower until the buffer holds the target again. Without it an element
  // that once ran dry stays at the edge, showing each frame as it comes, stuttering.
  if (input.arrivalLatencySec !== undefined) {
    const deficit = -surplus;
    if (deficit >= (currentRate < 1 ? STOP_AT_SEC : REBUILD_AT_SEC)) {
      const rate = Math.max(MIN_RATE, Math.min(MAX_REBUILD_RATE, 1 - deficit * GAIN_PER_SEC));
      return { latencySec, playbackRate: Math.round(rate * 100) / 100 };
    }
  }
  const catchingUp = currentRate > 1;
  if (starved || surplus <= (catchingUp ? STOP_AT_SEC : START_AT_SEC)) return { latencySec, playbackRate: 1 };
  const playbackRate = Math.min(maxRate, Math.max(MIN_CATCH_UP_RATE, 1 + surplus * GAIN_PER_SEC));
  return { latencySec, playbackRate: Math.round(playbackRate * 100) / 100 };
}

/**
 * What to remove from the front of the buffer: everything older than `keepSec` behind the
 * playhead, once at least `minSec` of it has built up (fewer, bigger removes).
 */
export function trimRange(ranges: Ranges, currentTime: number, keepSec: number, minSec = 2): [number, number] | undefined {
  const first = ranges[0];
  if (!first) return undefined;
  const cut = currentTime - keepSec;
  if (cut - first[0] < minSec || cut <= first[0]) return undefined;
  return [first[0], cut];
}
