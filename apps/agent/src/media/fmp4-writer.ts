/**
 * Writes the fragmented MP4 the agent link carries (ISO/IEC 14496-12 and 14496-15), the same
 * layout ffmpeg's `-movflags +frag_every_frame+empty_moov+default_base_moof` produces: an init
 * segment (ftyp + moov with one H.264 video track and no samples, mvex/trex) and per frame one
 * moof (mfhd, traf: tfhd default-base-is-moof with default duration, size and flags; tfdt
 * version 1; trun with the data offset and, for a keyframe, first-sample-flags) + mdat.
 */

export interface InitSegmentOptions {
  /** AVCDecoderConfigurationRecord (the avcC payload). */
  avcConfig: Buffer;
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
  data: Buffer;
}

export const TRACK_ID = 1;
/** sample_depends_on = 2 (an I-frame, depends on no other sample). */
export const SYNC_SAMPLE_FLAGS = 0x0200_0000;
/** sample_depends_on = 1, sample_is_non_sync_sample. */
export const NON_SYNC_SAMPLE_FLAGS = 0x0101_0000;

function box(type: string, ...parts: Buffer[]): Buffer {
  const size = 8 + parts.reduce((n, p) => n + p.length, 0);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(size, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, ...parts], size);
}

/** A FullBox: version and 24-bit flags before the payload. */
function fullBox(type: string, version: number, flags: number, ...parts: Buffer[]): Buffer {
  const vf = Buffer.alloc(4);
  vf.writeUInt32BE(((version << 24) | (flags & 0xffffff)) >>> 0, 0);
  return box(type, vf, ...parts);
}

function u32s(...values: number[]): Buffer {
  const b = Buffer.alloc(4 * values.length);
  values.forEach((v, i) => b.writeUInt32BE(v >>> 0, i * 4));
  return b;
}

/** The unity matrix of mvhd and tkhd. */
const MATRIX = u32s(0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000);

export function initSegment(o: InitSegmentOptions): Buffer {
  const ftyp = box('ftyp', Buffer.from('iso5', 'latin1'), u32s(512), Buffer.from('iso5iso6mp41', 'latin1'));
  const mvhd = fullBox(
    'mvhd', 0, 0,
    u32s(0, 0, 1000, 0), // creation, modification, timescale (ms), duration (unknown: live)
    u32s(0x0001_0000), // rate 1.0
    Buffer.from([0x01, 0x00, 0, 0]), // volume 1.0, reserved
    u32s(0, 0), // reserved
    MATRIX,
    Buffer.alloc(24), // pre_defined
    u32s(TRACK_ID + 1), // next_track_ID
  );
  const tkhd = fullBox(
    'tkhd', 0, 0x3, // enabled, in movie
    u32s(0, 0, TRACK_ID, 0, 0), // creation, modification, track_ID, reserved, duration
    u32s(0, 0), // reserved
    Buffer.from([0, 0, 0, 0, 0, 0, 0, 0]), // layer, alternate_group, volume 0 (video), reserved
    MATRIX,
    u32s(o.width * 0x1_0000, o.height * 0x1_0000),
  );
  const mdhd = fullBox('mdhd', 0, 0, u32s(0, 0, o.timescale, 0), Buffer.from([0x55, 0xc4, 0, 0])); // language "und"
  const hdlr = fullBox('hdlr', 0, 0, u32s(0), Buffer.from('vide', 'latin1'), u32s(0, 0, 0), Buffer.from('VideoHandler\0', 'latin1'));
  const vmhd = fullBox('vmhd', 0, 1, Buffer.alloc(8));
  const dinf = box('dinf', fullBox('dref', 0, 0, u32s(1), fullBox('url ', 0, 1)));
  const visual = Buffer.alloc(78);
  visual.writeUInt16BE(1, 6); // data_reference_index
  visual.writeUInt16BE(o.width, 24);
  visual.writeUInt16BE(o.height, 26);
  visual.writeUInt32BE(0x0048_0000, 28); // 72 dpi
  visual.writeUInt32BE(0x0048_0000, 32);
  visual.writeUInt16BE(1, 40); // frame_count
  visual.writeUInt16BE(0x0018, 74); // depth
  visual.writeInt16BE(-1, 76); // pre_defined
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
  return Buffer.concat([ftyp, box('moov', mvhd, trak, mvex)]);
}

/** tfhd flags: default-base-is-moof, default sample duration, size and flags present. */
const TFHD_FLAGS = 0x02_0000 | 0x08 | 0x10 | 0x20;
/** trun flags: data offset, first-sample-flags, sample composition time offset. */
const TRUN_DATA_OFFSET = 0x1;
const TRUN_FIRST_SAMPLE_FLAGS = 0x4;
const TRUN_COMPOSITION_OFFSET = 0x800;

/** One frame as moof + mdat. */
export function mediaFragment(o: FragmentOptions): Buffer {
  const decodeTime = BigInt(Math.round(o.baseMediaDecodeTime));
  const tfdtTime = Buffer.alloc(8);
  tfdtTime.writeBigUInt64BE(decodeTime);
  const offset = Math.round(o.compositionOffset ?? 0);
  const trunFlags = TRUN_DATA_OFFSET | (o.keyframe ? TRUN_FIRST_SAMPLE_FLAGS : 0) | (offset !== 0 ? TRUN_COMPOSITION_OFFSET : 0);
  const trunFields = [1, 0 /* data offset, patched below */, ...(o.keyframe ? [SYNC_SAMPLE_FLAGS] : [])];
  const trunBody = u32s(...trunFields);
  const trunTail = offset !== 0 ? Buffer.alloc(4) : Buffer.alloc(0);
  if (offset !== 0) trunTail.writeInt32BE(offset, 0);
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
  moof.writeUInt32BE(moof.length + 8, moof.length - trun.length + 16);
  const mdatHead = Buffer.alloc(8);
  mdatHead.writeUInt32BE(8 + o.data.length, 0);
  mdatHead.write('mdat', 4, 'latin1');
  return Buffer.concat([moof, mdatHead, o.data]);
}
