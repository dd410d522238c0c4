/**
 * Media fragments (moof + mdat): per track fragment (traf), its decode time, duration, sample
 * count and whether it starts with a sync sample. The fragment as a whole is described by its
 * video track: a viewer can begin at a fragment whose video starts with a keyframe.
 */
import { type Box, type Reader, boxes, findBox, findBoxes, viewOf } from './boxes.ts';
import { Fmp4Error } from './errors.ts';
import type { MovieInfo, TrackDefaults } from './init-segment.ts';

export interface TrackRun {
  trackId: number;
  /** tfdt, in the track's timescale ticks. */
  baseMediaDecodeTime: number;
  /** Sum of the sample durations, in the track's timescale ticks. */
  duration: number;
  sampleCount: number;
  /** Bytes of the track's samples (from the trun sizes, else the tfhd/trex default size). */
  bytes: number;
  /** The first sample is a sync sample. */
  keyframe: boolean;
}

/** One media fragment ([styp/prft/sidx/emsg…] + moof + mdat). `data` is owned by the unit. */
export interface MediaFragment {
  kind: 'fragment';
  data: Uint8Array;
  /** The fragment's first sample of the video track is a sync sample. */
  keyframe: boolean;
  /** tfdt of the video track, in its timescale ticks. */
  baseMediaDecodeTime: number;
  /** Sum of the video track's sample durations, in its timescale ticks. */
  duration: number;
  sampleCount: number;
  /** mfhd sequence number. */
  sequenceNumber: number;
  /** Bytes in `data`. */
  size: number;
  /** Every track's run in this fragment (video and audio). */
  tracks: TrackRun[];
}

export type FragmentInfo = Omit<MediaFragment, 'kind' | 'data' | 'size'>;

/**
 * Sample flags (ISO/IEC 14496-12 8.8.3.1): sample_depends_on in bits 25..24 (2: depends on no other
 * sample, i.e. an I-frame; 1: depends on others), sample_is_non_sync_sample in bit 16.
 */
export function isSyncSample(flags: number): boolean {
  const dependsOn = (flags >>> 24) & 0x3;
  const nonSync = (flags >>> 16) & 0x1;
  return nonSync === 0 && dependsOn !== 1;
}

/** A track fragment header: its track, flags, explicit base data offset and sample defaults (over trex's). */
export interface TrackFragmentHeader {
  trackId: number;
  flags: number;
  baseDataOffset: number | undefined;
  defaults: TrackDefaults;
}

/** Reads a traf's tfhd, its sample defaults falling back to `trex` (the movie's per-track ones). */
export function readTrackFragmentHeader(r: Reader, traf: Box, trex: (trackId: number) => TrackDefaults | undefined): TrackFragmentHeader {
  const tfhd = r.requireChild(traf, 'tfhd');
  const trackId = r.u32(tfhd.body + 4, tfhd.end, 'tfhd track_ID');
  const defaults: TrackDefaults = { ...trex(trackId) };
  // tfhd: FullBox (4), track_ID (4), then optional fields in flag order.
  const flags = r.u32(tfhd.body, tfhd.end, 'tfhd flags') & 0xffffff;
  let at = tfhd.body + 8;
  let baseDataOffset: number | undefined;
  if (flags & 0x000001) {
    baseDataOffset = r.u64(at, tfhd.end, 'tfhd base_data_offset');
    at += 8;
  }
  if (flags & 0x000002) at += 4; // sample_description_index
  if (flags & 0x000008) {
    defaults.duration = r.u32(at, tfhd.end, 'tfhd default_sample_duration');
    at += 4;
  }
  if (flags & 0x000010) {
    defaults.size = r.u32(at, tfhd.end, 'tfhd default_sample_size');
    at += 4;
  }
  if (flags & 0x000020) defaults.flags = r.u32(at, tfhd.end, 'tfhd default_sample_flags');
  return { trackId, flags, baseDataOffset, defaults };
}

