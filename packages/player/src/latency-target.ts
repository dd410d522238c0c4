import type { LinkType } from '@ship-cctv/protocol';

/** What MsePlayerOptions.liveLatencyTargetMs takes: a fixed latency, or one derived from the stream and link. */
export type LatencyTarget = 'auto' | number;

/**
 * Links with a short, steady delay: 4G near port and low-earth-orbit (reported as AUTO). Frames
 * come about as evenly as the camera makes them, so the player can hold one frame plus a little.
 */
const STEADY_LINKS: ReadonlySet<LinkType> = new Set<LinkType>(['FOURTHG', 'AUTO']);
/** Jitter allowance on a steady link: a frame may come this much late without the picture stopping. */
const STEADY_JITTER_MS = 40;
/** Geostationary and L-band links (VSAT, FBB, FX, Iridium) and links not known: room for their jitter. */
const SATELLITE_TARGET_MS = 300;
/** Jitter allowance on a satellite link, over one frame, for slow frame rates. */
const SATELLITE_JITTER_MS = 200;
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
 * The latency (end of the buffer − playhead) to hold. The buffer always holds the frame on screen,
 * so the least is one frame duration; on top comes an allowance for frames that come late. On a
 * steady link that is the larger of 40 ms and 40 % of a frame (10 fps: 140 ms); elsewhere 300 ms
 * or one frame plus 200 ms, whichever is more.
 */
export function autoLatencyTargetMs(frameRate: number | undefined, link: LinkType | undefined): number {
  const frameMs = frameDurationMs(frameRate);
  if (link && STEADY_LINKS.has(link)) return Math.round(frameMs + Math.max(STEADY_JITTER_MS, frameMs * 0.4));
  return Math.round(Math.max(SATELLITE_TARGET_MS, frameMs + SATELLITE_JITTER_MS));
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
  // The link's figure is the floor: below it Chrome's element runs dry and the picture stutters
  // however even the frames come (packages/player/README.md, "Smoothness"); measured jitter only
  // raises it (a lossy satellite link's stalls).
  const floor = autoLatencyTargetMs(frameRate, link);
  return measuredAllowanceMs === undefined ? floor : Math.max(floor, measuredLatencyTargetMs(frameRate, measuredAllowanceMs));
}
