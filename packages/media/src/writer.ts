/**
 * Writes fragmented MP4 (ISO/IEC 14496-12 and 14496-15) in the layout ffmpeg's
 * `-movflags +frag_every_frame+empty_moov+default_base_moof` produces: an init segment (ftyp + moov
 * with one H.264 or H.265 (`hvc1`) video track and no samples, mvex/trex) and per frame one moof (mfhd, traf: tfhd
 * default-base-is-moof with default duration, size and flags; tfdt version 1; trun with the data
 * offset and, for a keyframe, first-sample-flags) + mdat.
 *
 * With sound: the init segment gets a second track (AAC: `mp4a` with its `esds`, ISO/IEC 14496-14),
 * and a frame's fragment may carry the sound frames that came since the previous picture as a
 * second traf (one trun of sample sizes, the duration a tfhd default) after the picture in the
 * same mdat — one moof per picture, not one per sound frame, which keeps the bytes per fragment
 * low on a slow uplink.
 */

export interface InitSegmentOptions {
  /** AVCDecoderConfigurationRecord (the avcC payload): an `avc1` track. One of avcConfig and hvcConfig. */
  avcConfig?: Uint8Array;
  /** HEVCDecoderConfigurationRecord (the hvcC payload, hevc.ts hevcConfigRecord): an `hvc1` track. */
  hvcConfig?: Uint8Array;
  width: number;
  height: number;
  /** Ticks per second of the track. */
  timescale: number;
  /** A sound track (track AUDIO_TRACK_ID) besides the picture. */
  audio?: AudioTrackOptions;
}

export interface AudioTrackOptions {
  /** AudioSpecificConfig (ISO/IEC 14496-3), the esds DecoderSpecificInfo. */
  audioConfig: Uint8Array;
  /** Samples per second; also the track's timescale. */
  sampleRate: number;
  channels: number;
  /** Average bitrate in bit/s for the esds (0: unknown). */
  bitrate?: number;
}

/** Sound frames of one fragment: consecutive AAC frames of the same duration. */
export interface AudioRun {
  /** Decode time of the first frame, in the sound track's ticks (samples). */
  baseMediaDecodeTime: number;
  /** Ticks per frame (1024 for AAC-LC). */
  sampleDuration: number;
  samples: readonly Uint8Array[];
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
  /** Sound frames riding with this picture (the stream's init segment has a sound track). */
  audio?: AudioRun;
}

export const TRACK_ID = 1;
export const AUDIO_TRACK_ID = 2;
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
    u32s((o.audio ? AUDIO_TRACK_ID : TRACK_ID) + 1), // next_track_ID
  );
  const traks = [videoTrak(o), ...(o.audio ? [audioTrak(o.audio)] : [])];
  const trex = (id: number) => fullBox('trex', 0, 0, u32s(id, 1, 0, 0, 0));
  const mvex = box('mvex', trex(TRACK_ID), ...(o.audio ? [trex(AUDIO_TRACK_ID)] : []));
  return concatBytes([ftyp, box('moov', mvhd, ...traks, mvex)]);
}

const tkhdOf = (trackId: number, volume: number, width: number, height: number) =>
  fullBox(
    'tkhd', 0, 0x3, // enabled, in movie
    u32s(0, 0, trackId, 0, 0), // creation, modification, track_ID, reserved, duration
    u32s(0, 0), // reserved
    Uint8Array.of(0, 0, 0, 0, volume >> 8, volume & 0xff, 0, 0), // layer, alternate_group, volume (8.8), reserved
    MATRIX,
    u32s(width * 0x1_0000, height * 0x1_0000),
  );
const mdhdOf = (timescale: number) => fullBox('mdhd', 0, 0, u32s(0, 0, timescale, 0), Uint8Array.of(0x55, 0xc4, 0, 0)); // language "und"
const dinf = () => box('dinf', fullBox('dref', 0, 0, u32s(1), fullBox('url ', 0, 1)));
const stblOf = (entry: Uint8Array) =>
  box(
    'stbl',
    fullBox('stsd', 0, 0, u32s(1), entry),
    fullBox('stts', 0, 0, u32s(0)),
    fullBox('stsc', 0, 0, u32s(0)),
    fullBox('stsz', 0, 0, u32s(0, 0)),
    fullBox('stco', 0, 0, u32s(0)),
  );

function videoTrak(o: InitSegmentOptions): Uint8Array {
  const hdlr = fullBox('hdlr', 0, 0, u32s(0), latin1('vide'), u32s(0, 0, 0), latin1('VideoHandler\0'));
  const vmhd = fullBox('vmhd', 0, 1, new Uint8Array(8));
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
  if ((o.avcConfig === undefined) === (o.hvcConfig === undefined)) throw new Error('an init segment needs either an AVC or an HEVC configuration');
  const entry = o.hvcConfig ? box('hvc1', visual, box('hvcC', o.hvcConfig)) : box('avc1', visual, box('avcC', o.avcConfig as Uint8Array));
  return box('trak', tkhdOf(TRACK_ID, 0, o.width, o.height), box('mdia', mdhdOf(o.timescale), hdlr, box('minf', vmhd, dinf(), stblOf(entry))));
}

/** An MPEG-4 descriptor: tag, size (one byte: every descriptor here is under 128 bytes), body. */
function descriptor(tag: number, ...parts: Uint8Array[]): Uint8Array {
  const body = concatBytes(parts);
  if (body.length > 127) throw new Error(`descriptor ${tag} of ${body.length} bytes is too long`);
  return concatBytes([Uint8Array.of(tag, body.length), body]);
}

