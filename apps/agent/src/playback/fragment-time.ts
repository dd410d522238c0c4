/**
 * Media time in fragmented MP4, read and moved in place: the track's timescale (init segment:
 * moov/trak/mdia/mdhd) and each fragment's start (moof/traf/tfdt baseMediaDecodeTime). A playback
 * made of several ffmpeg runs (one per recorded span, and one more after each resume) is stitched
 * into one stream with one init segment by moving each run's fragments to where the previous run
 * stopped, so the shore player sees played time run on without a jump.
 */

import { type Box, children } from '../media/fmp4.ts';

function find(buf: Buffer, start: number, end: number, path: readonly string[]): Box | undefined {
  let range: Box | undefined = { type: '', start, end };
  for (const type of path) {
    let next: Box | undefined;
    for (const b of children(buf, range.start, range.end)) {
      if (b.type === type) {
        next = b;
        break;
      }
    }
    if (!next) return undefined;
    range = next;
  }
  return range;
}

/** The first track's timescale (ticks per second) from an init segment; undefined when absent. */
export function initTimescale(init: Buffer): number | undefined {
  const mdhd = find(init, 0, init.length, ['moov', 'trak', 'mdia', 'mdhd']);
  if (!mdhd || mdhd.end - mdhd.start < 24) return undefined;
  const version = init.readUInt8(mdhd.start);
  return init.readUInt32BE(mdhd.start + (version === 1 ? 20 : 12));
}

function tfdtOf(fragment: Buffer): Box | undefined {
  const moof = find(fragment, 0, fragment.length, ['moof']);
  if (!moof) return undefined;
  return find(fragment, moof.start, moof.end, ['traf', 'tfdt']);
}

/** A fragment's decode start in timescale ticks; undefined without a tfdt. */
export function fragmentStart(fragment: Buffer): number | undefined {
  const tfdt = tfdtOf(fragment);
  if (!tfdt) return undefined;
  const version = fragment.readUInt8(tfdt.start);
  return version === 1 ? Number(fragment.readBigUInt64BE(tfdt.start + 4)) : fragment.readUInt32BE(tfdt.start + 4);
}

/** Moves a fragment's decode start by `ticks` (in place). Throws when the fragment has no tfdt or a 32-bit one overflows. */
export function shiftFragment(fragment: Buffer, ticks: number): void {
  if (ticks === 0) return;
  const tfdt = tfdtOf(fragment);
  if (!tfdt) throw new Error('fragment without a decode time (tfdt)');
  const version = fragment.readUInt8(tfdt.start);
  if (version === 1) {
    const value = fragment.readBigUInt64BE(tfdt.start + 4) + BigInt(ticks);
    fragment.writeBigUInt64BE(value < 0n ? 0n : value, tfdt.start + 4);
  } else {
    const value = fragment.readUInt32BE(tfdt.start + 4) + ticks;
    if (value > 0xffff_ffff) throw new Error('fragment decode time beyond 32 bits');
    fragment.writeUInt32BE(Math.max(0, value), tfdt.start + 4);
  }
}
