/**
 * Whether this browser can run a FramePlayer (frames decoded by the page and painted at their
 * time): WebCodecs' VideoDecoder and a track fed with frames (MediaStreamTrackGenerator: Chrome,
 * Edge), in a secure context (https or localhost). Apart from the player so a page can ask before
 * it loads the player's code.
 */
export function framePlayerSupported(): boolean {
  const g = globalThis as { VideoDecoder?: unknown; MediaStreamTrackGenerator?: unknown; isSecureContext?: boolean };
  return typeof g.VideoDecoder === 'function' && typeof g.MediaStreamTrackGenerator === 'function' && g.isSecureContext !== false;
}