function audioTrak(a: AudioTrackOptions): Uint8Array {
  const hdlr = fullBox('hdlr', 0, 0, u32s(0), latin1('soun'), u32s(0, 0, 0), latin1('SoundHandler\0'));
  const smhd = fullBox('smhd', 0, 0, new Uint8Array(4)); // balance, reserved
  const fields = new Uint8Array(28);
  const f = new DataView(fields.buffer);
  f.setUint16(6, 1); // data_reference_index
  f.setUint16(16, a.channels);
  f.setUint16(18, 16); // samplesize
  f.setUint32(24, (a.sampleRate & 0xffff) * 0x1_0000); // samplerate, 16.16
  const bitrate = Math.max(0, Math.round(a.bitrate ?? 0));
  const decoderConfig = descriptor(
    0x04,
    Uint8Array.of(0x40, (0x05 << 2) | 1, 0, 0, 0), // MPEG-4 audio, audio stream, bufferSizeDB
    u32s(bitrate, bitrate), // max, average bitrate
    descriptor(0x05, a.audioConfig),
  );
  const es = descriptor(0x03, Uint8Array.of(0, AUDIO_TRACK_ID, 0), decoderConfig, descriptor(0x06, Uint8Array.of(0x02)));
  const mp4a = box('mp4a', fields, fullBox('esds', 0, 0, es));
  return box('trak', tkhdOf(AUDIO_TRACK_ID, 0x0100, 0, 0), box('mdia', mdhdOf(a.sampleRate), hdlr, box('minf', smhd, dinf(), stblOf(mp4a))));
}

/** tfhd flags: default-base-is-moof, default sample duration, size and flags present. */
const TFHD_FLAGS = 0x02_0000 | 0x08 | 0x10 | 0x20;
/** trun flags: data offset, first-sample-flags, sample composition time offset. */
const TRUN_DATA_OFFSET = 0x1;
const TRUN_FIRST_SAMPLE_FLAGS = 0x4;
const TRUN_COMPOSITION_OFFSET = 0x800;

/** tfhd of a sound run: default-base-is-moof, default sample duration (every AAC frame is as long). */
const AUDIO_TFHD_FLAGS = 0x02_0000 | 0x08;
/** trun of a sound run: data offset, sample sizes. */
const TRUN_SAMPLE_SIZE = 0x200;

const u64 = (value: number) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(Math.round(value)));
  return b;
};

/** One frame as moof + mdat, with the sound frames riding along if any. */
export function mediaFragment(o: FragmentOptions): Uint8Array {
  const offset = Math.round(o.compositionOffset ?? 0);
  const trunFlags = TRUN_DATA_OFFSET | (o.keyframe ? TRUN_FIRST_SAMPLE_FLAGS : 0) | (offset !== 0 ? TRUN_COMPOSITION_OFFSET : 0);
  const trunBody = u32s(1, 0 /* data offset, patched below */, ...(o.keyframe ? [SYNC_SAMPLE_FLAGS] : []));
  const trunTail = new Uint8Array(offset !== 0 ? 4 : 0);
  if (offset !== 0) new DataView(trunTail.buffer).setInt32(0, offset);
  // Version 1: the composition offset is signed.
  const trun = fullBox('trun', offset !== 0 ? 1 : 0, trunFlags, trunBody, trunTail);
  const videoTraf = box(
    'traf',
    fullBox('tfhd', 0, TFHD_FLAGS, u32s(TRACK_ID, Math.round(o.duration), o.data.length, NON_SYNC_SAMPLE_FLAGS)),
    fullBox('tfdt', 1, 0, u64(o.baseMediaDecodeTime)),
    trun,
  );
  const sound = o.audio && o.audio.samples.length > 0 ? o.audio : undefined;
  const audioTrun = sound ? fullBox('trun', 0, TRUN_DATA_OFFSET | TRUN_SAMPLE_SIZE, u32s(sound.samples.length, 0, ...sound.samples.map((x) => x.length))) : undefined;
  const audioTraf =
    sound && audioTrun
      ? box('traf', fullBox('tfhd', 0, AUDIO_TFHD_FLAGS, u32s(AUDIO_TRACK_ID, Math.round(sound.sampleDuration))), fullBox('tfdt', 1, 0, u64(sound.baseMediaDecodeTime)), audioTrun)
      : undefined;
  const moof = box('moof', fullBox('mfhd', 0, 0, u32s(o.sequence)), videoTraf, ...(audioTraf ? [audioTraf] : []));
  // The data offsets count from the moof's first byte (default-base-is-moof) to the samples: the
  // picture first in the mdat, then the sound frames.
  const view = new DataView(moof.buffer);
  const videoTrunAt = 8 + 16 + videoTraf.length - trun.length; // moof header, mfhd, then the traf up to its trun
  view.setUint32(videoTrunAt + 16, moof.length + 8);
  if (audioTraf && audioTrun) view.setUint32(8 + 16 + videoTraf.length + audioTraf.length - audioTrun.length + 16, moof.length + 8 + o.data.length);
  const samples = sound?.samples ?? [];
  let dataBytes = o.data.length;
  for (const x of samples) dataBytes += x.length;
  const mdatHead = new Uint8Array(8);
  new DataView(mdatHead.buffer).setUint32(0, 8 + dataBytes);
  mdatHead.set(latin1('mdat'), 4);
  return concatBytes([moof, mdatHead, o.data, ...samples]);
}
