/**
 * Incremental fragmented-MP4 splitter: bytes in arbitrary slices in, whole units out — one init
 * segment (ftyp + moov) and self-contained media fragments (moof + mdat, with any styp/prft/sidx
 * before them), each knowing whether it starts with a keyframe, because a viewer can only begin
 * (or resume after falling behind) at one. The shore relay cuts what ships send with it, the agent
 * cuts its encoders' output with it.
 *
 * It is pure: bytes in, parsed units out; no I/O, no timers. Memory is bounded: at most one unit in
 * progress, which may not exceed `maxBoxBytes`; anything larger or structurally wrong raises an
 * `Fmp4Error` and the splitter refuses further input (the caller drops the stream; resynchronising
 * inside a corrupted MP4 byte stream is guesswork).
 */
import { Reader, fourcc, isPrintableType, viewOf } from './boxes.ts';
import { ByteQueue } from './byte-queue.ts';
import { Fmp4Error, type Fmp4ErrorCode } from './errors.ts';
import { type FragmentInfo, type MediaFragment, parseMoof } from './fragment.ts';
import { INIT_BOXES, type InitSegment, type MoovOptions, type MovieInfo, parseMoov } from './init-segment.ts';
import { concatBytes } from './writer.ts';

/** A top-level box outside any unit (mfra, free, udta…): reported so nothing is silently lost. */
export interface OtherBox {
  kind: 'other';
  type: string;
  data: Uint8Array;
}

export type Fmp4Unit = InitSegment | MediaFragment | OtherBox;

export interface Fmp4SplitterOptions extends MoovOptions {
  /** Largest box, and largest assembled unit, accepted. Default 16 MiB. */
  maxBoxBytes?: number;
}

export const DEFAULT_MAX_BOX_BYTES = 16 * 1024 * 1024;

/** Boxes that belong to the fragment that follows them (CMAF segment header, timing, events). */
const FRAGMENT_PREFIX_BOXES = new Set(['styp', 'prft', 'sidx', 'ssix', 'emsg']);

export class Fmp4Splitter {
  private readonly maxBoxBytes: number;
  private readonly moovOptions: MoovOptions;
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
  private latestInit: InitSegment | undefined;

  constructor(options: Fmp4SplitterOptions = {}) {
    this.maxBoxBytes = options.maxBoxBytes ?? DEFAULT_MAX_BOX_BYTES;
    this.moovOptions = options.videoEntries ? { videoEntries: options.videoEntries } : {};
  }

  /** Bytes held for an incomplete box or unit: never more than about `maxBoxBytes` + one chunk. */
  get bufferedBytes(): number {
    return this.queue.length + this.pendingBytes;
  }

  /** The latest init segment seen, if any. */
  get init(): InitSegment | undefined {
    return this.latestInit;
  }

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
          this.fail('unsupported', `${type} box without a size (to end of file) cannot be split`);
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
      const data = concatBytes([...this.initParts, box]);
      const r = new Reader(data);
      const moov = r.children(data.length - size, data.length)[0];
      if (!moov) this.fail('malformed', 'moov vanished');
      this.movie = parseMoov(r, moov, this.moovOptions);
      this.initParts = [];
      this.pendingBytes = 0;
      this.latestInit = { kind: 'init', data, ...this.movie.init };
      return this.latestInit;
    }
    if (type === 'moof') {
      const movie = this.movie;
      if (!movie) this.fail('malformed', 'moof before any init segment');
      const r = new Reader(box);
      const moof = r.children(0, box.length)[0];
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
    // A copy: nothing emitted aliases the caller's chunks.
    return { kind: 'other', type, data: box.slice() };
  }
}
