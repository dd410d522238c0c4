/**
 * A picture-only copy of a stream with sound, for a player that does not want the sound yet: a
 * browser plays a two-track SourceBuffer only where both tracks are buffered and holds the picture
 * to its audio clock, which costs a muted live view hundreds of milliseconds. Without the sound
 * track the picture plays as early as a stream that never had sound.
 *
 * The init segment loses its sound traks and their trex; a fragment loses its sound trafs (the
 * moof shrinks, so the data offsets of the trafs that stay, counted from the moof, shrink by as
 * much; the sound bytes stay unreferenced at the end of the mdat). A fragment with nothing but
 * sound has nothing left: undefined.
 */
import { type Box, boxes, findBox, fourcc, viewOf } from './boxes.ts';
import { concatBytes } from './writer.ts';

const u32 = (value: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, value);
  return b;
};

/** `box` rebuilt with the given children (its header re-sized, 32-bit). */
function rebuild(bytes: Uint8Array, box: Box, children: readonly Uint8Array[]): Uint8Array {
  const head = bytes.slice(box.start, box.body);
  const size = 8 + concatBytes(children).length;
  return concatBytes([u32(size), head.subarray(4, 8), ...children]);
}

function handlerOf(bytes: Uint8Array, trak: Box): string | undefined {
  const hdlr = findBox(bytes, ['mdia', 'hdlr'], trak.body, trak.end);
  return hdlr && hdlr.body + 12 <= hdlr.end ? fourcc(bytes, hdlr.body + 8) : undefined;
}

function trackIdOfTrak(bytes: Uint8Array, trak: Box): number | undefined {
  const tkhd = findBox(bytes, ['tkhd'], trak.body, trak.end);
  if (!tkhd) return undefined;
  const at = tkhd.body + (bytes[tkhd.body] === 1 ? 20 : 12);
  return at + 4 <= tkhd.end ? viewOf(bytes).getUint32(at) : undefined;
}

/** The init segment without its sound tracks, and their ids (none: the same bytes, []). */
export function stripSoundFromInit(init: Uint8Array): { init: Uint8Array; soundTrackIds: number[] } {
  const soundTrackIds: number[] = [];
  const top: Uint8Array[] = [];
  for (const b of boxes(init)) {
    if (b.type !== 'moov') {
      top.push(init.subarray(b.start, b.end));
      continue;
    }
    const kept: Uint8Array[] = [];
    for (const child of boxes(init, b.body, b.end)) {
      if (child.type === 'trak' && handlerOf(init, child) === 'soun') {
        const id = trackIdOfTrak(init, child);
        if (id !== undefined) soundTrackIds.push(id);
        continue;
      }
      kept.push(init.subarray(child.start, child.end));
    }
    // trex of a removed track goes too (mvex comes after the traks).
    const moovChildren = kept.map((bytes) => {
      if (fourcc(bytes, 4) !== 'mvex') return bytes;
      const mvex = { type: 'mvex', start: 0, body: 8, end: bytes.length };
      const trexes = [...boxes(bytes, 8)].filter((t) => !(t.type === 'trex' && soundTrackIds.includes(viewOf(bytes).getUint32(t.body + 4))));
      return rebuild(bytes, mvex, trexes.map((t) => bytes.subarray(t.start, t.end)));
    });
    top.push(rebuild(init, b, moovChildren));
  }
  return soundTrackIds.length === 0 ? { init, soundTrackIds } : { init: concatBytes(top), soundTrackIds };
}

/** The fragment without the trafs of `soundTrackIds`; undefined when nothing else is in it. */
export function stripSoundFromFragment(fragment: Uint8Array, soundTrackIds: readonly number[]): Uint8Array | undefined {
  if (soundTrackIds.length === 0) return fragment;
  const view = viewOf(fragment);
  const out: Uint8Array[] = [];
  let changed = false;
  for (const b of boxes(fragment)) {
    if (b.type !== 'moof') {
      out.push(fragment.subarray(b.start, b.end));
      continue;
    }
    const kept: Box[] = [];
    let removed = 0;
    let trafs = 0;
    for (const child of boxes(fragment, b.body, b.end)) {
      if (child.type === 'traf') {
        const tfhd = findBox(fragment, ['tfhd'], child.body, child.end);
        const id = tfhd && tfhd.body + 8 <= tfhd.end ? view.getUint32(tfhd.body + 4) : undefined;
        if (id !== undefined && soundTrackIds.includes(id)) {
          removed += child.end - child.start;
          continue;
        }
        trafs++;
      }
      kept.push(child);
    }
    if (trafs === 0) return undefined;
    if (removed === 0) {
      out.push(fragment.subarray(b.start, b.end));
      continue;
    }
    changed = true;
    const children = kept.map((child) => {
      const bytes = fragment.slice(child.start, child.end);
      if (child.type !== 'traf') return bytes;
      // Data offsets count from the moof's start (default-base-is-moof): the moof is `removed` shorter.
      const v = new DataView(bytes.buffer);
      const tfhd = findBox(bytes, ['tfhd'], 8, bytes.length);
      const explicitBase = tfhd ? (v.getUint32(tfhd.body) & 0x1) !== 0 : false;
      if (explicitBase) return bytes;
      for (const trun of boxes(bytes, 8)) {
        if (trun.type !== 'trun' || !(v.getUint32(trun.body) & 0x1)) continue;
        v.setInt32(trun.body + 8, v.getInt32(trun.body + 8) - removed);
      }
      return bytes;
    });
    out.push(rebuild(fragment, b, children));
  }
  return changed ? concatBytes(out) : fragment;
}
