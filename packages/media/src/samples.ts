/**
 * The samples themselves: what a decoder that is not a media element (WebCodecs) needs from a
 * stream — the video track's decoder configuration from the init segment, and each sample of a
 * fragment with its times, its sync flag and its bytes. Strict: a table that does not fit, or
 * sample bytes outside the fragment, are errors.
 */
import { type Box, Reader, findBox } from './boxes.ts';
import { Fmp4Error } from './errors.ts';
import { isSyncSample, readTrackFragmentHeader } from './fragment.ts';
import { parseMoov, type MovieInfo, type TrackDefaults } from './init-segment.ts';

/** A video track as a WebCodecs VideoDecoder is configured for it. */
export interface VideoDecoderSetup {
  trackId: number;
  timescale: number;
  /** RFC 6381, e.g. `avc1.42c01e`. */
  codec: string;
  codedWidth: number;
  codedHeight: number;
  /** The avcC / hvcC box's body (AVCDecoderConfigurationRecord / HEVCDecoderConfigurationRecord). */
  description: Uint8Array;
  /** trex defaults of the track, for fragments that leave fields out. */
  defaults: TrackDefaults;
}

/** One sample of a fragment's track. Times in the track's timescale ticks. */
export interface TrackSample {
  decodeTime: number;
  /** Presentation time: decodeTime + the composition offset. */
  presentationTime: number;
  duration: number;
  keyframe: boolean;
  /** A view into the fragment's bytes (not a copy). */
  data: Uint8Array;
}

/** The video track's decoder setup from an init segment; undefined when it has no AVC/HEVC track. */
export function readVideoDecoderSetup(init: Uint8Array): VideoDecoderSetup | undefined {
  const r = new Reader(init);
  const moov = r.children(0, init.length).find((b) => b.type === 'moov');
  if (!moov) return undefined;
  const movie: MovieInfo = parseMoov(r, moov);
  const { trackId, timescale, codec, width, height } = movie.init;
  const entry = videoSampleEntry(r, moov, trackId);
  if (!entry) return undefined;
  const configType =
    entry.type === 'avc1' || entry.type === 'avc3' ? 'avcC' : entry.type === 'hvc1' || entry.type === 'hev1' ? 'hvcC' : entry.type === 'av01' ? 'av1C' : undefined;
  if (!configType) return undefined;
  // SampleEntry (8) + VisualSampleEntry fields (70) after the box header.
  const config = r.children(entry.start + 8 + 78, entry.end).find((b) => b.type === configType);
  if (!config) throw new Fmp4Error('malformed', `${entry.type} has no ${configType}`);
  return {
    trackId,
    timescale,
    codec,
    codedWidth: width,
    codedHeight: height,
    description: init.slice(config.body, config.end),
    defaults: movie.trex.get(trackId) ?? {},
  };
}

function videoSampleEntry(r: Reader, moov: Box, trackId: number): Box | undefined {
  for (const trak of r.children(moov.body, moov.end)) {
    if (trak.type !== 'trak') continue;
    const tkhd = r.requireChild(trak, 'tkhd');
    const version = r.u8(tkhd.body, tkhd.end, 'tkhd version');
    if (r.u32(tkhd.body + (version === 1 ? 20 : 12), tkhd.end, 'tkhd track_ID') !== trackId) continue;
    const stsd = findBox(r.buf, ['mdia', 'minf', 'stbl', 'stsd'], trak.body, trak.end);
    return stsd ? r.children(stsd.body + 8, stsd.end)[0] : undefined;
  }
  return undefined;
}

/**
 * Every sample of `trackId` in a media fragment (moof + mdat, possibly after styp/prft boxes), in
 * decode order. Sample data are found as ISO/IEC 14496-12 says: from the tfhd's base data offset,
 * else the moof's first byte (default-base-is-moof, or the first traf), else where the previous
 * traf's data ended; each trun's data offset from that base.
 */
export function readTrackSamples(fragment: Uint8Array, trackId: number, defaults: TrackDefaults = {}): TrackSample[] {
  const r = new Reader(fragment);
  const moof = r.children(0, fragment.length).find((b) => b.type === 'moof');
  if (!moof) throw new Fmp4Error('malformed', 'fragment has no moof');
  const out: TrackSample[] = [];
  let previousEnd = moof.start;
  let first = true;
  for (const traf of r.children(moof.body, moof.end)) {
    if (traf.type !== 'traf') continue;
    const header = readTrackFragmentHeader(r, traf, () => defaults);
    const id = header.trackId;
    const base = header.baseDataOffset ?? (header.flags & 0x020000 || first ? moof.start : previousEnd);
    first = false;
    const defaultDuration = header.defaults.duration ?? 0;
    const defaultSize = header.defaults.size ?? 0;
    const defaultFlags = header.defaults.flags ?? 0;
    const tfdt = r.child(traf, 'tfdt');
    let decodeTime = 0;
    if (tfdt) {
      const v = r.u8(tfdt.body, tfdt.end, 'tfdt version');
      decodeTime = v === 1 ? r.u64(tfdt.body + 4, tfdt.end, 'tfdt time') : r.u32(tfdt.body + 4, tfdt.end, 'tfdt time');
    }
    let dataAt = base;
    for (const trun of r.children(traf.body, traf.end)) {
      if (trun.type !== 'trun') continue;
      const version = r.u8(trun.body, trun.end, 'trun version');
      const flags = r.u32(trun.body, trun.end, 'trun flags') & 0xffffff;
      const count = r.u32(trun.body + 4, trun.end, 'trun sample_count');
      let p = trun.body + 8;
      if (flags & 0x001) {
        dataAt = base + (r.u32(p, trun.end, 'trun data_offset') | 0);
        p += 4;
      }
      let firstFlags: number | undefined;
      if (flags & 0x004) {
        firstFlags = r.u32(p, trun.end, 'trun first_sample_flags');
        p += 4;
      }
      const fields = [0x100, 0x200, 0x400, 0x800].filter((f) => flags & f).length;
      if (fields > 0 && count > (trun.end - p) / (4 * fields)) throw new Fmp4Error('malformed', `trun claims ${count} samples but its table does not fit`);
      for (let i = 0; i < count; i++) {
        const duration = flags & 0x100 ? r.u32(p, trun.end, 'trun sample_duration') : defaultDuration;
        if (flags & 0x100) p += 4;
        const size = flags & 0x200 ? r.u32(p, trun.end, 'trun sample_size') : defaultSize;
        if (flags & 0x200) p += 4;
        const sampleFlags = flags & 0x400 ? r.u32(p, trun.end, 'trun sample_flags') : i === 0 && firstFlags !== undefined ? firstFlags : defaultFlags;
        if (flags & 0x400) p += 4;
        let offset = 0;
        if (flags & 0x800) {
          const raw = r.u32(p, trun.end, 'trun composition offset');
          offset = version === 0 ? raw : raw | 0;
          p += 4;
        }
        if (dataAt < 0 || dataAt + size > fragment.length) throw new Fmp4Error('malformed', 'sample data lie outside the fragment');
        if (id === trackId) {
          out.push({ decodeTime, presentationTime: decodeTime + offset, duration, keyframe: isSyncSample(sampleFlags), data: fragment.subarray(dataAt, dataAt + size) });
        }
        decodeTime += duration;
        dataAt += size;
      }
    }
    previousEnd = dataAt;
  }
  return out;
}
