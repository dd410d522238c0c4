/**
 * Incremental fragmented-MP4 splitter.
 *
 * Why it exists: the ship's agent sends its encoder's fMP4 output up the link as arbitrary slices
 * (see `STREAM_HEADER_BYTES` in the protocol: slices need not align with boxes). The relay has to
 * cut that byte stream back into the units a browser's MediaSource accepts — one init segment
 * (ftyp + moov) and self-contained media fragments (moof + mdat) — and know which fragments start
 * with a keyframe, because a viewer can only begin (or resume after falling behind) at one.
 *
 * It is pure: bytes in, parsed units out; no I/O, no timers. Memory is bounded: at most one unit in
 * progress, which may not exceed `maxBoxBytes`; anything larger or structurally wrong raises an
 * `Fmp4Error` and the splitter refuses further input (the caller drops the stream; resynchronising
 * inside a corrupted MP4 byte stream is guesswork).
 */

export type Fmp4ErrorCode =
  /** A box (or a unit being assembled) is larger than the configured limit. */
  | 'tooLarge'
  /** Bytes that are not a fragmented MP4 stream, or boxes in an order that cannot be split. */
  | 'malformed'
  /** Valid MP4 that this relay does not carry (not H.264, no video track, size-0 boxes). */
  | 'unsupported'
  /** `end()` was called with a partial box still buffered. */
  | 'truncated';

export class Fmp4Error extends Error {
  readonly code: Fmp4ErrorCode;
  constructor(code: Fmp4ErrorCode, message: string) {
    super(message);
    this.code = code;
    this.name = 'Fmp4Error';
  }
}

/** The init segment (ftyp + moov) of the video track. `data` is a fresh copy owned by the unit. */
export interface InitSegment {
  kind: 'init';
  data: Uint8Array;
  /** RFC 6381 codec string, e.g. `avc1.42c01e`. */
  codec: string;
  width: number;
  height: number;
  /** Ticks per second of the video track (mdhd); fragment times and durations are in these. */
  timescale: number;
  trackId: number;
}

/** One media fragment ([styp/prft/sidx/emsg…] + moof + mdat). `data` is a fresh copy. */
export interface MediaFragment {
  kind: 'fragment';
  data: Uint8Array;
  /** The fragment's first sample of the video track is a sync sample. */
  keyframe: boolean;
  /** tfdt of the video track, in timescale ticks. */
  baseMediaDecodeTime: number;
  /** Sum of the video track's sample durations, in timescale ticks. */
  duration: number;
  sampleCount: number;
  /** mfhd sequence number. */
  sequenceNumber: number;
  /** Bytes in `data`. */
  size: number;
}

/** A top-level box outside any unit (mfra, free, udta…): reported so nothing is silently lost. */
export interface OtherBox {
  kind: 'other';
  type: string;
  data: Uint8Array;
}

export type Fmp4Unit = InitSegment | MediaFragment | OtherBox;

export interface Fmp4SplitterOptions {
  /** Largest box, and largest assembled unit, accepted. Default 16 MiB. */
  maxBoxBytes?: number;
}

export const DEFAULT_MAX_BOX_BYTES = 16 * 1024 * 1024;

/** `video/mp4; codecs="avc1.42c01e"` — what MediaSource.isTypeSupported / addSourceBuffer take. */
export function mimeFor(codec: string): string {
  return `video/mp4; codecs="${codec}"`;
}

// ---------------------------------------------------------------------------------------------
// Low-level box reading over a complete buffer.

interface Box {
  type: string;
  /** Offset of the box's first byte. */
  start: number;
  /** Offset of the first byte after the header (size, type, largesize). */
  body: number;
  /** Offset after the box's last byte. */
  end: number;
}

function fourcc(buf: Uint8Array, at: number): string {
  return String.fromCharCode(buf[at] ?? 0, buf[at + 1] ?? 0, buf[at + 2] ?? 0, buf[at + 3] ?? 0);
}

