/**
 * The init segment (ftyp + moov): every track's kind, codec (RFC 6381), timescale and size or
 * sound, and the fragment defaults (trex) a fragment reader needs. Video and audio tracks are both
 * kept: a stream that has sound carries it to the player.
 */
import { type Box, Reader, fourcc } from './boxes.ts';
import { Fmp4Error } from './errors.ts';

export type TrackKind = 'video' | 'audio' | 'other';

export interface TrackInfo {
  trackId: number;
  kind: TrackKind;
  /** hdlr handler type: 'vide', 'soun', … */
  handler: string;
  /** Ticks per second (mdhd): fragment times and durations of the track are in these. */
  timescale: number;
  /** The first sample entry's type: 'avc1', 'hvc1', 'mp4a', 'Opus', … */
  sampleEntry: string;
  /** RFC 6381 codec string, e.g. `avc1.42c01e`, `mp4a.40.2`, `opus`. */
  codec: string;
  width?: number;
  height?: number;
  sampleRate?: number;
  channels?: number;
}

/** The init segment of a stream. `data` is owned by the unit. The video fields describe its (one) video track. */
export interface InitSegment {
  kind: 'init';
  data: Uint8Array;
  tracks: TrackInfo[];
  /** Codecs of every track the player should decode, video first. */
  codecs: string[];
  /** The video track's codec string. */
  codec: string;
  width: number;
  height: number;
  /** The video track's timescale. */
  timescale: number;
  /** The video track's id. */
  trackId: number;
}

export interface TrackDefaults {
  duration?: number;
  size?: number;
  flags?: number;
}

/** What a fragment reader needs from moov: the tracks and the `trex` defaults per track id. */
export interface MovieInfo {
  init: Omit<InitSegment, 'kind' | 'data'>;
  trex: Map<number, TrackDefaults>;
}

export interface MoovOptions {
  /** Video sample entries accepted (e.g. only H.264 for a browser relay); others are 'unsupported'. Default: any. */
  videoEntries?: ReadonlySet<string>;
}

/** `video/mp4; codecs="avc1.42c01e,mp4a.40.2"`: what MediaSource.isTypeSupported / addSourceBuffer take. */
export function mimeFor(init: Pick<InitSegment, 'codecs'>): string {
  return `video/mp4; codecs="${init.codecs.join(',')}"`;
}

const hex2 = (n: number) => n.toString(16).padStart(2, '0');

/** SampleEntry (8) + VisualSampleEntry fields (70) before the entry's child boxes. */
const VISUAL_SAMPLE_ENTRY_FIELDS = 78;
/** SampleEntry (8) + AudioSampleEntry fields (20). */
const AUDIO_SAMPLE_ENTRY_FIELDS = 28;

export function parseMoov(r: Reader, moov: Box, opts: MoovOptions = {}): MovieInfo {
  const tracks: TrackInfo[] = [];
  for (const trak of r.children(moov.body, moov.end)) {
    if (trak.type === 'trak') tracks.push(parseTrak(r, trak));
  }
  const videos = tracks.filter((t) => t.kind === 'video');
  const video = videos[0];
  if (!video) throw new Fmp4Error('unsupported', 'moov has no video track');
  if (videos.length > 1) throw new Fmp4Error('unsupported', 'more than one video track');
  if (opts.videoEntries && !opts.videoEntries.has(video.sampleEntry)) {
    throw new Fmp4Error('unsupported', `video sample entry ${video.sampleEntry} is not ${[...opts.videoEntries].join(' or ')}`);
  }
  const decoded = tracks.filter((t) => t.kind === 'video' || t.kind === 'audio');

  const trex = new Map<number, TrackDefaults>();
  const mvex = r.child(moov, 'mvex');
  if (mvex) {
    for (const b of r.children(mvex.body, mvex.end)) {
      if (b.type !== 'trex') continue;
      // FullBox (4), track_ID, default_sample_description_index, duration, size, flags
      const trackId = r.u32(b.body + 4, b.end, 'trex track_ID');
      trex.set(trackId, {
        duration: r.u32(b.body + 12, b.end, 'trex default_sample_duration'),
        size: r.u32(b.body + 16, b.end, 'trex default_sample_size'),
        flags: r.u32(b.body + 20, b.end, 'trex default_sample_flags'),
      });
    }
  }
  return {
    init: {
      tracks,
      codecs: [video.codec, ...decoded.filter((t) => t !== video).map((t) => t.codec)],
      codec: video.codec,
      width: video.width ?? 0,
      height: video.height ?? 0,
      timescale: video.timescale,
      trackId: video.trackId,
    },
    trex,
  };
}

