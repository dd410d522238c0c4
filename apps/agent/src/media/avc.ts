/**
 * What the packager needs to know about an H.264 stream from its AVCDecoderConfigurationRecord
 * (ISO/IEC 14496-15 5.3.3, the avcC box's payload): the RFC 6381 codec string and the picture
 * size from the first sequence parameter set (ITU-T H.264 7.3.2.1.1).
 */
import { RbspReader, unescapeRbsp } from '@ship-cctv/media';

export interface AvcConfig {
  /** The record as given (goes into avcC unchanged). */
  record: Buffer;
  /** `avc1.PPCCLL`: profile, constraint flags and level in hex. */
  codec: string;
  profile: number;
  level: number;
  /** Bytes before each NAL unit in a sample (lengthSizeMinusOne + 1). */
  nalLengthSize: number;
  /** Display size from the SPS (cropping applied); undefined if the SPS could not be read. */
  width: number | undefined;
  height: number | undefined;
}

const hex2 = (n: number) => n.toString(16).padStart(2, '0');

/** Reads an AVCDecoderConfigurationRecord; throws on one too short or of another version. */
export function parseAvcConfig(record: Buffer): AvcConfig {
  if (record.length < 7) throw new Error(`AVC configuration of ${record.length} bytes is too short`);
  if (record[0] !== 1) throw new Error(`AVC configuration version ${record[0]} is not 1`);
  const profile = record[1] as number;
  const constraints = record[2] as number;
  const level = record[3] as number;
  const nalLengthSize = ((record[4] as number) & 0x3) + 1;
  const spsCount = (record[5] as number) & 0x1f;
  let size: { width: number; height: number } | undefined;
  if (spsCount > 0 && record.length >= 8) {
    const len = record.readUInt16BE(6);
    if (8 + len <= record.length) {
      try {
        size = spsPictureSize(record.subarray(8, 8 + len));
      } catch {
        size = undefined;
      }
    }
  }
  return {
    record,
    codec: `avc1.${hex2(profile)}${hex2(constraints)}${hex2(level)}`,
    profile,
    level,
    nalLengthSize,
    width: size?.width,
    height: size?.height,
  };
}

/** Profiles whose SPS carries chroma format, bit depths and scaling matrices. */
const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

/** What a sequence parameter set says that the agent uses. */
export interface SpsInfo {
  profile: number;
  /** Display size (cropping applied). */
  width: number;
  height: number;
  /**
   * VUI max_num_reorder_frames (ITU-T H.264 E.2.1): at most this many pictures come before a
   * picture in decode order and after it in presentation order. Undefined: the SPS does not say.
   */
  reorderFrames: number | undefined;
  /** VUI max_dec_frame_buffering; undefined when the SPS does not say. */
  decFrameBuffering: number | undefined;
  /** One frame's duration in seconds from the VUI timing (2 ticks a frame); undefined when absent. */
  frameSeconds: number | undefined;
}

/** Picture size from a sequence parameter set NAL unit (header byte included). */
export function spsPictureSize(nal: Buffer): { width: number; height: number } {
  const { width, height } = readSps(nal);
  return { width, height };
}

/** Reads a sequence parameter set NAL unit (ITU-T H.264 7.3.2.1.1 and its VUI, E.1.1); throws on one cut short. */
export function readSps(nal: Buffer): SpsInfo {
  if (((nal[0] ?? 0) & 0x1f) !== 7) throw new Error('not a sequence parameter set');
  const r = new RbspReader(unescapeRbsp(nal.subarray(1)), 'SPS');
  const profile = r.u(8);
  r.u(16); // constraint flags, level
  r.ue(); // seq_parameter_set_id
  let chromaFormat = 1;
  let separateColourPlanes = 0;
  if (HIGH_PROFILES.has(profile)) {
    chromaFormat = r.ue();
    if (chromaFormat === 3) separateColourPlanes = r.u(1);
    r.ue(); // bit_depth_luma_minus8
    r.ue(); // bit_depth_chroma_minus8
    r.u(1); // qpprime_y_zero_transform_bypass_flag
    if (r.u(1)) {
      for (let i = 0; i < (chromaFormat === 3 ? 12 : 8); i++) {
        if (!r.u(1)) continue;
        let last = 8;
        let next = 8;
        for (let j = 0; j < (i < 6 ? 16 : 64) && next !== 0; j++) {
          next = (last + r.se() + 256) % 256;
          if (next !== 0) last = next;
        }
      }
    }
  }
  r.ue(); // log2_max_frame_num_minus4
  const pocType = r.ue();
  if (pocType === 0) {
    r.ue(); // log2_max_pic_order_cnt_lsb_minus4
  } else if (pocType === 1) {
    r.u(1); // delta_pic_order_always_zero_flag
    r.se(); // offset_for_non_ref_pic
    r.se(); // offset_for_top_to_bottom_field
    const cycle = r.ue();
    for (let i = 0; i < cycle; i++) r.se();
  }
  r.ue(); // max_num_ref_frames
  r.u(1); // gaps_in_frame_num_value_allowed_flag
  const widthMbs = r.ue() + 1;
  const heightMapUnits = r.ue() + 1;
  const frameMbsOnly = r.u(1);
  if (!frameMbsOnly) r.u(1); // mb_adaptive_frame_field_flag
  r.u(1); // direct_8x8_inference_flag
  let [left, right, top, bottom] = [0, 0, 0, 0];
  if (r.u(1)) [left, right, top, bottom] = [r.ue(), r.ue(), r.ue(), r.ue()];
  const monochrome = chromaFormat === 0 || separateColourPlanes === 1;
  const subWidth = chromaFormat === 1 || chromaFormat === 2 ? 2 : 1;
  const subHeight = chromaFormat === 1 ? 2 : 1;
  const cropX = monochrome ? 1 : subWidth;
  const cropY = (monochrome ? 1 : subHeight) * (2 - frameMbsOnly);
  const info: SpsInfo = {
    profile,
    width: widthMbs * 16 - cropX * (left + right),
    height: (2 - frameMbsOnly) * heightMapUnits * 16 - cropY * (top + bottom),
    reorderFrames: undefined,
    decFrameBuffering: undefined,
    frameSeconds: undefined,
  };
  // The VUI is optional and read only as far as it goes: a short one leaves the rest unknown.
  try {
    if (r.u(1)) readVui(r, info);
  } catch {
    // the size stands
  }
  return info;
}

