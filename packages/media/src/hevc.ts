/**
 * H.265 (HEVC) parameter sets as fragmented MP4 needs them: the HEVCDecoderConfigurationRecord
 * (ISO/IEC 14496-15 8.3.3.1, the `hvcC` box's payload) built from a camera's VPS, SPS and PPS, and
 * what the SPS says about the picture (ITU-T H.265 7.3.2.2): display size, chroma format, bit
 * depths, and how many pictures may be reordered (B-frames). Pure; NAL units here are without
 * start codes or length prefixes, header bytes included.
 */
import { RbspReader, unescapeRbsp } from './rbsp.ts';
import { concatBytes } from './writer.ts';

export const HEVC_NAL_VPS = 32;
export const HEVC_NAL_SPS = 33;
export const HEVC_NAL_PPS = 34;
export const HEVC_NAL_AUD = 35;
export const HEVC_NAL_PREFIX_SEI = 39;

/** The type in an H.265 NAL unit header (6 bits after the forbidden bit). */
export const hevcNalType = (nal: Uint8Array): number => ((nal[0] ?? 0) >> 1) & 0x3f;
/** Slice segments (VCL NAL units, types 0–31). */
export const isHevcSlice = (nal: Uint8Array): boolean => hevcNalType(nal) < 32;
/** Random access points (BLA, IDR, CRA: types 16–21) a decoder can start at. */
export const isHevcKeyframe = (nal: Uint8Array): boolean => {
  const t = hevcNalType(nal);
  return t >= 16 && t <= 21;
};

export interface HevcSps {
  /** profile_tier_level's general part, 12 bytes as in the SPS (profile space/tier/idc, compatibility, constraints, level). */
  generalProfile: Uint8Array;
  maxSubLayers: number;
  temporalIdNesting: boolean;
  chromaFormat: number;
  bitDepthLuma: number;
  bitDepthChroma: number;
  /** Display size: the coded size less the conformance window. */
  width: number;
  height: number;
  /** sps_max_num_reorder_pics of the highest sub-layer: pictures shown before one that decodes after them. */
  reorderPictures: number;
}

/** Reads an SPS NAL unit (header included); throws on one of another type or cut short. */
export function readHevcSps(nal: Uint8Array): HevcSps {
  if (hevcNalType(nal) !== HEVC_NAL_SPS) throw new Error('not an H.265 sequence parameter set');
  const rbsp = unescapeRbsp(nal.subarray(2));
  const r = new RbspReader(rbsp, 'H.265 SPS');
  r.u(4); // sps_video_parameter_set_id
  const maxSubLayersMinus1 = r.u(3);
  const temporalIdNesting = r.u(1) === 1;
  // profile_tier_level(1, maxSubLayersMinus1): the general part is 96 bits, byte aligned here.
  const generalProfile = rbsp.slice(1, 13);
  if (generalProfile.length < 12) throw new Error('H.265 SPS ends early');
  r.skip(96);
  const subLayerProfile: boolean[] = [];
  const subLayerLevel: boolean[] = [];
  for (let i = 0; i < maxSubLayersMinus1; i++) {
    subLayerProfile.push(r.u(1) === 1);
    subLayerLevel.push(r.u(1) === 1);
  }
  if (maxSubLayersMinus1 > 0) for (let i = maxSubLayersMinus1; i < 8; i++) r.u(2);
  for (let i = 0; i < maxSubLayersMinus1; i++) {
    if (subLayerProfile[i]) r.skip(88);
    if (subLayerLevel[i]) r.skip(8);
  }
  r.ue(); // sps_seq_parameter_set_id
  const chromaFormat = r.ue();
  if (chromaFormat === 3) r.u(1); // separate_colour_plane_flag
  const codedWidth = r.ue();
  const codedHeight = r.ue();
  let cropX = 0;
  let cropY = 0;
  if (r.u(1) === 1) {
    const subWidth = chromaFormat === 1 || chromaFormat === 2 ? 2 : 1;
    const subHeight = chromaFormat === 1 ? 2 : 1;
    cropX = subWidth * (r.ue() + r.ue());
    cropY = subHeight * (r.ue() + r.ue());
  }
  const bitDepthLuma = r.ue() + 8;
  const bitDepthChroma = r.ue() + 8;
  r.ue(); // log2_max_pic_order_cnt_lsb_minus4
  const orderingForEach = r.u(1) === 1;
  let reorderPictures = 0;
  for (let i = orderingForEach ? 0 : maxSubLayersMinus1; i <= maxSubLayersMinus1; i++) {
    r.ue(); // sps_max_dec_pic_buffering_minus1
    reorderPictures = r.ue();
    r.ue(); // sps_max_latency_increase_plus1
  }
  return {
    generalProfile,
    maxSubLayers: maxSubLayersMinus1 + 1,
    temporalIdNesting,
    chromaFormat,
    bitDepthLuma,
    bitDepthChroma,
    width: codedWidth - cropX,
    height: codedHeight - cropY,
    reorderPictures,
  };
}