function parseTrak(r: Reader, trak: Box): TrackInfo {
  const tkhd = r.requireChild(trak, 'tkhd');
  const tkhdVersion = r.u8(tkhd.body, tkhd.end, 'tkhd version');
  const trackId = r.u32(tkhd.body + (tkhdVersion === 1 ? 20 : 12), tkhd.end, 'tkhd track_ID');
  const mdia = r.requireChild(trak, 'mdia');
  const hdlr = r.requireChild(mdia, 'hdlr');
  // FullBox header (4), pre_defined (4), handler_type (4)
  r.u32(hdlr.body + 8, hdlr.end, 'hdlr handler_type');
  const handler = fourcc(r.buf, hdlr.body + 8);
  const mdhd = r.requireChild(mdia, 'mdhd');
  const mdhdVersion = r.u8(mdhd.body, mdhd.end, 'mdhd version');
  const timescale = r.u32(mdhd.body + (mdhdVersion === 1 ? 20 : 12), mdhd.end, 'mdhd timescale');
  if (timescale === 0) throw new Fmp4Error('malformed', 'mdhd timescale is 0');
  const kind: TrackKind = handler === 'vide' ? 'video' : handler === 'soun' ? 'audio' : 'other';
  if (kind === 'other') return { trackId, kind, handler, timescale, sampleEntry: '', codec: '' };

  const stbl = r.requireChild(r.requireChild(mdia, 'minf'), 'stbl');
  const stsd = r.requireChild(stbl, 'stsd');
  // FullBox (4), entry_count (4), then the sample entries; the first one describes the stream.
  const entry = r.children(stsd.body + 8, stsd.end)[0];
  if (!entry) throw new Fmp4Error('malformed', 'stsd has no sample entry');
  if (kind === 'video') {
    const dims = tkhd.body + (tkhdVersion === 1 ? 88 : 76);
    // 16.16 fixed point; the integer part is the display size.
    const tkhdWidth = r.u32(dims, tkhd.end, 'tkhd width') >>> 16;
    const tkhdHeight = r.u32(dims + 4, tkhd.end, 'tkhd height') >>> 16;
    const width = r.u16(entry.body + 24, entry.end, `${entry.type} width`) || tkhdWidth;
    const height = r.u16(entry.body + 26, entry.end, `${entry.type} height`) || tkhdHeight;
    const childrenAt = entry.start + VISUAL_SAMPLE_ENTRY_FIELDS + 8;
    if (childrenAt > entry.end) throw new Fmp4Error('malformed', `${entry.type} sample entry is too short`);
    return { trackId, kind, handler, timescale, sampleEntry: entry.type, codec: videoCodec(r, entry, childrenAt), width, height };
  }
  const channels = r.u16(entry.body + 16, entry.end, `${entry.type} channelcount`);
  const sampleRate = r.u32(entry.body + 24, entry.end, `${entry.type} samplerate`) >>> 16;
  const childrenAt = entry.start + AUDIO_SAMPLE_ENTRY_FIELDS + 8;
  if (childrenAt > entry.end) throw new Fmp4Error('malformed', `${entry.type} sample entry is too short`);
  return { trackId, kind, handler, timescale, sampleEntry: entry.type, codec: audioCodec(r, entry, childrenAt), sampleRate, channels };
}

function videoCodec(r: Reader, entry: Box, childrenAt: number): string {
  const configs = r.children(childrenAt, entry.end);
  if (entry.type === 'avc1' || entry.type === 'avc3') {
    const avcC = configs.find((b) => b.type === 'avcC');
    if (!avcC) throw new Fmp4Error('malformed', `${entry.type} has no avcC`);
    // configurationVersion, AVCProfileIndication, profile_compatibility, AVCLevelIndication
    const profile = r.u8(avcC.body + 1, avcC.end, 'avcC profile');
    const constraints = r.u8(avcC.body + 2, avcC.end, 'avcC constraint flags');
    const level = r.u8(avcC.body + 3, avcC.end, 'avcC level');
    return `${entry.type}.${hex2(profile)}${hex2(constraints)}${hex2(level)}`;
  }
  if (entry.type === 'hvc1' || entry.type === 'hev1') {
    const hvcC = configs.find((b) => b.type === 'hvcC');
    return hvcC ? hevcCodec(r, entry.type, hvcC) : entry.type;
  }
  if (entry.type === 'av01') {
    const av1C = configs.find((b) => b.type === 'av1C');
    if (!av1C) throw new Fmp4Error('malformed', 'av01 has no av1C');
    return av1Codec(r, av1C);
  }
  return entry.type;
}

/**
 * AV1 in ISOBMFF, section 5 (codecs parameter): `av01.<profile>.<level><tier>.<bit depth>`, e.g.
 * `av01.0.04M.08`, from the av1C's seq_profile, seq_level_idx_0, seq_tier_0 and bit-depth flags.
 */
function av1Codec(r: Reader, av1C: Box): string {
  const marker = r.u8(av1C.body, av1C.end, 'av1C marker');
  if ((marker & 0x80) === 0) throw new Fmp4Error('malformed', 'av1C marker bit is not set');
  const b1 = r.u8(av1C.body + 1, av1C.end, 'av1C profile');
  const b2 = r.u8(av1C.body + 2, av1C.end, 'av1C tier');
  const profile = b1 >> 5;
  const level = b1 & 0x1f;
  const tier = b2 & 0x80 ? 'H' : 'M';
  const highBitDepth = (b2 & 0x40) !== 0;
  const twelveBit = (b2 & 0x20) !== 0;
  const depth = highBitDepth ? (profile === 2 && twelveBit ? 12 : 10) : 8;
  return `av01.${profile}.${String(level).padStart(2, '0')}${tier}.${String(depth).padStart(2, '0')}`;
}

