/**
 * ISO-BMFF boxes over a complete buffer: a strict reader (bounds-checked fields, a child that does
 * not fit its parent is an error) for what must be understood, and a lenient walk (stops at the
 * first truncated box) for quick looks at bytes that may be cut short.
 */
import { Fmp4Error } from './errors.ts';

export interface Box {
  type: string;
  /** Offset of the box's first byte. */
  start: number;
  /** Offset of the first byte after the header (size, type, largesize). */
  body: number;
  /** Offset after the box's last byte. */
  end: number;
}

export function fourcc(buf: Uint8Array, at: number): string {
  return String.fromCharCode(buf[at] ?? 0, buf[at + 1] ?? 0, buf[at + 2] ?? 0, buf[at + 3] ?? 0);
}

/** Box types are four printable ASCII characters; anything else means we are not on a box. */
export function isPrintableType(buf: Uint8Array, at: number): boolean {
  for (let i = 0; i < 4; i++) {
    const c = buf[at + i] ?? 0;
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

export function viewOf(buf: Uint8Array): DataView {
  return new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
}

/** Bounds-checked reads: a field past its box's end is a malformed box, not a RangeError. */
export class Reader {
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

  /** The child boxes of [from, to). Throws on a child that does not fit its parent. */
  children(from: number, to: number): Box[] {
    const out: Box[] = [];
    let at = from;
    while (at < to) {
      if (to - at < 8) throw new Fmp4Error('malformed', `${to - at} stray bytes where a box header was expected`);
      const size32 = this.u32(at, to, 'box size');
      if (!isPrintableType(this.buf, at + 4)) throw new Fmp4Error('malformed', 'box type is not a four-character code');
      const type = fourcc(this.buf, at + 4);
      let size: number;
      let body = at + 8;
      if (size32 === 1) {
        size = this.u64(at + 8, to, `${type} largesize`);
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

  child(parent: Box, type: string): Box | undefined {
    return this.children(parent.body, parent.end).find((b) => b.type === type);
  }

  requireChild(parent: Box, type: string): Box {
    const b = this.child(parent, type);
    if (!b) throw new Fmp4Error('malformed', `${parent.type} has no ${type}`);
    return b;
  }
}

/** The complete boxes between `from` and `to`; stops at a truncated one (never throws). */
export function* boxes(bytes: Uint8Array, from = 0, to = bytes.length): Generator<Box> {
  const view = viewOf(bytes);
  let at = from;
  while (at + 8 <= to) {
    let size = view.getUint32(at);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) return;
      size = Number(view.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) {
      size = to - at;
    }
    if (size < header || at + size > to) return;
    yield { type: fourcc(bytes, at + 4), start: at, body: at + header, end: at + size };
    at += size;
  }
}

/** The first box along a path of container types, e.g. ['moov', 'trak', 'mdia', 'mdhd']. */
export function findBox(bytes: Uint8Array, path: readonly string[], from = 0, to = bytes.length): Box | undefined {
  const [head, ...rest] = path;
  if (head === undefined) return undefined;
  for (const box of boxes(bytes, from, to)) {
    if (box.type !== head) continue;
    return rest.length === 0 ? box : findBox(bytes, rest, box.body, box.end);
  }
  return undefined;
}

/** Every box along a path, e.g. each ['moof', 'traf'] of a fragment. */
export function findBoxes(bytes: Uint8Array, path: readonly string[], from = 0, to = bytes.length): Box[] {
  const [head, ...rest] = path;
  if (head === undefined) return [];
  const out: Box[] = [];
  for (const box of boxes(bytes, from, to)) {
    if (box.type !== head) continue;
    if (rest.length === 0) out.push(box);
    else out.push(...findBoxes(bytes, rest, box.body, box.end));
  }
  return out;
}