/**
 * The HEVCDecoderConfigurationRecord of these parameter sets: the general profile, tier and level
 * from the (first) SPS, 4-byte NAL lengths, and one array each of VPS, SPS and PPS, marked
 * complete (every parameter set the stream uses is here: `hvc1`, not `hev1`). Throws when one of
 * the three kinds is missing or the SPS is unreadable.
 */
export function hevcConfigRecord(vps: readonly Uint8Array[], sps: readonly Uint8Array[], pps: readonly Uint8Array[]): Uint8Array {
  const first = sps[0];
  if (vps.length === 0 || !first || pps.length === 0) throw new Error('an H.265 configuration needs a VPS, an SPS and a PPS');
  const info = readHevcSps(first);
  const head = new Uint8Array(23);
  head[0] = 1; // configurationVersion
  head.set(info.generalProfile, 1); // profile space, tier, idc; compatibility (4); constraints (6); level
  head[13] = 0xf0; // reserved '1111', min_spatial_segmentation_idc = 0 (12 bits)
  head[14] = 0x00;
  head[15] = 0xfc; // reserved '111111', parallelismType = 0 (unknown)
  head[16] = 0xfc | (info.chromaFormat & 0x3);
  head[17] = 0xf8 | ((info.bitDepthLuma - 8) & 0x7);
  head[18] = 0xf8 | ((info.bitDepthChroma - 8) & 0x7);
  head[19] = 0; // avgFrameRate (unknown)
  head[20] = 0;
  // constantFrameRate 0, numTemporalLayers, temporalIdNested, lengthSizeMinusOne = 3
  head[21] = ((info.maxSubLayers & 0x7) << 3) | (info.temporalIdNesting ? 0x4 : 0) | 0x3;
  head[22] = 3; // numOfArrays
  const parts: Uint8Array[] = [head];
  for (const [type, nals] of [[HEVC_NAL_VPS, vps], [HEVC_NAL_SPS, sps], [HEVC_NAL_PPS, pps]] as const) {
    parts.push(Uint8Array.of(0x80 | type, nals.length >> 8, nals.length & 0xff)); // array_completeness 1
    for (const nal of nals) parts.push(Uint8Array.of(nal.length >> 8, nal.length & 0xff), nal);
  }
  return concatBytes(parts);
}

/** The parameter sets of an hvcC record (VPS, SPS, PPS … in its order); throws on one cut short. */
export function hevcParameterSets(record: Uint8Array): Uint8Array[] {
  if (record.length < 23) throw new Error(`H.265 configuration of ${record.length} bytes is too short`);
  const out: Uint8Array[] = [];
  let at = 23;
  const arrays = record[22] as number;
  for (let a = 0; a < arrays; a++) {
    if (at + 3 > record.length) throw new Error('H.265 configuration ends inside an array header');
    const count = ((record[at + 1] as number) << 8) | (record[at + 2] as number);
    at += 3;
    for (let i = 0; i < count; i++) {
      if (at + 2 > record.length) throw new Error('H.265 configuration ends inside a NAL length');
      const len = ((record[at] as number) << 8) | (record[at + 1] as number);
      at += 2;
      if (at + len > record.length) throw new Error('H.265 configuration ends inside a parameter set');
      out.push(record.subarray(at, at + len));
      at += len;
    }
  }
  return out;
}