/** Box types are four printable ASCII characters; anything else means we are not on a box. */
function isPrintableType(buf: Uint8Array, at: number): boolean {
  for (let i = 0; i < 4; i++) {
    const c = buf[at + i] ?? 0;
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

function viewOf(buf: Uint8Array): DataView {
  return new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
}

/** Bounds-checked reads: a field past its box's end is a malformed box, not a RangeError. */
class Reader {
  readonly view: DataView;
  constructor(readonly buf: Uint8Array) {
    this.view = viewOf(buf);
  }
  private check(at: number, len: number, end: number, what: string): void {
    if (at < 0 || at + len > end) throw new Fmp4Error('malformed', `${what} runs past its box`);
  }
  u8(at: number, end: number, what: string): number {
    this.check(at, 1, end, what);
    return this.view.getUint8(at);
  }
  u16(at: number, end: number, what: string): number {
    this.check(at, 2, end, what);
    return this.view.getUint16(at);
  }
  u32(at: number, end: number, what: string): number {
    this.check(at, 4, end, what);
    return this.view.getUint32(at);
  }
  u64(at: number, end: number, what: string): number {
    this.check(at, 8, end, what);
    const v = this.view.getBigUint64(at);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new Fmp4Error('unsupported', `${what} exceeds 2^53`);
    return Number(v);
  }
}

/** The child boxes of [from, to). Throws on a child that does not fit its parent. */
function children(r: Reader, from: number, to: number): Box[] {
  const out: Box[] = [];
  let at = from;
  while (at < to) {
    if (to - at < 8) throw new Fmp4Error('malformed', `${to - at} stray bytes where a box header was expected`);
    const size32 = r.u32(at, to, 'box size');
    if (!isPrintableType(r.buf, at + 4)) throw new Fmp4Error('malformed', 'box type is not a four-character code');
    const type = fourcc(r.buf, at + 4);
    let size: number;
    let body = at + 8;
    if (size32 === 1) {
      size = r.u64(at + 8, to, `${type} largesize`);
      body = at + 16;
    } else if (size32 === 0) {
      size = to - at; // "extends to the end of the enclosing box"
    } else {
      size = size32;
    }
    if (size < body - at || at + size > to) throw new Fmp4Error('malformed', `${type} box size ${size} does not fit its parent`);
    out.push({ type, start: at, body, end: at + size });
    at += size;
  }
  return out;
}

function child(r: Reader, parent: Box, type: string): Box | undefined {
  return children(r, parent.body, parent.end).find((b) => b.type === type);
}

function requireChild(r: Reader, parent: Box, type: string): Box {
  const b = child(r, parent, type);
  if (!b) throw new Fmp4Error('malformed', `${parent.type} has no ${type}`);
  return b;
}

function hex2(n: number): string {
  return n.toString(16).padStart(2, '0');
}

// ---------------------------------------------------------------------------------------------
// moov: the video track's codec, size, timescale and fragment defaults.

/** What the splitter needs from moov to read fragments; `trex` defaults per track id. */
interface MovieInfo {
  init: Omit<InitSegment, 'kind' | 'data'>;
  trex: Map<number, TrackDefaults>;
}

interface TrackDefaults {
  duration?: number;
  flags?: number;
}

const AVC_SAMPLE_ENTRIES = new Set(['avc1', 'avc3']);
/** SampleEntry (8) + VisualSampleEntry fields (70) before the entry's child boxes. */
const VISUAL_SAMPLE_ENTRY_FIELDS = 78;

function parseMoov(r: Reader, moov: Box): MovieInfo {
  let video: Omit<InitSegment, 'kind' | 'data'> | undefined;
  for (const trak of children(r, moov.body, moov.end)) {
    if (trak.type !== 'trak') continue;
    const mdia = requireChild(r, trak, 'mdia');
    const hdlr = requireChild(r, mdia, 'hdlr');
    // FullBox header (4), pre_defined (4), handler_type (4)
    r.u32(hdlr.body + 8, hdlr.end, 'hdlr handler_type');
    if (fourcc(r.buf, hdlr.body + 8) !== 'vide') continue;
    if (video) throw new Fmp4Error('unsupported', 'more than one video track');
    video = parseVideoTrak(r, trak, mdia);
  }
  if (!video) throw new Fmp4Error('unsupported', 'moov has no video track');

  const trex = new Map<number, TrackDefaults>();
  const mvex = child(r, moov, 'mvex');
  if (mvex) {
    for (const b of children(r, mvex.body, mvex.end)) {
      if (b.type !== 'trex') continue;
      // FullBox (4), track_ID, default_sample_description_index, duration, size, flags
      const trackId = r.u32(b.body + 4, b.end, 'trex track_ID');
      trex.set(trackId, {
        duration: r.u32(b.body + 12, b.end, 'trex default_sample_duration'),
        flags: r.u32(b.body + 20, b.end, 'trex default_sample_flags'),
      });
    }
  }
  return { init: video, trex };
}

function parseVideoTrak(r: Reader, trak: Box, mdia: Box): Omit<InitSegment, 'kind' | 'data'> {
  const tkhd = requireChild(r, trak, 'tkhd');
  const tkhdVersion = r.u8(tkhd.body, tkhd.end, 'tkhd version');
  const trackId = r.u32(tkhd.body + (tkhdVersion === 1 ? 20 : 12), tkhd.end, 'tkhd track_ID');
  const dims = tkhd.body + (tkhdVersion === 1 ? 88 : 76);
  // 16.16 fixed point; the integer part is the display size.
  const tkhdWidth = r.u32(dims, tkhd.end, 'tkhd width') >>> 16;
  const tkhdHeight = r.u32(dims + 4, tkhd.end, 'tkhd height') >>> 16;

  const mdhd = requireChild(r, mdia, 'mdhd');
  const mdhdVersion = r.u8(mdhd.body, mdhd.end, 'mdhd version');
  const timescale = r.u32(mdhd.body + (mdhdVersion === 1 ? 20 : 12), mdhd.end, 'mdhd timescale');
  if (timescale === 0) throw new Fmp4Error('malformed', 'mdhd timescale is 0');

  const stbl = requireChild(r, requireChild(r, mdia, 'minf'), 'stbl');
  const stsd = requireChild(r, stbl, 'stsd');
  // FullBox (4), entry_count (4), then the sample entries; the first one describes the stream.
  const entries = children(r, stsd.body + 8, stsd.end);
  const entry = entries[0];
  if (!entry) throw new Fmp4Error('malformed', 'stsd has no sample entry');
  if (!AVC_SAMPLE_ENTRIES.has(entry.type)) throw new Fmp4Error('unsupported', `video sample entry ${entry.type} is not H.264`);
  const entryWidth = r.u16(entry.body + 24, entry.end, `${entry.type} width`);
  const entryHeight = r.u16(entry.body + 26, entry.end, `${entry.type} height`);
  const entryChildrenAt = entry.start + VISUAL_SAMPLE_ENTRY_FIELDS + 8;
  if (entryChildrenAt > entry.end) throw new Fmp4Error('malformed', `${entry.type} sample entry is too short`);
  const avcC = children(r, entryChildrenAt, entry.end).find((b) => b.type === 'avcC');
  if (!avcC) throw new Fmp4Error('malformed', `${entry.type} has no avcC`);
  // configurationVersion, AVCProfileIndication, profile_compatibility, AVCLevelIndication
  const profile = r.u8(avcC.body + 1, avcC.end, 'avcC profile');
  const constraints = r.u8(avcC.body + 2, avcC.end, 'avcC constraint flags');
  const level = r.u8(avcC.body + 3, avcC.end, 'avcC level');

  return {
    codec: `${entry.type}.${hex2(profile)}${hex2(constraints)}${hex2(level)}`,
    width: entryWidth || tkhdWidth,
    height: entryHeight || tkhdHeight,
    timescale,
    trackId,
  };
}

// ---------------------------------------------------------------------------------------------
// moof: keyframe, decode time, duration and sample count of the video track's run(s).

type FragmentInfo = Omit<MediaFragment, 'kind' | 'data' | 'size'>;

/**
 * Sample flags (ISO/IEC 14496-12 8.8.3.1): sample_depends_on in bits 25..24 (2: depends on no other
 * sample, i.e. an I-frame; 1: depends on others), sample_is_non_sync_sample in bit 16.
 */
function isSyncSample(flags: number): boolean {
  const dependsOn = (flags >>> 24) & 0x3;
  const nonSync = (flags >>> 16) & 0x1;
  return nonSync === 0 && dependsOn !== 1;
}

function parseMoof(r: Reader, moof: Box, movie: MovieInfo): FragmentInfo {
  const mfhd = requireChild(r, moof, 'mfhd');
  const sequenceNumber = r.u32(mfhd.body + 4, mfhd.end, 'mfhd sequence_number');
  const trafs = children(r, moof.body, moof.end).filter((b) => b.type === 'traf');
  if (trafs.length === 0) throw new Fmp4Error('malformed', 'moof has no traf');

  // Prefer the video track's traf; a single-track stream may still use another track id.
  let chosen: { traf: Box; tfhd: Box; trackId: number } | undefined;
  for (const traf of trafs) {
    const tfhd = requireChild(r, traf, 'tfhd');
    const trackId = r.u32(tfhd.body + 4, tfhd.end, 'tfhd track_ID');
    if (trackId === movie.init.trackId) {
      chosen = { traf, tfhd, trackId };
      break;
    }
    chosen ??= { traf, tfhd, trackId };
  }
  if (!chosen) throw new Fmp4Error('malformed', 'moof has no traf');
  const { traf, tfhd, trackId } = chosen;
  const trex = movie.trex.get(trackId) ?? {};

  // tfhd: FullBox (4), track_ID (4), then optional fields in flag order.
  const tfhdFlags = r.u32(tfhd.body, tfhd.end, 'tfhd flags') & 0xffffff;
  let at = tfhd.body + 8;
  if (tfhdFlags & 0x000001) at += 8; // base_data_offset
  if (tfhdFlags & 0x000002) at += 4; // sample_description_index
  let defaultDuration = trex.duration;
  let defaultFlags = trex.flags;
  if (tfhdFlags & 0x000008) {
    defaultDuration = r.u32(at, tfhd.end, 'tfhd default_sample_duration');
    at += 4;
  }
  if (tfhdFlags & 0x000010) at += 4; // default_sample_size
  if (tfhdFlags & 0x000020) defaultFlags = r.u32(at, tfhd.end, 'tfhd default_sample_flags');

  const tfdt = child(r, traf, 'tfdt');
  let baseMediaDecodeTime = 0;
  if (tfdt) {
    const v = r.u8(tfdt.body, tfdt.end, 'tfdt version');
    baseMediaDecodeTime = v === 1 ? r.u64(tfdt.body + 4, tfdt.end, 'tfdt time') : r.u32(tfdt.body + 4, tfdt.end, 'tfdt time');
  }

  let sampleCount = 0;
  let duration = 0;
  let firstFlags: number | undefined;
  for (const trun of children(r, traf.body, traf.end)) {
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
    for (let i = 0; i < count && perSample > 0; i++) {
      if (hasDuration) duration += r.u32(p, trun.end, 'trun sample_duration');
      if (i === 0 && hasFlags) firstSampleFlags ??= r.u32(p + (hasDuration ? 4 : 0) + (hasSize ? 4 : 0), trun.end, 'trun sample_flags');
      p += perSample;
    }
    if (sampleCount === 0 && count > 0) firstFlags = firstSampleFlags ?? defaultFlags ?? 0;
    sampleCount += count;
  }
  if (!Number.isSafeInteger(duration)) throw new Fmp4Error('unsupported', 'fragment duration exceeds 2^53');

  return {
    keyframe: firstFlags !== undefined && isSyncSample(firstFlags),
    baseMediaDecodeTime,
    duration,
    sampleCount,
    sequenceNumber,
  };
}

// ---------------------------------------------------------------------------------------------
// Re-scanning complete buffers.

/** Parse a complete init segment (a buffer that holds ftyp? + moov and nothing after the moov). */
export function parseInitSegment(data: Uint8Array): InitSegment {
  const r = new Reader(data);
  const boxes = children(r, 0, data.length);
  const moov = boxes.find((b) => b.type === 'moov');
  if (!moov) throw new Fmp4Error('malformed', 'no moov in init segment');
  for (const b of boxes) {
    if (!INIT_BOXES.has(b.type)) throw new Fmp4Error('malformed', `${b.type} box in init segment`);
  }
  if (boxes[boxes.length - 1] !== moov) throw new Fmp4Error('malformed', 'init segment does not end with moov');
  return { kind: 'init', data, ...parseMoov(r, moov).init };
}

/** True if `data` is exactly one complete, parseable H.264 init segment. */
export function isCompleteInitSegment(data: Uint8Array): boolean {
  try {
    parseInitSegment(data);
    return true;
  } catch (err) {
    if (err instanceof Fmp4Error) return false;
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// The incremental splitter.

/** Boxes that may precede moov inside an init segment. */
const INIT_BOXES = new Set(['ftyp', 'free', 'skip', 'uuid', 'moov']);
/** Boxes that belong to the fragment that follows them (CMAF segment header, timing, events). */
const FRAGMENT_PREFIX_BOXES = new Set(['styp', 'prft', 'sidx', 'ssix', 'emsg']);

/**
 * A FIFO of pushed chunks. Chunks are referenced, not copied, until consumed; units are assembled
 * into fresh buffers so nothing emitted aliases the caller's memory.
 */
class ByteQueue {
  private chunks: Uint8Array[] = [];
  /** Index of the first unconsumed chunk (avoids O(n) shift() with many tiny chunks). */
  private head = 0;
  /** Bytes already consumed from chunks[head]. */
  private offset = 0;
  length = 0;

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  /** Copy of the first n bytes (n ≤ length), leaving them queued. */
  peek(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let filled = 0;
    let off = this.offset;
    for (let i = this.head; i < this.chunks.length && filled < n; i++) {
      const part = (this.chunks[i] as Uint8Array).subarray(off, off + (n - filled));
      out.set(part, filled);
      filled += part.length;
      off = 0;
    }
    return out;
  }

  /** Move the first n bytes (n ≤ length) into `into` at `at`, consuming them. */
  takeInto(n: number, into: Uint8Array, at: number): void {
    let left = n;
    while (left > 0) {
      const c = this.chunks[this.head];
      if (!c) throw new Error('ByteQueue underflow');
      const avail = c.length - this.offset;
      const k = Math.min(avail, left);
      into.set(c.subarray(this.offset, this.offset + k), at + (n - left));
      left -= k;
      if (k === avail) {
        this.head++;
        this.offset = 0;
      } else {
        this.offset += k;
      }
    }
    this.length -= n;
    if (this.head === this.chunks.length) {
      this.chunks = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
  }

  take(n: number): Uint8Array {
    const out = new Uint8Array(n);
    this.takeInto(n, out, 0);
    return out;
  }

  clear(): void {
    this.chunks = [];
    this.head = 0;
    this.offset = 0;
    this.length = 0;
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
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

export class Fmp4Splitter {
  private readonly maxBoxBytes: number;
  private readonly queue = new ByteQueue();
  /** Header of the top-level box being received, once known. */
  private box: { type: string; size: number } | undefined;
  /** Boxes of the init segment in progress (ftyp, free…), waiting for moov. */
  private initParts: Uint8Array[] = [];
  /** Boxes of the fragment in progress (styp, prft…, then moof), waiting for mdat. */
  private fragmentParts: Uint8Array[] = [];
  private pendingBytes = 0;
  private moofInfo: FragmentInfo | undefined;
  private movie: MovieInfo | undefined;
  private failure: Fmp4Error | undefined;
  private consumed = 0;

  constructor(options: Fmp4SplitterOptions = {}) {
    this.maxBoxBytes = options.maxBoxBytes ?? DEFAULT_MAX_BOX_BYTES;
  }

  /** Bytes held for an incomplete box or unit: never more than about `maxBoxBytes` + one chunk. */
  get bufferedBytes(): number {
    return this.queue.length + this.pendingBytes;
  }

  /** The latest init segment seen, if any. */
  get init(): InitSegment | undefined {
    return this.latestInit;
  }
  private latestInit: InitSegment | undefined;

  /**
   * Feed the next slice of the stream. Returns the units it completed, in stream order. Throws
   * `Fmp4Error` on bad input; after that every call throws the same error. The splitter keeps
   * references to pushed chunks until it has consumed them: do not modify a chunk after pushing it.
   */
  push(chunk: Uint8Array): Fmp4Unit[] {
    if (this.failure) throw this.failure;
    try {
      this.queue.push(chunk);
      return this.drain();
    } catch (err) {
      if (err instanceof Fmp4Error) {
        this.failure = err;
        this.queue.clear();
        this.initParts = [];
        this.fragmentParts = [];
        this.pendingBytes = 0;
      }
      throw err;
    }
  }

  /** The stream has ended: throws `truncated` if it stopped inside a box or unit. */
  end(): void {
    if (this.failure) throw this.failure;
    if (this.queue.length > 0 || this.pendingBytes > 0) {
      this.failure = new Fmp4Error('truncated', `stream ended inside a box (${this.bufferedBytes} bytes pending)`);
      throw this.failure;
    }
  }

  private fail(code: Fmp4ErrorCode, message: string): never {
    throw new Fmp4Error(code, `${message} (at stream byte ${this.consumed})`);
  }

  private drain(): Fmp4Unit[] {
    const out: Fmp4Unit[] = [];
    for (;;) {
      if (!this.box) {
        if (this.queue.length < 8) break;
        const head = this.queue.peek(Math.min(16, this.queue.length));
        const view = viewOf(head);
        const size32 = view.getUint32(0);
        if (!isPrintableType(head, 4)) this.fail('malformed', 'top-level box type is not a four-character code');
        const type = fourcc(head, 4);
        let size: number;
        if (size32 === 1) {
          if (head.length < 16) break;
          const big = view.getBigUint64(8);
          if (big > BigInt(this.maxBoxBytes)) this.fail('tooLarge', `${type} box of ${big} bytes exceeds ${this.maxBoxBytes}`);
          size = Number(big);
          if (size < 16) this.fail('malformed', `${type} box size ${size} is smaller than its header`);
        } else if (size32 === 0) {
          this.fail('unsupported', `${type} box without a size (to end of file) cannot be relayed live`);
        } else {
          size = size32;
          if (size < 8) this.fail('malformed', `${type} box size ${size} is smaller than its header`);
        }
        if (size > this.maxBoxBytes) this.fail('tooLarge', `${type} box of ${size} bytes exceeds ${this.maxBoxBytes}`);
        if (this.pendingBytes + size > this.maxBoxBytes) {
          this.fail('tooLarge', `unit of ${this.pendingBytes + size} bytes (ending in ${type}) exceeds ${this.maxBoxBytes}`);
        }
        this.validateOrder(type);
        this.box = { type, size };
      }
      const { type, size } = this.box;
      if (this.queue.length < size) break;
      this.box = undefined;
      const unit = this.onBox(type, size);
      this.consumed += size;
      if (unit) out.push(unit);
    }
    return out;
  }

  /** Reject impossible orders as soon as a header is seen, before buffering the box's body. */
  private validateOrder(type: string): void {
    if (type === 'moof' || type === 'mdat' || FRAGMENT_PREFIX_BOXES.has(type)) {
      if (this.initParts.length > 0) this.fail('malformed', `${type} before the moov of an init segment`);
      if (!this.movie) this.fail('malformed', `${type} before any init segment`);
      if (type === 'mdat' && !this.moofInfo) this.fail('malformed', 'mdat without a preceding moof');
      if (type !== 'mdat' && this.moofInfo) this.fail('malformed', `${type} between moof and its mdat`);
    } else if (type === 'ftyp' || type === 'moov') {
      if (this.fragmentParts.length > 0) this.fail('malformed', `${type} inside a media fragment`);
      if (type === 'ftyp' && this.initParts.length > 0) this.fail('malformed', 'two ftyp boxes without a moov');
    }
  }

  private onBox(type: string, size: number): Fmp4Unit | undefined {
    if (type === 'mdat') {
      // Assemble prefix + moof + mdat with one copy of the (large) mdat.
      const data = new Uint8Array(this.pendingBytes + size);
      let at = 0;
      for (const p of this.fragmentParts) {
        data.set(p, at);
        at += p.length;
      }
      this.queue.takeInto(size, data, at);
      const info = this.moofInfo;
      if (!info) this.fail('malformed', 'mdat without a preceding moof');
      this.fragmentParts = [];
      this.pendingBytes = 0;
      this.moofInfo = undefined;
      return { kind: 'fragment', data, size: data.length, ...info };
    }

    const box = this.queue.take(size);
    if (type === 'moov') {
      const data = concat([...this.initParts, box]);
      const r = new Reader(data);
      const moov = children(r, data.length - size, data.length)[0];
      if (!moov) this.fail('malformed', 'moov vanished');
      this.movie = parseMoov(r, moov);
      this.initParts = [];
      this.pendingBytes = 0;
      this.latestInit = { kind: 'init', data, ...this.movie.init };
      return this.latestInit;
    }
    if (type === 'moof') {
      const movie = this.movie;
      if (!movie) this.fail('malformed', 'moof before any init segment');
      const r = new Reader(box);
      const moof = children(r, 0, box.length)[0];
      if (!moof) this.fail('malformed', 'moof vanished');
      this.moofInfo = parseMoof(r, moof, movie);
      this.fragmentParts.push(box);
      this.pendingBytes += size;
      return undefined;
    }
    if (type === 'ftyp' || (this.initParts.length > 0 && INIT_BOXES.has(type))) {
      this.initParts.push(box);
      this.pendingBytes += size;
      return undefined;
    }
    if (FRAGMENT_PREFIX_BOXES.has(type)) {
      this.fragmentParts.push(box);
      this.pendingBytes += size;
      return undefined;
    }
    if (this.initParts.length > 0) this.fail('malformed', `${type} between ftyp and moov`);
    if (this.fragmentParts.length > 0) this.fail('malformed', `${type} inside a media fragment`);
    return { kind: 'other', type, data: box };
  }
}