/** VUI parameters (ITU-T H.264 E.1.1): the frame timing and the bitstream restriction. */
function readVui(r: RbspReader, info: SpsInfo): void {
  if (r.u(1) && r.u(8) === 255) r.u(32); // aspect_ratio_idc, Extended_SAR: sar_width, sar_height
  if (r.u(1)) r.u(1); // overscan_appropriate_flag
  if (r.u(1)) {
    r.u(4); // video_format, video_full_range_flag
    if (r.u(1)) r.u(24); // colour_primaries, transfer_characteristics, matrix_coefficients
  }
  if (r.u(1)) {
    r.ue(); // chroma_sample_loc_type_top_field
    r.ue(); // chroma_sample_loc_type_bottom_field
  }
  if (r.u(1)) {
    const unitsInTick = r.u(32);
    const timeScale = r.u(32);
    r.u(1); // fixed_frame_rate_flag
    if (unitsInTick > 0 && timeScale > 0) info.frameSeconds = (2 * unitsInTick) / timeScale;
  }
  const nalHrd = r.u(1);
  if (nalHrd) skipHrd(r);
  const vclHrd = r.u(1);
  if (vclHrd) skipHrd(r);
  if (nalHrd || vclHrd) r.u(1); // low_delay_hrd_flag
  r.u(1); // pic_struct_present_flag
  if (!r.u(1)) return; // bitstream_restriction_flag
  r.u(1); // motion_vectors_over_pic_boundaries_flag
  r.ue(); // max_bytes_per_pic_denom
  r.ue(); // max_bits_per_mb_denom
  r.ue(); // log2_max_mv_length_horizontal
  r.ue(); // log2_max_mv_length_vertical
  const reorder = r.ue();
  const buffering = r.ue();
  info.reorderFrames = reorder;
  info.decFrameBuffering = buffering;
}

/** hrd_parameters (ITU-T H.264 E.1.2), skipped. */
function skipHrd(r: RbspReader): void {
  const cpbCount = r.ue() + 1;
  r.u(8); // bit_rate_scale, cpb_size_scale
  for (let i = 0; i < cpbCount; i++) {
    r.ue(); // bit_rate_value_minus1
    r.ue(); // cpb_size_value_minus1
    r.u(1); // cbr_flag
  }
  r.u(20); // four delay and offset lengths of 5 bits
}

/**
 * An AVCDecoderConfigurationRecord (ISO/IEC 14496-15 5.3.3.1) from parameter set NAL units, with
 * 4-byte NAL lengths — the record ffmpeg writes for a camera's stream (its profile, compatibility
 * and level from the first SPS).
 */
export function avcConfigRecord(sps: readonly Buffer[], pps: readonly Buffer[]): Buffer {
  const first = sps[0];
  if (!first || first.length < 4) throw new Error('an AVC configuration needs a sequence parameter set');
  if (pps.length === 0) throw new Error('an AVC configuration needs a picture parameter set');
  if (sps.length > 31 || pps.length > 255) throw new Error('too many parameter sets for an AVC configuration');
  const parts: Buffer[] = [Buffer.from([1, first[1] as number, first[2] as number, first[3] as number, 0xff, 0xe0 | sps.length])];
  const withLength = (nal: Buffer) => {
    const len = Buffer.alloc(2);
    len.writeUInt16BE(nal.length);
    parts.push(len, nal);
  };
  sps.forEach(withLength);
  parts.push(Buffer.from([pps.length]));
  pps.forEach(withLength);
  return Buffer.concat(parts);
}

/** The parameter sets of an AVCDecoderConfigurationRecord, SPS first then PPS: avcConfigRecord undone. */
export function avcParameterSets(record: Uint8Array): Buffer[] {
  const out: Buffer[] = [];
  let at = 5;
  for (const countMask of [0x1f, 0xff]) {
    const count = (record[at] ?? 0) & countMask;
    at += 1;
    for (let i = 0; i < count && at + 2 <= record.length; i++) {
      const len = ((record[at] ?? 0) << 8) | (record[at + 1] ?? 0);
      out.push(Buffer.from(record.subarray(at + 2, at + 2 + len)));
      at += 2 + len;
    }
  }
  return out;
}

/**
 * A slice's slice_type (ITU-T H.264 7.4.3: 0 P, 1 B, 2 I, 3 SP, 4 SI; +5 when every slice of the
 * picture has that type), read from the slice header after first_mb_in_slice.
 */
export function sliceType(nal: Buffer): number {
  const t = (nal[0] ?? 0) & 0x1f;
  if (t < 1 || t > 5) throw new Error(`NAL unit type ${t} is not a slice`);
  const r = new RbspReader(unescapeRbsp(nal.subarray(1, 16)), 'slice header');
  r.ue(); // first_mb_in_slice
  return r.ue();
}

/** B slices: the picture is predicted from a later one (its decode and presentation order differ). */
export const isBSlice = (nal: Buffer) => sliceType(nal) % 5 === 1;
