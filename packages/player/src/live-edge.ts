/** Buffered time ranges as plain pairs, so the decisions below are pure and testable. */
export type Ranges = ReadonlyArray<readonly [start: number, end: number]>;

export function toRanges(buffered: TimeRanges): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < buffered.length; i++) out.push([buffered.start(i), buffered.end(i)]);
  return out;
}

export interface LiveEdgeInput {
  currentTime: number;
  ranges: Ranges;
  targetSec: number;
  /** Further behind than this: seek rather than speed up. */
  jumpSec: number;
  maxRate?: number;
}

export interface LiveEdgeDecision {
  /** End of the newest buffered range minus currentTime; undefined with nothing buffered. */
  latencySec: number | undefined;
  playbackRate: number;
  seekTo?: number;
}

/** Below this excess over the target the rate stays 1.0, so it does not flap on frame jitter. */
const DEADBAND_SEC = 0.05;
/** Rate gained per second of excess latency: 0.2 s late plays at 1.2×. */
const GAIN_PER_SEC = 1;
/** Allowance for float error when asking whether currentTime lies in a range. */
const EPSILON_SEC = 0.01;

/**
 * Keep the playhead near the live edge. Speeding up (≤ maxRate) is invisible on a camera feed and
 * keeps every frame; a seek drops frames, so it is kept for big lags and for a playhead that sits
 * outside the newest range (a gap after a definition change or a reconnect that Chrome would not
 * play across by itself). Never slower than 1.0: slowing down would only add latency.
 */
export function decideLiveEdge(input: LiveEdgeInput): LiveEdgeDecision {
  const { currentTime, ranges, targetSec, jumpSec, maxRate = 1.5 } = input;
  const live = ranges.at(-1);
  if (!live) return { latencySec: undefined, playbackRate: 1 };
  const [start, end] = live;
  const latencySec = end - currentTime;
  const landing = Math.max(start, end - targetSec);
  const inLiveRange = currentTime >= start - EPSILON_SEC && currentTime <= end + EPSILON_SEC;
  if (!inLiveRange || latencySec > jumpSec) {
    return { latencySec: end - landing, playbackRate: 1, seekTo: landing };
  }
  const excess = latencySec - targetSec;
  const playbackRate = excess <= DEADBAND_SEC ? 1 : Math.min(maxRate, 1 + excess * GAIN_PER_SEC);
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
