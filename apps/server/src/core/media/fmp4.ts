/**
 * Fragmented MP4 on shore: the shared reader (@ship-cctv/media) with the relay's one rule — the
 * video must be H.264 (what every browser decodes) or AV1 (sent only to viewers that decode it). Audio tracks are kept and
 * carried to the player alongside the video.
 */
import { Fmp4Splitter, type Fmp4SplitterOptions } from '@ship-cctv/media';

export {
  DEFAULT_MAX_BOX_BYTES,
  Fmp4Error,
  type Fmp4ErrorCode,
  type Fmp4Unit,
  type InitSegment,
  type MediaFragment,
  type OtherBox,
  type TrackInfo,
  type TrackRun,
  mimeFor,
} from '@ship-cctv/media';

/**
 * Video sample entries the relay carries: H.264 (avc1, or avc3 with parameter sets in band), and
 * AV1 (av01) and an H.265 camera's own pictures (hvc1, hev1), which shore sends only to viewers
 * that said they decode them; the shore recorder keeps whichever arrives.
 */
export const RELAY_VIDEO_ENTRIES: ReadonlySet<string> = new Set(['avc1', 'avc3', 'av01', 'hvc1', 'hev1']);

/** The shared splitter, refusing (as 'unsupported') video of any other sample entry. */
export class RelaySplitter extends Fmp4Splitter {
  constructor(options: Omit<Fmp4SplitterOptions, 'videoEntries'> = {}) {
    super({ ...options, videoEntries: RELAY_VIDEO_ENTRIES });
  }
}