function parseTraf(r: Reader, traf: Box, movie: MovieInfo): TrackRun {
  const { trackId, defaults } = readTrackFragmentHeader(r, traf, (id) => movie.trex.get(id));
  const defaultDuration = defaults.duration;
  const defaultFlags = defaults.flags;
  const defaultSize = defaults.size;

  const tfdt = r.child(traf, 'tfdt');
  let baseMediaDecodeTime = 0;
  if (tfdt) {
    const v = r.u8(tfdt.body, tfdt.end, 'tfdt version');
    baseMediaDecodeTime = v === 1 ? r.u64(tfdt.body + 4, tfdt.end, 'tfdt time') : r.u32(tfdt.body + 4, tfdt.end, 'tfdt time');
  }

  let sampleCount = 0;
  let duration = 0;
  let bytes = 0;
  let firstFlags: number | undefined;
  for (const trun of r.children(traf.body, traf.end)) {
    if (trun.type !== 'trun') continue;
    const flags = r.u32(trun.body, trun.end, 'trun flags') & 0xffffff;
    const count = r.u32(trun.body + 4, trun.end, 'trun sample_count');
    let p = trun.body + 8;
    if (flags & 0x001) p += 4; // data_offset
    let firstSampleFlags: number | undefined;
    if (flags & 0x004) {
      firstSampleFlags = r.u32(p, trun.end, 'trun first_sample_flags');
      p += 4;
    }
    const hasDuration = (flags & 0x100) !== 0;
    const hasSize = (flags & 0x200) !== 0;
    const hasFlags = (flags & 0x400) !== 0;
    const hasCto = (flags & 0x800) !== 0;
    const perSample = 4 * (Number(hasDuration) + Number(hasSize) + Number(hasFlags) + Number(hasCto));
    // Check the table fits before looping, so a forged sample_count cannot make us spin.
    if (perSample > 0 && count > (trun.end - p) / perSample) {
      throw new Fmp4Error('malformed', `trun claims ${count} samples but its table does not fit`);
    }
    if (!hasDuration) {
      if (count > 0 && defaultDuration === undefined) throw new Fmp4Error('malformed', 'no sample duration in trun, tfhd or trex');
      duration += count * (defaultDuration ?? 0);
    }
    if (!hasSize) bytes += count * (defaultSize ?? 0);
    for (let i = 0; i < count && perSample > 0; i++) {
      if (hasDuration) duration += r.u32(p, trun.end, 'trun sample_duration');
      if (hasSize) bytes += r.u32(p + (hasDuration ? 4 : 0), trun.end, 'trun sample_size');
      if (i === 0 && hasFlags) firstSampleFlags ??= r.u32(p + (hasDuration ? 4 : 0) + (hasSize ? 4 : 0), trun.end, 'trun sample_flags');
      p += perSample;
    }
    if (sampleCount === 0 && count > 0) firstFlags = firstSampleFlags ?? defaultFlags ?? 0;
    sampleCount += count;
  }
  if (!Number.isSafeInteger(duration)) throw new Fmp4Error('unsupported', 'fragment duration exceeds 2^53');
  return { trackId, baseMediaDecodeTime, duration, sampleCount, bytes, keyframe: firstFlags !== undefined && isSyncSample(firstFlags) };
}

/** Reads a moof (strictly) against its movie. */
export function parseMoof(r: Reader, moof: Box, movie: MovieInfo): FragmentInfo {
  const mfhd = r.requireChild(moof, 'mfhd');
  const sequenceNumber = r.u32(mfhd.body + 4, mfhd.end, 'mfhd sequence_number');
  const trafs = r.children(moof.body, moof.end).filter((b) => b.type === 'traf');
  if (trafs.length === 0) throw new Fmp4Error('malformed', 'moof has no traf');
  const tracks = trafs.map((traf) => parseTraf(r, traf, movie));
  // The video track's run describes the fragment; a single-track stream may still use another id.
  const video = tracks.find((t) => t.trackId === movie.init.trackId) ?? (movie.init.tracks.length <= 1 ? tracks[0] : undefined);
  if (video) {
    const { baseMediaDecodeTime, duration, sampleCount, keyframe } = video;
    return { keyframe, baseMediaDecodeTime, duration, sampleCount, sequenceNumber, tracks };
  }
  // Sound only (a muxer that cuts at every frame of every track): nobody can start watching here,
  // and it adds no video time; its start is told in the video's ticks.
  const first = tracks[0];
  if (!first) throw new Fmp4Error('malformed', 'moof has no traf');
  const scale = movie.init.tracks.find((t) => t.trackId === first.trackId)?.timescale ?? movie.init.timescale;
  const baseMediaDecodeTime = Math.round((first.baseMediaDecodeTime * movie.init.timescale) / scale);
  return { keyframe: false, baseMediaDecodeTime, duration: 0, sampleCount: 0, sequenceNumber, tracks };
}

export function isInitSegment(bytes: Uint8Array): boolean {
  const first = boxes(bytes).next();
  return !first.done && (first.value.type === 'ftyp' || first.value.type === 'moov');
}

function trackIdOf(bytes: Uint8Array, traf: Box): number | undefined {
  const tfhd = findBox(bytes, ['tfhd'], traf.body, traf.end);
  return tfhd && tfhd.body + 8 <= tfhd.end ? viewOf(bytes).getUint32(tfhd.body + 4) : undefined;
}

