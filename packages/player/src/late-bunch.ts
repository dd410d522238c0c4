/**
 * Frames that came together after a gap: a stall upstream of the player (the ship, shore or this
 * machine pausing) releases the frames it held in one bunch, the oldest the latest; so does a slow
 * link delivering a joining viewer's pictures since the keyframe. Both live players' jitter measures
 * (PlayoutClock, ArrivalJitter) count such a bunch as one event: alone in their window it is not
 * waited for. (A joining viewer's pictures on a fast link are stamped a millisecond apart by the
 * ship, so they are no bunch by this test: the measures leave out a stream's first second instead.)
 */

/** A frame's arrival: when it came, its media time and its lateness (arrival − media time), ms. */
export interface Arrival {
  wallMs: number;
  mediaMs: number;
  lateness: number;
}

/**
 * Whether `cur` came with `prev`, in one bunch: less than half its media step after it (frames
 * sent as they are captured come a frame apart).
 */
export function cameTogether(prev: Arrival | undefined, cur: Arrival | undefined): boolean {
  if (!prev || !cur) return false;
  const mediaStep = cur.mediaMs - prev.mediaMs;
  return mediaStep > 0 && cur.wallMs - prev.wallMs < mediaStep / 2;
}

/** How many arrivals from `from` on came in one bunch with it (1 for a frame alone). */
function bunchLength(arrivals: readonly Arrival[], from: number): number {
  let n = 1;
  while (from + n < arrivals.length && cameTogether(arrivals[from + n - 1], arrivals[from + n])) n++;
  return n;
}

/**
 * The lateness of the arrivals from `from` on that a jitter measure counts: without the worst bunch
 * among them (the latest frame and those that came right after it, together) — unless fewer than
 * `minCounted` would be left, when all count.
 */
export function countedLateness(arrivals: readonly Arrival[], from: number, minCounted: number): number[] {
  let worst = -1;
  for (let i = from; i < arrivals.length; i++) {
    if (worst < 0 || (arrivals[i]?.lateness ?? 0) > (arrivals[worst]?.lateness ?? 0)) worst = i;
  }
  const skip = worst < 0 ? 0 : bunchLength(arrivals, worst);
  const all = arrivals.slice(from).map((a) => a.lateness);
  if (all.length - skip < minCounted) return all;
  return all.filter((_, i) => i + from < worst || i + from >= worst + skip);
}
