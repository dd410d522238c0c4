/**
 * Writes fragmented MP4 (ISO/IEC 14496-12 and 14496-15) in the layout ffmpeg's
 * `-movflags +frag_every_frame+empty_moov+default_base_moof` produces: an init segment (ftyp + moov
 * with one H.264 video track and no samples, mvex/trex) and per frame one moof (mfhd, traf: tfhd
 * default-base-is-moof with default duration, size and flags; tfdt version 1; trun with the data
 * offset and, for a keyframe, first-sample-flags) + mdat.
 */

export interface InitSegmentOptions {
  /** AVCDecoderConfigurationRecord (the avcC payload). */
  avcConfig: Uint8Array;
  width: number;
  height: number;
  /** Ticks per second of the track. */
  timescale: number;
}

export interface FragmentOptions {
  /** mfhd sequence number, from 1. */
  sequence: number;
  /** Decode time of the sample, in timescale ticks. */
  baseMediaDecodeTime: number;
  /** In timescale ticks. */
  duration: number;
  keyframe: boolean;
  /** Presentation − decode time, in ticks (0 without B-frames). */
  compositionOffset?: number;
  /** The sample: NAL units behind their lengths. */
  data: Uint8Array;
}

export const TRACK_ID = 1;
/** sample_depends_on = 2 (an I-frame, depends on no other sample). */
export const SYNC_SAMPLE_FLAGS = 0x0200_0000;
/** sample_depends_on = 1, sample_is_non_sync_sample. */
export const NON_SYNC_SAMPLE_FLAGS = 0x0101_0000;

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);

export function box(type: string, ...parts: Uint8Array[]): Uint8Array {
  const out = concatBytes([new Uint8Array(8), ...parts]);
  new DataView(out.buffer).setUint32(0, out.length);
  out.set(latin1(type), 4);
  return out;
}

/** A FullBox: version and 24-bit flags before the payload. */
export function fullBox(type: string, version: number, flags: number, ...parts: Uint8Array[]): Uint8Array {
  return box(type, u32s(((version << 24) | (flags & 0xffffff)) >>> 0), ...parts);
}

export function u32s(...values: number[]): Uint8Array {
  const b = new Uint8Array(4 * values.length);
  const view = new DataView(b.buffer);
  values.forEach((v, i) => view.setUint32(i * 4, v >>> 0));
  return b;
}

/** The unity matrix of mvhd and tkhd. */
const MATRIX = u32s(0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000);

export function initSegment(o: InitSegmentOptions): Uint8Array {
  const ftyp = box('ftyp', latin1('iso5'), u32s(512), latin1('iso5iso6mp41'));
  const mvhd = fullBox(
    'mvhd', 0, 0,
    u32s(0, 0, 1000, 0), // creation, modification, timescale (ms), duration (unknown: live)
    u32s(0x0001_0000), // rate 1.0
    Uint8Array.of(0x01, 0x00, 0, 0), // volume 1.0, reserved
    u32s(0, 0), // reserved
    MATRIX,
    new Uint8Array(24), // pre_defined
    u32s(TRACK_ID + 1), // next_track_ID
  );
  const tkhd = fullBox(
    'tkhd', 0, 0x3, // enabled, in movie
    u32s(0, 0, TRACK_ID, 0, 0), // creation, modification, track_ID, reserved, duration
    u32s(0, 0), // reserved
    new Uint8Array(8), // layer, alternate_group, volume 0 (video), reserved
    MATRIX,
    u32s(o.width * 0x1_0000, o.height * 0x1_0000),
  );
  const mdhd = fullBox('mdhd', 0, 0, u32s(0, 0, o.timescale, 0), Uint8Array.of(0x55, 0xc4, 0, 0)); // language "und"
  const hdlr = fullBox('hdlr', 0, 0, u32s(0), latin1('vide'), u32s(0, 0, 0), latin1('VideoHandler\0'));
  const vmhd = fullBox('vmhd', 0, 1, new Uint8Array(8));
  const dinf = box('dinf', fullBox('dref', 0, 0, u32s(1), fullBox('url ', 0, 1)));
  const visual = new Uint8Array(78);
  const v = new DataView(visual.buffer);
  v.setUint16(6, 1); // data_reference_index
  v.setUint16(24, o.width);
  v.setUint16(26, o.height);
  v.setUint32(28, 0x0048_0000); // 72 dpi
  v.setUint32(32, 0x0048_0000);
  v.setUint16(40, 1); // frame_count
  v.setUint16(74, 0x0018); // depth
  v.setInt16(76, -1); // pre_defined
  const avc1 = box('avc1', visual, box('avcC', o.avcConfig));
  const stbl = box(
    'stbl',
    fullBox('stsd', 0, 0, u32s(1), avc1),
    fullBox('stts', 0, 0, u32s(0)),
    fullBox('stsc', 0, 0, u32s(0)),
    fullBox('stsz', 0, 0, u32s(0, 0)),
    fullBox('stco', 0, 0, u32s(0)),
  );
  const trak = box('trak', tkhd, box('mdia', mdhd, hdlr, box('minf', vmhd, dinf, stbl)));
  const mvex = box('mvex', fullBox('trex', 0, 0, u32s(TRACK_ID, 1, 0, 0, 0)));
  return concatBytes([ftyp, box('moov', mvhd, trak, mvex)]);
}

/** tfhd flags: default-base-is-moof, default sample duration, size and flags present. */
const TFHD_FLAGS = 0x02_0000 | 0x08 | 0x10 | 0x20;
/** trun flags: data offset, first-sample-flags, sample composition time offset. */
const TRUN_DATA_OFFSET = 0x1;
const TRUN_FIRST_SAMPLE_FLAGS = 0x4;
const TRUN_COMPOSITION_OFFSET = 0x800;

/** One frame as moof + mdat. */
export function mediaFragment(o: FragmentOptions): Uint8Array {
  const tfdtTime = new Uint8Array(8);
  new DataView(tfdtTime.buffer).setBigUint64(0, BigInt(Math.round(o.baseMediaDecodeTime)));
  const offset = Math.round(o.compositionOffset ?? 0);
  const trunFlags = TRUN_DATA_OFFSET | (o.keyframe ? TRUN_FIRST_SAMPLE_FLAGS : 0) | (offset !== 0 ? TRUN_COMPOSITION_OFFSET : 0);
  const trunBody = u32s(1, 0 /* data offset, patched below */, ...(o.keyframe ? [SYNC_SAMPLE_FLAGS] : []));
  const trunTail = new Uint8Array(offset !== 0 ? 4 : 0);
  if (offset !== 0) new DataView(trunTail.buffer).setInt32(0, offset);
  // Version 1: the composition offset is signed.
  const trun = fullBox('trun', offset !== 0 ? 1 : 0, trunFlags, trunBody, trunTail);
  const moof = box(
    'moof',
    fullBox('mfhd', 0, 0, u32s(o.sequence)),
    box(
      'traf',
      fullBox('tfhd', 0, TFHD_FLAGS, u32s(TRACK_ID, Math.round(o.duration), o.data.length, NON_SYNC_SAMPLE_FLAGS)),
      fullBox('tfdt', 1, 0, tfdtTime),
      trun,
    ),
  );
  // The data offset counts from the moof's first byte (default-base-is-moof) to the sample.
  new DataView(moof.buffer).setUint32(moof.length - trun.length + 16, moof.length + 8);
  const mdatHead = new Uint8Array(8);
  new DataView(mdatHead.buffer).setUint32(0, 8 + o.data.length);
  mdatHead.set(latin1('mdat'), 4);
  return concatBytes([moof, mdatHead, o.data]);
}