/** ISO/IEC 14496-15 E.3: `hvc1.<space><profile>.<compatibility, bit-reversed>.<tier><level>.<constraints>`. */
function hevcCodec(r: Reader, type: string, hvcC: Box): string {
  const b1 = r.u8(hvcC.body + 1, hvcC.end, 'hvcC profile');
  const space = ['', 'A', 'B', 'C'][b1 >> 6] ?? '';
  const tier = (b1 >> 5) & 1 ? 'H' : 'L';
  const profile = b1 & 0x1f;
  const compatibility = r.u32(hvcC.body + 2, hvcC.end, 'hvcC compatibility');
  let reversed = 0;
  for (let i = 0; i < 32; i++) reversed = (reversed << 1) | ((compatibility >>> i) & 1);
  const constraints: string[] = [];
  for (let i = 0; i < 6; i++) constraints.push(r.u8(hvcC.body + 6 + i, hvcC.end, 'hvcC constraints').toString(16).toUpperCase());
  while (constraints.length > 0 && constraints[constraints.length - 1] === '0') constraints.pop();
  const level = r.u8(hvcC.body + 12, hvcC.end, 'hvcC level');
  return [type, `${space}${profile}`, (reversed >>> 0).toString(16).toUpperCase(), `${tier}${level}`, ...constraints].join('.');
}

function audioCodec(r: Reader, entry: Box, childrenAt: number): string {
  if (entry.type === 'Opus') return 'opus';
  if (entry.type === 'fLaC') return 'flac';
  if (entry.type !== 'mp4a') return entry.type;
  const esds = r.children(childrenAt, entry.end).find((b) => b.type === 'esds');
  if (!esds) return 'mp4a.40.2';
  // ES_Descriptor (0x03) → DecoderConfigDescriptor (0x04): objectTypeIndication → DecoderSpecificInfo (0x05): audioObjectType.
  let at = esds.body + 4;
  const descriptor = (tag: number): number | undefined => {
    if (r.u8(at, esds.end, 'esds tag') !== tag) return undefined;
    at += 1;
    let size = 0;
    for (let i = 0; i < 4; i++) {
      const b = r.u8(at, esds.end, 'esds size');
      at += 1;
      size = (size << 7) | (b & 0x7f);
      if ((b & 0x80) === 0) break;
    }
    return size;
  };
  if (descriptor(0x03) === undefined) return 'mp4a.40.2';
  const esFlags = r.u8(at + 2, esds.end, 'ES flags');
  at += 3;
  if (esFlags & 0x80) at += 2; // dependsOn_ES_ID
  if (esFlags & 0x40) at += 1 + r.u8(at, esds.end, 'URL length'); // URL
  if (esFlags & 0x20) at += 2; // OCR_ES_Id
  if (descriptor(0x04) === undefined) return 'mp4a.40.2';
  const objectType = r.u8(at, esds.end, 'objectTypeIndication');
  at += 13;
  if (objectType !== 0x40 || descriptor(0x05) === undefined) return `mp4a.${hex2(objectType)}`;
  let audioObjectType = r.u8(at, esds.end, 'AudioSpecificConfig') >> 3;
  if (audioObjectType === 31) audioObjectType = 32 + (((r.u16(at, esds.end, 'AudioSpecificConfig') >> 5) & 0x3f));
  return `mp4a.40.${audioObjectType}`;
}

/** Boxes that may precede moov inside an init segment. */
export const INIT_BOXES = new Set(['ftyp', 'free', 'skip', 'uuid', 'moov']);

/** Parse a complete init segment (a buffer that holds ftyp? + moov and nothing after the moov). */
export function parseInitSegment(data: Uint8Array, opts: MoovOptions = {}): InitSegment {
  const r = new Reader(data);
  const top = r.children(0, data.length);
  const moov = top.find((b) => b.type === 'moov');
  if (!moov) throw new Fmp4Error('malformed', 'no moov in init segment');
  for (const b of top) {
    if (!INIT_BOXES.has(b.type)) throw new Fmp4Error('malformed', `${b.type} box in init segment`);
  }
  if (top[top.length - 1] !== moov) throw new Fmp4Error('malformed', 'init segment does not end with moov');
  return { kind: 'init', data, ...parseMoov(r, moov, opts).init };
}

/** True if `data` is exactly one complete, parseable init segment (accepted by `opts`). */
export function isCompleteInitSegment(data: Uint8Array, opts: MoovOptions = {}): boolean {
  try {
    parseInitSegment(data, opts);
    return true;
  } catch (err) {
    if (err instanceof Fmp4Error) return false;
    throw err;
  }
}
