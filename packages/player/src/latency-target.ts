import type { LinkType } from '@ship-cctv/protocol';

/** What MsePlayerOptions.liveLatencyTargetMs takes: a fixed latency, or one derived from the stream and link. */
export type LatencyTarget = 'auto' | number;

/**
 * The least an `auto` target holds, on every link: Chrome's media element plays evenly only with
 * a queue beyond the frame on screen. Measured on 4G at 10 fps (README, "Smoothness"): 140 ms →
 * 3.2 % of frames dropped or frozen over 10 minutes, 300 ms → 0.27 %; with a clock that ran dry
 * moved up to the picture at once (decideLiveEdge), 250 ms → 0.79 % over 2 minutes against 0.88 %
 * at 300 in the same page, and 0.09 % on loopback.
 */
const QUEUE_MS = 150;
/** A target of at least this much, whatever the frame rate. */
const LEAST_TARGET_MS = 250;
/** The least allowance for late frames once they are measured, even on a perfectly even link. */
const MIN_MEASURED_ALLOWANCE_MS = 20;
/** Over the measured allowance: the quantile is of the last seconds, the next late frame may come a little later. */
const MEASURED_MARGIN_MS = 10;
/** The most the measured allowance adds: beyond it the link is not jittery but failing, and the stall watchdog speaks. */
const MAX_MEASURED_ALLOWANCE_MS = 1_500;
/** Frame rate assumed before the stream's `codec` message says. */
const DEFAULT_FRAME_RATE = 10;

export function frameDurationMs(frameRate: number | undefined): number {
  return 1000 / (frameRate && frameRate > 0 ? frameRate : DEFAULT_FRAME_RATE);
}

/**
 * The latency (end of the buffer − playhead) to hold before any jitter is measured: the frame on
 * screen plus the queue the element needs to play evenly — 250 ms, or a frame + 150 ms for slow
 * frame rates. The same on every link: a steady 4G link stutters below it as much as any (the
 * link is passed for the record and for links that may need more one day).
 */
export function autoLatencyTargetMs(frameRate: number | undefined, _link: LinkType | undefined): number {
  return Math.round(Math.max(LEAST_TARGET_MS, frameDurationMs(frameRate) + QUEUE_MS));
}

/**
 * An `auto` target once the frames' arrival has been measured (ArrivalJitter): one frame plus how
 * much later than the usual frame the late ones came lately, and a margin.
 */
export function measuredLatencyTargetMs(frameRate: number | undefined, allowanceMs: number): number {
  const allowance = Math.min(MAX_MEASURED_ALLOWANCE_MS, Math.max(MIN_MEASURED_ALLOWANCE_MS, allowanceMs + MEASURED_MARGIN_MS));
  return Math.round(frameDurationMs(frameRate) + allowance);
}

/**
 * The target in force: a number as given; `auto`: the link's figure, raised to what the measured
 * arrival jitter needs when that is more.
 */
export function latencyTargetMs(target: LatencyTarget, frameRate: number | undefined, link: LinkType | undefined, measuredAllowanceMs?: number): number {
  if (target !== 'auto') return target;
  // The least target is the floor: below it Chrome's element runs dry and the picture stutters
  // however even the frames come (packages/player/README.md, "Smoothness"); measured jitter only
  // raises it (a lossy satellite link's stalls).
  const floor = autoLatencyTargetMs(frameRate, link);
  return measuredAllowanceMs === undefined ? floor : Math.max(floor, measuredLatencyTargetMs(frameRate, measuredAllowanceMs));
}
