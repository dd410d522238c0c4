import { describe, expect, it } from 'vitest';
import { box, initSegment, mediaFragment, wholeBoxesEnd, wholeFragments } from '../src/index.ts';
import { concat } from './fakes.ts';

const AVCC = Uint8Array.of(1, 0x4d, 0x40, 0x1f, 0xff, 0xe0, 0);
const init = initSegment({ avcConfig: AVCC, width: 640, height: 360, timescale: 90_000 });
const frames = [0, 1, 2, 3].map((i) =>
  mediaFragment({ sequence: i + 1, baseMediaDecodeTime: 45_000 + i * 9_000, duration: 9_000, keyframe: i === 0, data: Uint8Array.of(i, i, i, i, i, i) }),
);
const length = (...parts: Uint8Array[]) => parts.reduce((n, p) => n + p.length, 0);
/** The moof of a fragment (its first box), without its mdat. */
const moofOf = (fragment: Uint8Array) => fragment.subarray(0, new DataView(fragment.buffer, fragment.byteOffset).getUint32(0));

describe('the whole media of a file cut off while written', () => {
  it('a whole file is kept whole, trailing boxes included', () => {
    const file = concat(init, ...frames, box('mfra', new Uint8Array(8)));
    expect(wholeBoxesEnd(file)).toBe(file.length);
    expect(wholeFragments(file)).toMatchObject({ bytes: file.length, fragments: 4, startTick: 45_000, endTick: 45_000 + 4 * 9_000, init: { timescale: 90_000 }, durationMs: 400 });
  });

  it('ends after the last whole fragment when the file stops inside a box', () => {
    const cut = concat(init, ...frames.slice(0, 3), frames[3]!.subarray(0, frames[3]!.length - 3));
    expect(wholeFragments(cut)).toMatchObject({ bytes: length(init, ...frames.slice(0, 3)), fragments: 3, startTick: 45_000, endTick: 45_000 + 3 * 9_000, durationMs: 300 });
    // Stopped inside a box header, too.
    const inHeader = concat(init, frames[0]!, frames[1]!.subarray(0, 5));
    expect(wholeFragments(inHeader)).toMatchObject({ bytes: length(init, frames[0]!), fragments: 1 });
  });

  it('leaves out a moof whose mdat never came', () => {
    const cut = concat(init, frames[0]!, moofOf(frames[1]!));
    expect(wholeBoxesEnd(cut)).toBe(length(init, frames[0]!));
    expect(wholeFragments(cut)?.fragments).toBe(1);
  });

  it('a file with no whole fragment, no init segment, or that is not fragmented MP4 has nothing to keep', () => {
    expect(wholeFragments(init)).toBeUndefined();
    expect(wholeFragments(concat(init, frames[0]!.subarray(0, 20)))).toBeUndefined();
    expect(wholeFragments(concat(...frames))).toBeUndefined();
    expect(wholeFragments(new Uint8Array(5000).fill(7))).toBeUndefined();
    expect(wholeFragments(new Uint8Array(0))).toBeUndefined();
  });
});
