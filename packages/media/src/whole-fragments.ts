/**
 * What a fragmented-MP4 file holds of whole media, for a file whose writing was cut off (a
 * recorder killed, a disk that lost its tail): the init segment and every fragment written out in
 * full before the end. The file may end inside a box, or after a moof whose mdat never came; that
 * tail is not media anyone can play and is where the file is to be cut back to.
 */
import { viewOf } from './boxes.ts';
import type { InitSegment } from './init-segment.ts';
import { type Fmp4SplitterOptions, Fmp4Splitter } from './splitter.ts';

export interface WholeFragments {
  /** Bytes from the file's start to the end of its last whole box that leaves no fragment half made. */
  bytes: number;
  init: InitSegment;
  /** Whole fragments (moof + mdat) in those bytes. */
  fragments: number;
  /** Video samples (pictures) in them. */
  samples: number;
  /** The video's decode time at the first fragment and where the last one ends, in `init.timescale` ticks. */
  startTick: number;
  endTick: number;
  /** How long the whole fragments' video lasts, in milliseconds. */
  durationMs: number;
}

/** Boxes that open a fragment: until its mdat is whole, the fragment is not. */
const FRAGMENT_BOXES = new Set(['styp', 'prft', 'sidx', 'ssix', 'emsg', 'moof']);

/**
 * Where the whole boxes of `data` end, leaving out a fragment begun but not finished: the length
 * a cut-off file is to be truncated to.
 */
export function wholeBoxesEnd(data: Uint8Array): number {
  const view = viewOf(data);
  let at = 0;
  let cut = 0;
  let fragmentFrom: number | undefined;
  while (at + 8 <= data.length) {
    const size32 = view.getUint32(at);
    const type = String.fromCharCode(data[at + 4]!, data[at + 5]!, data[at + 6]!, data[at + 7]!);
    let size: number;
    if (size32 === 1) {
      if (at + 16 > data.length) break;
      size = Number(view.getBigUint64(at + 8));
      if (size < 16) break;
    } else {
      // 0 ("to the end of the file") is never whole in a file cut short; below 8 is not a box.
      if (size32 < 8) break;
      size = size32;
    }
    if (at + size > data.length) break;
    if (FRAGMENT_BOXES.has(type)) fragmentFrom ??= at;
    else if (type === 'mdat') {
      fragmentFrom = undefined;
      cut = at + size;
    } else if (fragmentFrom === undefined) cut = at + size;
    at += size;
  }
  return cut;
}

/**
 * The whole media of a fragmented-MP4 file that may have been cut off while written: undefined
 * when it has no init segment or no whole fragment, or when what is whole does not
 * parse (a file that is not fragmented MP4, or corrupt rather than cut short).
 */
export function wholeFragments(data: Uint8Array, options: Fmp4SplitterOptions = {}): WholeFragments | undefined {
  const bytes = wholeBoxesEnd(data);
  if (bytes === 0) return undefined;
  let init: InitSegment | undefined;
  let fragments = 0;
  let samples = 0;
  let startTick = 0;
  let endTick = 0;
  try {
    const splitter = new Fmp4Splitter(options);
    for (const unit of splitter.push(data.subarray(0, bytes))) {
      if (unit.kind === 'init') init ??= unit;
      else if (unit.kind === 'fragment') {
        if (fragments === 0) startTick = endTick = unit.baseMediaDecodeTime;
        fragments += 1;
        samples += unit.sampleCount;
        endTick = Math.max(endTick, unit.baseMediaDecodeTime + unit.duration);
      }
    }
    splitter.end();
  } catch {
    return undefined;
  }
  if (!init || fragments === 0) return undefined;
  return { bytes, init, fragments, samples, startTick, endTick, durationMs: Math.round(((endTick - startTick) * 1000) / init.timescale) };
}
