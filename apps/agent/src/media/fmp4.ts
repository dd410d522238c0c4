/**
 * Cuts an encoder's fragmented-MP4 byte stream into whole units with the shared splitter
 * (@ship-cctv/media): the init segment, then fragments (moof + mdat, with any small boxes before
 * them), each marked keyframe or not from its video's first sample. Knowing the boundaries lets the
 * agent drop whole fragments when the uplink is saturated and resume at a keyframe, leaving shore a
 * stream it can still decode. Audio tracks are kept. Memory: at most one unfinished unit.
 */
import { Fmp4Splitter, TRACK_ID, readBaseDecodeTime, withProducerTime } from '@ship-cctv/media';

export type Fmp4Unit =
  | { kind: 'init'; bytes: Buffer }
  | {
      kind: 'fragment';
      bytes: Buffer;
      /** The fragment's video starts with a sync sample. */
      keyframe: boolean;
      /** Bytes of sound frames in it (the samples, without their boxes), when the packager knows. */
      audioBytes?: number;
    };

/** A box bigger than this is taken as a broken stream (one 1080p keyframe is well under 2 MiB). */
export const MAX_BOX_BYTES = 16 * 1024 * 1024;

/** The same bytes as a Buffer (no copy). */
export const asBuffer = (bytes: Uint8Array): Buffer => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

export class Fmp4Reader {
  private readonly splitter = new Fmp4Splitter({ maxBoxBytes: MAX_BOX_BYTES });

  /**
   * `outputClock` (epoch ms): each fragment gets a producer reference time box saying when it left
   * here, as the FLV packager writes for its streams (the player's picture age). For a camera's own
   * pictures passed through, whose fragments the agent wrote itself.
   */
  constructor(private readonly opts: { outputClock?: () => number } = {}) {}

  /** Bytes held waiting for the rest of a box. */
  get pendingBytes(): number {
    return this.splitter.bufferedBytes;
  }

  /** Feeds bytes in stream order; returns the units they complete. Throws on a malformed stream. */
  push(chunk: Uint8Array): Fmp4Unit[] {
    const out: Fmp4Unit[] = [];
    for (const unit of this.splitter.push(chunk)) {
      if (unit.kind === 'init') out.push({ kind: 'init', bytes: asBuffer(unit.data) });
      else if (unit.kind === 'fragment') out.push({ kind: 'fragment', bytes: asBuffer(this.stamped(unit.data)), keyframe: unit.keyframe });
      // Other top-level boxes (free, mfra…) carry no media and do not go up the link.
    }
    return out;
  }

  private stamped(fragment: Uint8Array): Uint8Array {
    const clock = this.opts.outputClock;
    const mediaTime = clock ? readBaseDecodeTime(fragment, TRACK_ID) : undefined;
    return clock && mediaTime !== undefined ? withProducerTime(fragment, { trackId: TRACK_ID, wallMs: clock(), mediaTime }) : fragment;
  }
}
