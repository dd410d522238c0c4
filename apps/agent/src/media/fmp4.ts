/**
 * Cuts an encoder's fragmented-MP4 byte stream into whole units at top-level box boundaries: the
 * init segment (everything up to and including moov) and then fragments (moof + mdat, with any
 * small boxes in between), each marked keyframe or not from its first sample's flags. Knowing the
 * boundaries lets the agent drop whole fragments when the uplink is saturated and resume at a
 * keyframe, leaving shore a stream it can still decode. Memory: at most one unfinished box.
 */

import { ByteQueue } from './byte-queue.ts';

export type Fmp4Unit =
  | { kind: 'init'; bytes: Buffer }
  | {
      kind: 'fragment';
      bytes: Buffer;
      /** The fragment starts with a sync sample; true also when the flags cannot be read. */
      keyframe: boolean;
    };

/** A box bigger than this is taken as a broken stream (one 1080p keyframe is well under 2 MiB). */
export const MAX_BOX_BYTES = 16 * 1024 * 1024;

const SAMPLE_IS_NON_SYNC = 0x0001_0000;

export interface Box {
  type: string;
  /** Offset of the payload (after the header) and the end, relative to the buffer given. */
  start: number;
  end: number;
}

/** The boxes in buf[start, end) (a parent's payload, or a whole stream), in order. */
export function* children(buf: Buffer, start: number, end: number): Generator<Box> {
  let off = start;
  while (off + 8 <= end) {
    let size = buf.readUInt32BE(off);
    const type = buf.toString('latin1', off + 4, off + 8);
    let header = 8;
    if (size === 1) {
      if (off + 16 > end) return;
      size = Number(buf.readBigUInt64BE(off + 8));
      header = 16;
    } else if (size === 0) {
      size = end - off;
    }
    if (size < header || off + size > end) return;
    yield { type, start: off + header, end: off + size };
    off += size;
  }
}

function find(buf: Buffer, parent: Box, type: string): Box | undefined {
  for (const b of children(buf, parent.start, parent.end)) if (b.type === type) return b;
  return undefined;
}

/** trex default_sample_flags from a moov (single-track streams: the first trex). */
function trexDefaultFlags(moov: Buffer): number | undefined {
  const root: Box = { type: 'moov', start: 8, end: moov.length };
  const mvex = find(moov, root, 'mvex');
  const trex = mvex && find(moov, mvex, 'trex');
  // version/flags(4) track_ID(4) description_index(4) duration(4) size(4) flags(4)
  return trex && trex.end - trex.start >= 24 ? moov.readUInt32BE(trex.start + 20) : undefined;
}

/** Flags of the first sample of a moof, following ISO/IEC 14496-12's precedence; undefined if unknown. */
export function firstSampleFlags(moof: Buffer, trexFlags?: number): number | undefined {
  const root: Box = { type: 'moof', start: 8, end: moof.length };
  const traf = find(moof, root, 'traf');
  if (!traf) return undefined;
  const trun = find(moof, traf, 'trun');
  if (trun && trun.end - trun.start >= 8) {
    const flags = moof.readUInt32BE(trun.start) & 0xffffff;
    const count = moof.readUInt32BE(trun.start + 4);
    let off = trun.start + 8;
    if (flags & 0x1) off += 4; // data offset
    if (flags & 0x4) return off + 4 <= trun.end ? moof.readUInt32BE(off) : undefined;
    if (flags & 0x400 && count > 0) {
      if (flags & 0x100) off += 4; // sample duration
      if (flags & 0x200) off += 4; // sample size
      return off + 4 <= trun.end ? moof.readUInt32BE(off) : undefined;
    }
  }
  const tfhd = find(moof, traf, 'tfhd');
  if (tfhd && tfhd.end - tfhd.start >= 8) {
    const flags = moof.readUInt32BE(tfhd.start) & 0xffffff;
    let off = tfhd.start + 8; // version/flags, track_ID
    if (flags & 0x1) off += 8; // base data offset
    if (flags & 0x2) off += 4; // sample description index
    if (flags & 0x8) off += 4; // default duration
    if (flags & 0x10) off += 4; // default size
    if (flags & 0x20) return off + 4 <= tfhd.end ? moof.readUInt32BE(off) : undefined;
  }
  return trexFlags;
}

export class Fmp4Reader {
  private readonly bytes = new ByteQueue();
  /** Boxes of the unit being gathered (init, or a fragment up to its mdat). */
  private unit: Buffer[] = [];
  private moof: Buffer | undefined;
  private trexFlags: number | undefined;
  private initDone = false;

  /** Bytes held waiting for the rest of a box. */
  get pendingBytes(): number {
    return this.bytes.length + this.unit.reduce((n, b) => n + b.length, 0);
  }

  /** Feeds bytes in stream order; returns the units they complete. Throws on a malformed stream. */
  push(chunk: Uint8Array): Fmp4Unit[] {
    this.bytes.push(chunk);
    const out: Fmp4Unit[] = [];
    for (;;) {
      const box = this.nextBox();
      if (!box) return out;
      const type = box.toString('latin1', 4, 8);
      this.unit.push(box);
      if (!this.initDone) {
        if (type === 'moov') {
          this.trexFlags = trexDefaultFlags(box);
          this.initDone = true;
          out.push({ kind: 'init', bytes: this.takeUnit() });
        }
      } else if (type === 'moof') {
        this.moof = box;
      } else if (type === 'mdat' && this.moof) {
        const flags = firstSampleFlags(this.moof, this.trexFlags);
        this.moof = undefined;
        out.push({ kind: 'fragment', bytes: this.takeUnit(), keyframe: flags === undefined || (flags & SAMPLE_IS_NON_SYNC) === 0 });
      }
    }
  }

  private takeUnit(): Buffer {
    const bytes = this.unit.length === 1 ? (this.unit[0] as Buffer) : Buffer.concat(this.unit);
    this.unit = [];
    return bytes;
  }

  /** Removes and returns one whole top-level box from the front of the buffered bytes, if there is one. */
  private nextBox(): Buffer | undefined {
    if (this.bytes.length < 8) return undefined;
    const head = this.bytes.peek(Math.min(16, this.bytes.length));
    let size = head.readUInt32BE(0);
    if (size === 1) {
      if (head.length < 16) return undefined;
      size = Number(head.readBigUInt64BE(8));
    }
    if (size < 8) throw new Error(`malformed MP4 stream: box size ${size}`);
    if (size > MAX_BOX_BYTES) throw new Error(`MP4 box of ${size} bytes exceeds ${MAX_BOX_BYTES}`);
    if (this.bytes.length < size) return undefined;
    return this.bytes.take(size);
  }
}
