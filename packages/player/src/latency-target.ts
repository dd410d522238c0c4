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

/** The target in force: a number as given, or `auto` worked out from the frame rate and link. */
export function latencyTargetMs(target: LatencyTarget, frameRate: number | undefined, link: LinkType | undefined): number {
  return target === 'auto' ? autoLatencyTargetMs(frameRate, link) : target;
}
