/**
 * Just enough ISO-BMFF reading for the player to place a new stream after the old one in the
 * buffer: the timescale from the init segment and the first decode time of a fragment. The rest
 * of the MP4 is the browser's business.
 */
export interface Box {
  type: string;
  /** Offset of the box header. */
  start: number;
  /** Offset of the first byte after the header. */
  body: number;
  /** Offset just past the box. */
  end: number;
}

/** The complete boxes between `from` and `to`; stops at a truncated one. */
export function* boxes(bytes: Uint8Array, from = 0, to = bytes.length): Generator<Box> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
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
    const type = String.fromCharCode(bytes[at + 4] ?? 0, bytes[at + 5] ?? 0, bytes[at + 6] ?? 0, bytes[at + 7] ?? 0);
    yield { type, start: at, body: at + header, end: at + size };
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

export function isInitSegment(bytes: Uint8Array): boolean {
  const first = boxes(bytes).next();
  return !first.done && (first.value.type === 'ftyp' || first.value.type === 'moov');
}

/**
 * Timescale of the first track (units per second). The streams are video-only; with audio added,
 * this should match tracks by id.
 */
export function readTimescale(init: Uint8Array): number | undefined {
  const mdhd = findBox(init, ['moov', 'trak', 'mdia', 'mdhd']);
  if (!mdhd) return undefined;
  const view = new DataView(init.buffer, init.byteOffset, init.byteLength);
  const version = init[mdhd.body];
  // version 1 has 64-bit creation and modification times before the timescale.
  const at = mdhd.body + (version === 1 ? 20 : 12);
  return at + 4 <= mdhd.end ? view.getUint32(at) : undefined;
}

/** baseMediaDecodeTime of the first track fragment, in the track's timescale. */
export function readBaseDecodeTime(fragment: Uint8Array): number | undefined {
  const tfdt = findBox(fragment, ['moof', 'traf', 'tfdt']);
  if (!tfdt) return undefined;
  const view = new DataView(fragment.buffer, fragment.byteOffset, fragment.byteLength);
  const version = fragment[tfdt.body];
  if (version === 1) return tfdt.body + 12 <= tfdt.end ? Number(view.getBigUint64(tfdt.body + 4)) : undefined;
  return tfdt.body + 8 <= tfdt.end ? view.getUint32(tfdt.body + 4) : undefined;
}