function tfdtTime(bytes: Uint8Array, tfdt: Box): number | undefined {
  const view = viewOf(bytes);
  if (bytes[tfdt.body] === 1) return tfdt.body + 12 <= tfdt.end ? Number(view.getBigUint64(tfdt.body + 4)) : undefined;
  return tfdt.body + 8 <= tfdt.end ? view.getUint32(tfdt.body + 4) : undefined;
}

/** The video track of an init segment (the first 'vide' track), read leniently: id and timescale. */
export function readVideoTrack(init: Uint8Array): { trackId: number; timescale: number } | undefined {
  for (const trak of findBoxes(init, ['moov', 'trak'])) {
    const hdlr = findBox(init, ['mdia', 'hdlr'], trak.body, trak.end);
    if (!hdlr || hdlr.body + 12 > hdlr.end || String.fromCharCode(...init.subarray(hdlr.body + 8, hdlr.body + 12)) !== 'vide') continue;
    const tkhd = findBox(init, ['tkhd'], trak.body, trak.end);
    const mdhd = findBox(init, ['mdia', 'mdhd'], trak.body, trak.end);
    if (!tkhd || !mdhd) return undefined;
    const view = viewOf(init);
    const idAt = tkhd.body + (init[tkhd.body] === 1 ? 20 : 12);
    const scaleAt = mdhd.body + (init[mdhd.body] === 1 ? 20 : 12);
    if (idAt + 4 > tkhd.end || scaleAt + 4 > mdhd.end) return undefined;
    return { trackId: view.getUint32(idAt), timescale: view.getUint32(scaleAt) };
  }
  return undefined;
}

/** Ids of an init segment's sound tracks ('soun'), read leniently. */
export function readSoundTrackIds(init: Uint8Array): number[] {
  const ids: number[] = [];
  for (const trak of findBoxes(init, ['moov', 'trak'])) {
    const hdlr = findBox(init, ['mdia', 'hdlr'], trak.body, trak.end);
    if (!hdlr || hdlr.body + 12 > hdlr.end || String.fromCharCode(...init.subarray(hdlr.body + 8, hdlr.body + 12)) !== 'soun') continue;
    const tkhd = findBox(init, ['tkhd'], trak.body, trak.end);
    if (!tkhd) continue;
    const idAt = tkhd.body + (init[tkhd.body] === 1 ? 20 : 12);
    if (idAt + 4 <= tkhd.end) ids.push(viewOf(init).getUint32(idAt));
  }
  return ids;
}

/**
 * Bytes of the samples of the given tracks in a fragment, read leniently: the truns' sample sizes,
 * else the tfhd default size × count (a size only the trex gives counts 0).
 */
export function readTrackBytes(fragment: Uint8Array, trackIds: readonly number[]): number {
  const view = viewOf(fragment);
  let bytes = 0;
  for (const traf of findBoxes(fragment, ['moof', 'traf'])) {
    const id = trackIdOf(fragment, traf);
    if (id === undefined || !trackIds.includes(id)) continue;
    const tfhd = findBox(fragment, ['tfhd'], traf.body, traf.end);
    let defaultSize = 0;
    if (tfhd && tfhd.end - tfhd.body >= 8) {
      const flags = view.getUint32(tfhd.body) & 0xffffff;
      let at = tfhd.body + 8;
      if (flags & 0x1) at += 8;
      if (flags & 0x2) at += 4;
      if (flags & 0x8) at += 4;
      if (flags & 0x10 && at + 4 <= tfhd.end) defaultSize = view.getUint32(at);
    }
    for (const trun of findBoxes(fragment, ['trun'], traf.body, traf.end)) {
      if (trun.end - trun.body < 8) continue;
      const flags = view.getUint32(trun.body) & 0xffffff;
      const count = view.getUint32(trun.body + 4);
      if (!(flags & 0x200)) {
        bytes += count * defaultSize;
        continue;
      }
      let at = trun.body + 8 + (flags & 0x1 ? 4 : 0) + (flags & 0x4 ? 4 : 0);
      const per = 4 * [0x100, 0x200, 0x400, 0x800].filter((f) => flags & f).length;
      const sizeAt = flags & 0x100 ? 4 : 0;
      for (let i = 0; i < count && at + per <= trun.end; i++, at += per) bytes += view.getUint32(at + sizeAt);
    }
  }
  return bytes;
}

/** Timescale of the video track (ticks per second), read leniently; undefined when absent. */
export function readTimescale(init: Uint8Array): number | undefined {
  return readVideoTrack(init)?.timescale;
}

