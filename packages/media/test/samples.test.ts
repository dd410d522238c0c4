import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fmp4Error, Fmp4Splitter, NON_SYNC_SAMPLE_FLAGS, box, fullBox, initSegment, mediaFragment, readFirstCompositionOffset, readTrackSamples, readVideoDecoderSetup, u32s } from '../src/index.ts';

const AVCC = Uint8Array.of(1, 0x42, 0xc0, 0x1e, 0xff, 0xe1, 0, 4, 0x67, 0x42, 0xc0, 0x1e, 1, 0, 2, 0x68, 0xce);

describe('samples for a decoder of its own', () => {
  it('reads the decoder setup of the video track: codec, size, timescale and the avcC body', () => {
    const setup = readVideoDecoderSetup(initSegment({ avcConfig: AVCC, width: 640, height: 360, timescale: 90_000 }));
    expect(setup).toMatchObject({ trackId: 1, timescale: 90_000, codec: 'avc1.42c01e', codedWidth: 640, codedHeight: 360 });
    expect([...(setup?.description ?? [])]).toEqual([...AVCC]);
  });

  it("reads each sample's times, sync flag and bytes, the picture apart from the sound after it", () => {
    const picture = Uint8Array.of(0, 0, 0, 2, 0x65, 0x88);
    const fragment = mediaFragment({
      sequence: 3,
      baseMediaDecodeTime: 2 ** 33,
      duration: 9_000,
      keyframe: true,
      compositionOffset: -1_500,
      data: picture,
      audio: { baseMediaDecodeTime: 0, sampleDuration: 1024, samples: [Uint8Array.of(9, 9), Uint8Array.of(8)] },
    });
    const [sample, ...rest] = readTrackSamples(fragment, 1);
    expect(rest).toEqual([]);
    // The lenient reader the MSE player uses for a picture's age: the same signed offset.
    expect(readFirstCompositionOffset(fragment, 1)).toBe(-1_500);
    expect(readFirstCompositionOffset(mediaFragment({ sequence: 1, baseMediaDecodeTime: 0, duration: 9_000, keyframe: true, data: picture }), 1)).toBe(0);
    expect(sample).toMatchObject({ decodeTime: 2 ** 33, presentationTime: 2 ** 33 - 1_500, duration: 9_000, keyframe: true });
    expect([...(sample?.data ?? [])]).toEqual([...picture]);
    const sound = readTrackSamples(fragment, 2);
    expect(sound.map((s) => [s.decodeTime, [...s.data]])).toEqual([
      [0, [9, 9]],
      [1024, [8]],
    ]);
    const next = readTrackSamples(mediaFragment({ sequence: 4, baseMediaDecodeTime: 9_000, duration: 9_000, keyframe: false, data: picture }), 1);
    expect(next[0]?.keyframe).toBe(false);
  });

  it('takes durations, sizes and flags from tfhd when the trun leaves them out', () => {
    const tfhd = fullBox('tfhd', 0, 0x020038, u32s(1, 3_000, 2, NON_SYNC_SAMPLE_FLAGS));
    const trun = fullBox('trun', 0, 0x001, u32s(3, 0));
    const moof = box('moof', fullBox('mfhd', 0, 0, u32s(1)), box('traf', tfhd, fullBox('tfdt', 0, 0, u32s(600)), trun));
    new DataView(moof.buffer).setUint32(moof.length - 4, moof.length + 8);
    const fragment = new Uint8Array([...moof, ...box('mdat', Uint8Array.of(1, 1, 2, 2, 3, 3))]);
    expect(readTrackSamples(fragment, 1).map((s) => [s.decodeTime, s.keyframe, [...s.data]])).toEqual([
      [600, false, [1, 1]],
      [3_600, false, [2, 2]],
      [6_600, false, [3, 3]],
    ]);
  });

  it('refuses sample data outside the fragment and tables that do not fit', () => {
    const fragment = mediaFragment({ sequence: 1, baseMediaDecodeTime: 0, duration: 9_000, keyframe: true, data: Uint8Array.of(1, 2, 3) });
    expect(() => readTrackSamples(fragment.subarray(0, fragment.length - 2), 1)).toThrow(Fmp4Error);
    const forged = box('moof', fullBox('mfhd', 0, 0, u32s(1)), box('traf', fullBox('tfhd', 0, 0x020000, u32s(1)), fullBox('trun', 0, 0x200, u32s(1_000_000, 4))));
    expect(() => readTrackSamples(forged, 1)).toThrow(/does not fit/);
  });
});

describe("ffmpeg's own fragments", () => {
  let dir: string;
  let bytes: Uint8Array;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'media-samples-'));
    const file = join(dir, 'b.mp4');
    // B-frames (composition offsets) and several samples per fragment.
    await promisify(execFile)('ffmpeg', [
      '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=10', '-t', '2',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-bf', '2', '-g', '10', '-pix_fmt', 'yuv420p',
      '-movflags', '+frag_keyframe+empty_moov+default_base_moof', '-f', 'mp4', file,
    ]);
    bytes = new Uint8Array(await readFile(file));
  }, 60_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('gives every frame once, a keyframe first in each fragment, presentation times a frame apart', () => {
    const units = new Fmp4Splitter().push(bytes);
    const init = units[0];
    if (init?.kind !== 'init') throw new Error('no init');
    const setup = readVideoDecoderSetup(init.data);
    expect(setup?.codec).toMatch(/^avc1\./);
    const samples = units.slice(1).flatMap((u) => (u.kind === 'fragment' ? readTrackSamples(u.data, setup?.trackId ?? 1, setup?.defaults) : []));
    expect(samples).toHaveLength(20);
    expect(samples.filter((s) => s.keyframe)).toHaveLength(2);
    const step = (setup?.timescale ?? 0) / 10;
    const shown = samples.map((s) => s.presentationTime).sort((a, b) => a - b);
    expect(shown.slice(1).map((t, i) => t - (shown[i] ?? 0))).toEqual(Array(19).fill(step));
    // With B-frames the decode order is not the presentation order.
    expect(samples.map((s) => s.presentationTime)).not.toEqual(shown);
    // Each fragment's first picture: the lenient reader agrees with the sample reader.
    for (const u of units.slice(1)) {
      if (u.kind !== 'fragment') continue;
      const [first] = readTrackSamples(u.data, setup?.trackId ?? 1, setup?.defaults);
      expect(readFirstCompositionOffset(u.data, setup?.trackId)).toBe((first?.presentationTime ?? 0) - (first?.decodeTime ?? 0));
    }
    // Every sample is a run of length-prefixed NAL units filling it exactly.
    for (const s of samples) {
      let at = 0;
      while (at < s.data.length) at += 4 + new DataView(s.data.buffer, s.data.byteOffset + at).getUint32(0);
      expect(at).toBe(s.data.length);
    }
  });
});
