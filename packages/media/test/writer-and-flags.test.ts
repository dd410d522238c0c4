import { describe, expect, it } from 'vitest';
import { Fmp4Splitter, SYNC_SAMPLE_FLAGS, NON_SYNC_SAMPLE_FLAGS, box, initSegment, mediaFragment, readFirstSampleFlags, u32s } from '../src/index.ts';
import { concat } from './fakes.ts';

const AVCC = Uint8Array.of(1, 0x4d, 0x40, 0x1f, 0xff, 0xe0, 0);

describe('the writer', () => {
  it('writes what the splitter reads back: codec, size, timescale, decode times, keyframes', () => {
    const init = initSegment({ avcConfig: AVCC, width: 640, height: 360, timescale: 90_000 });
    const frames = [true, false, false, true].map((keyframe, i) =>
      mediaFragment({ sequence: i + 1, baseMediaDecodeTime: 2 ** 33 + i * 9_000, duration: 9_000, keyframe, compositionOffset: i === 1 ? 3_000 : 0, data: Uint8Array.of(i, i, i) }),
    );
    const units = new Fmp4Splitter().push(concat(init, ...frames));
    expect(units[0]).toMatchObject({ kind: 'init', codec: 'avc1.4d401f', codecs: ['avc1.4d401f'], width: 640, height: 360, timescale: 90_000, trackId: 1 });
    expect(units.slice(1).map((u) => (u.kind === 'fragment' ? [u.keyframe, u.baseMediaDecodeTime, u.duration, u.sequenceNumber, u.sampleCount] : u.kind))).toEqual([
      [true, 2 ** 33, 9_000, 1, 1],
      [false, 2 ** 33 + 9_000, 9_000, 2, 1],
      [false, 2 ** 33 + 18_000, 9_000, 3, 1],
      [true, 2 ** 33 + 27_000, 9_000, 4, 1],
    ]);
  });
});

describe('first sample flags, read leniently', () => {
  const tfhd = (flags: number, defaultFlags?: number) =>
    box('tfhd', u32s(flags, 1), ...(flags & 0x8 ? [u32s(1024)] : []), ...(defaultFlags === undefined ? [] : [u32s(defaultFlags)]));
  const moof = (...traf: Uint8Array[]) => box('moof', box('mfhd', u32s(0, 1)), box('traf', ...traf));

  it('come from trun, then tfhd, then trex', () => {
    // trun with first-sample-flags (0x4) after the data offset (0x1)
    expect(readFirstSampleFlags(moof(tfhd(0x20020, NON_SYNC_SAMPLE_FLAGS), box('trun', u32s(0x5, 1, 100, SYNC_SAMPLE_FLAGS))))).toBe(SYNC_SAMPLE_FLAGS);
    // trun with per-sample duration, size, flags
    expect(readFirstSampleFlags(moof(tfhd(0x20000), box('trun', u32s(0x701, 1, 100, 512, 900, NON_SYNC_SAMPLE_FLAGS))))).toBe(NON_SYNC_SAMPLE_FLAGS);
    // tfhd default after its default duration
    expect(readFirstSampleFlags(moof(tfhd(0x20028, NON_SYNC_SAMPLE_FLAGS), box('trun', u32s(0x1, 1, 100))))).toBe(NON_SYNC_SAMPLE_FLAGS);
    // only trex knows
    expect(readFirstSampleFlags(moof(tfhd(0x20000), box('trun', u32s(0x1, 1, 100))), undefined, SYNC_SAMPLE_FLAGS)).toBe(SYNC_SAMPLE_FLAGS);
    expect(readFirstSampleFlags(moof(tfhd(0x20000), box('trun', u32s(0x1, 1, 100))))).toBeUndefined();
  });

  it('of the track asked for', () => {
    const two = box(
      'moof',
      box('traf', box('tfhd', u32s(0x20000, 2)), box('trun', u32s(0x5, 1, 100, NON_SYNC_SAMPLE_FLAGS))),
      box('traf', box('tfhd', u32s(0x20000, 1)), box('trun', u32s(0x5, 1, 100, SYNC_SAMPLE_FLAGS))),
    );
    expect(readFirstSampleFlags(two)).toBe(NON_SYNC_SAMPLE_FLAGS);
    expect(readFirstSampleFlags(two, 1)).toBe(SYNC_SAMPLE_FLAGS);
    expect(readFirstSampleFlags(two, 3)).toBeUndefined();
  });
});
