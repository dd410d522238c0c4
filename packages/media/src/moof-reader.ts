import { Reader } from './boxes.ts';
import { Fmp4Error } from './errors.ts';
import { type FragmentInfo, parseMoof } from './fragment.ts';
import { type InitSegment, type MovieInfo, parseInitSegment, parseMoov } from './init-segment.ts';

/**
 * Reads fragments' headers alone — a moof without its mdat — against an init segment: what a
 * reader of a file on disk needs to know where each fragment lies in time and whether a picture can
 * start it, without reading the pictures themselves.
 */
export class MoofReader {
  readonly init: InitSegment;
  private readonly movie: MovieInfo;

  /** `init`: the file's init segment (ftyp and moov). Throws Fmp4Error when it does not parse. */
  constructor(init: Uint8Array) {
    this.init = parseInitSegment(init);
    const r = new Reader(init);
    const moov = r.children(0, init.length).find((b) => b.type === 'moov');
    if (!moov) throw new Fmp4Error('malformed', 'no moov in init segment');
    this.movie = parseMoov(r, moov);
  }

  /** The fragment a moof box (its bytes, whole) heads: its time, duration, pictures and whether it starts at a keyframe. */
  read(moof: Uint8Array): FragmentInfo {
    const r = new Reader(moof);
    const box = r.children(0, moof.length).find((b) => b.type === 'moof');
    if (!box) throw new Fmp4Error('malformed', 'not a moof box');
    return parseMoof(r, box, this.movie);
  }
}