/** baseMediaDecodeTime of a track's fragment (default: the first traf), read leniently. */
export function readBaseDecodeTime(fragment: Uint8Array, trackId?: number): number | undefined {
  for (const traf of findBoxes(fragment, ['moof', 'traf'])) {
    if (trackId !== undefined && trackIdOf(fragment, traf) !== trackId) continue;
    const tfdt = findBox(fragment, ['tfdt'], traf.body, traf.end);
    return tfdt ? tfdtTime(fragment, tfdt) : undefined;
  }
  return undefined;
}

/**
 * Moves each track's decode start in place by `ticks(trackId)` (in that track's timescale). Throws
 * when a traf has no tfdt or a 32-bit one would overflow; a time moved below 0 stays at 0.
 */
export function shiftDecodeTimes(fragment: Uint8Array, ticks: (trackId: number) => number): void {
  const view = viewOf(fragment);
  for (const traf of findBoxes(fragment, ['moof', 'traf'])) {
    const by = Math.round(ticks(trackIdOf(fragment, traf) ?? 0));
    if (by === 0) continue;
    const tfdt = findBox(fragment, ['tfdt'], traf.body, traf.end);
    if (!tfdt) throw new Error('fragment without a decode time (tfdt)');
    if (fragment[tfdt.body] === 1) {
      const value = view.getBigUint64(tfdt.body + 4) + BigInt(by);
      view.setBigUint64(tfdt.body + 4, value < 0n ? 0n : value);
    } else {
      const value = view.getUint32(tfdt.body + 4) + by;
      if (value > 0xffff_ffff) throw new Error('fragment decode time beyond 32 bits');
      view.setUint32(tfdt.body + 4, Math.max(0, value));
    }
  }
}

/**
 * Flags of the first sample of a fragment's track (default: the first traf), read leniently in
 * ISO/IEC 14496-12's order of precedence — trun first-sample-flags, the first sample's own flags,
 * tfhd default flags, then `trexFlags`; undefined when none says.
 */
export function readFirstSampleFlags(fragment: Uint8Array, trackId?: number, trexFlags?: number): number | undefined {
  const view = viewOf(fragment);
  const traf = findBoxes(fragment, ['moof', 'traf']).find((t) => trackId === undefined || trackIdOf(fragment, t) === trackId);
  if (!traf) return undefined;
  const u32 = (at: number, end: number) => (at + 4 <= end ? view.getUint32(at) : undefined);
  const trun = findBox(fragment, ['trun'], traf.body, traf.end);
  if (trun && trun.end - trun.body >= 8) {
    const flags = view.getUint32(trun.body) & 0xffffff;
    const count = view.getUint32(trun.body + 4);
    let at = trun.body + 8;
    if (flags & 0x1) at += 4; // data offset
    if (flags & 0x4) return u32(at, trun.end);
    if (flags & 0x400 && count > 0) {
      if (flags & 0x100) at += 4; // sample duration
      if (flags & 0x200) at += 4; // sample size
      return u32(at, trun.end);
    }
  }
  const tfhd = findBox(fragment, ['tfhd'], traf.body, traf.end);
  if (tfhd && tfhd.end - tfhd.body >= 8) {
    const flags = view.getUint32(tfhd.body) & 0xffffff;
    let at = tfhd.body + 8; // version/flags, track_ID
    if (flags & 0x1) at += 8; // base data offset
    if (flags & 0x2) at += 4; // sample description index
    if (flags & 0x8) at += 4; // default duration
    if (flags & 0x10) at += 4; // default size
    if (flags & 0x20) return u32(at, tfhd.end);
  }
  return trexFlags;
}

/**
 * Composition offset of the first sample of a fragment's track (default: the first traf), read
 * leniently: when it is shown after it is decoded (B-frames), in ticks; 0 when the trun has none
 * (no offsets: shown at its decode time). Version 1 truns carry signed offsets.
 */
export function readFirstCompositionOffset(fragment: Uint8Array, trackId?: number): number {
  const view = viewOf(fragment);
  const traf = findBoxes(fragment, ['moof', 'traf']).find((t) => trackId === undefined || trackIdOf(fragment, t) === trackId);
  const trun = traf && findBox(fragment, ['trun'], traf.body, traf.end);
  if (!trun || trun.end - trun.body < 8) return 0;
  const flags = view.getUint32(trun.body) & 0xffffff;
  if (!(flags & 0x800) || view.getUint32(trun.body + 4) === 0) return 0;
  let at = trun.body + 8;
  for (const field of [0x1, 0x4, 0x100, 0x200, 0x400]) if (flags & field) at += 4; // data offset, first flags, duration, size, flags
  if (at + 4 > trun.end) return 0;
  return fragment[trun.body] === 1 ? view.getInt32(at) : view.getUint32(at);
}
