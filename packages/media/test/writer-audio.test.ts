import { describe, expect, it } from 'vitest';
import { AUDIO_TRACK_ID, Fmp4Splitter, findBox, findBoxes, initSegment, mediaFragment, readSoundTrackIds, readTrackBytes, stripSoundFromFragment, stripSoundFromInit } from '../src/index.ts';
import { concat } from './fakes.ts';

const AVCC = Uint8Array.of(1, 0x42, 0xc0, 0x1e, 0xff, 0xe0, 0);
/** AAC-LC, 16 kHz (index 8), mono. */
const ASC = Uint8Array.of(0x14, 0x08);

describe('the writer with a sound track', () => {
  const init = initSegment({ avcConfig: AVCC, width: 320, height: 180, timescale: 90_000, audio: { audioConfig: ASC, sampleRate: 16_000, channels: 1, bitrate: 20_000 } });
  const picture = Uint8Array.of(9, 9, 9, 9, 9);
  const sounds = [Uint8Array.of(1, 1, 1), Uint8Array.of(2, 2), Uint8Array.of(3, 3, 3, 3)];
  const both = mediaFragment({ sequence: 1, baseMediaDecodeTime: 9_000, duration: 9_000, keyframe: true, data: picture, audio: { baseMediaDecodeTime: 2_048, sampleDuration: 1024, samples: sounds } });
  const alone = mediaFragment({ sequence: 2, baseMediaDecodeTime: 18_000, duration: 9_000, keyframe: false, data: picture, audio: { baseMediaDecodeTime: 5_120, sampleDuration: 1024, samples: [] } });

  it('names both tracks in the init segment: avc1 and mp4a with its esds', () => {
    const [unit] = new Fmp4Splitter().push(init);
    expect(unit).toMatchObject({ kind: 'init', codecs: ['avc1.42c01e', 'mp4a.40.2'], trackId: 1, timescale: 90_000 });
    expect(unit?.kind === 'init' ? unit.tracks[1] : undefined).toMatchObject({ trackId: AUDIO_TRACK_ID, kind: 'audio', handler: 'soun', timescale: 16_000, sampleRate: 16_000, channels: 1, sampleEntry: 'mp4a' });
  });

  it('puts the sound frames in a second traf of the picture’s fragment, data offsets pointing at each sample', () => {
    const units = new Fmp4Splitter().push(concat(init, both, alone));
    const [f1, f2] = units.slice(1);
    expect(f1).toMatchObject({ kind: 'fragment', keyframe: true, baseMediaDecodeTime: 9_000, sampleCount: 1 });
    expect(f1?.kind === 'fragment' ? f1.tracks : []).toEqual([
      { trackId: 1, baseMediaDecodeTime: 9_000, duration: 9_000, sampleCount: 1, bytes: 5, keyframe: true },
      { trackId: 2, baseMediaDecodeTime: 2_048, duration: 3 * 1024, sampleCount: 3, bytes: 9, keyframe: true },
    ]);
    // No sound frames: no second traf.
    expect(f2?.kind === 'fragment' ? f2.tracks.map((t) => t.trackId) : []).toEqual([1]);

    // The truns' data offsets (from the moof's start) point at the picture, then the sound frames, in the mdat.
    const view = new DataView(both.buffer, both.byteOffset);
    const truns = findBoxes(both, ['moof', 'traf']).map((traf) => findBox(both, ['trun'], traf.body, traf.end));
    const offsets = truns.map((trun) => view.getInt32((trun?.body ?? 0) + 8));
    expect([...both.subarray(offsets[0]!, offsets[0]! + 5)]).toEqual([...picture]);
    expect([...both.subarray(offsets[1]!, offsets[1]! + 9)]).toEqual([1, 1, 1, 2, 2, 3, 3, 3, 3]);
    expect(offsets[1]! + 9).toBe(both.length);
  });

  it('lets a player count the sound bytes leniently: sound track ids from the init, sample bytes per fragment', () => {
    expect(readSoundTrackIds(init)).toEqual([AUDIO_TRACK_ID]);
    expect(readSoundTrackIds(initSegment({ avcConfig: AVCC, width: 320, height: 180, timescale: 90_000 }))).toEqual([]);
    expect(readTrackBytes(both, [AUDIO_TRACK_ID])).toBe(9);
    expect(readTrackBytes(both, [1])).toBe(5);
    expect(readTrackBytes(alone, [AUDIO_TRACK_ID])).toBe(0);
  });

  it('strips the sound for a picture-only player: init without the sound trak and trex, fragments without the sound traf', () => {
    const stripped = stripSoundFromInit(init);
    expect(stripped.soundTrackIds).toEqual([AUDIO_TRACK_ID]);
    const fragment = stripSoundFromFragment(both, stripped.soundTrackIds);
    expect(fragment).toBeDefined();
    const units = new Fmp4Splitter().push(concat(stripped.init, fragment as Uint8Array, stripSoundFromFragment(alone, stripped.soundTrackIds) as Uint8Array));
    expect(units[0]).toMatchObject({ kind: 'init', codecs: ['avc1.42c01e'], tracks: [expect.objectContaining({ kind: 'video' })] });
    expect(findBoxes(stripped.init, ['moov', 'mvex', 'trex'])).toHaveLength(1);
    expect(units.slice(1).map((u) => (u.kind === 'fragment' ? u.tracks.map((t) => t.trackId) : []))).toEqual([[1], [1]]);
    // The picture's data offset still points at the picture.
    const f = fragment as Uint8Array;
    const trun = findBox(f, ['moof', 'traf', 'trun']);
    const offset = new DataView(f.buffer, f.byteOffset).getInt32((trun?.body ?? 0) + 8);
    expect([...f.subarray(offset, offset + 5)]).toEqual([...picture]);
    // A stream without sound passes untouched; a fragment of sound only has nothing left.
    const plain = initSegment({ avcConfig: AVCC, width: 320, height: 180, timescale: 90_000 });
    expect(stripSoundFromInit(plain)).toEqual({ init: plain, soundTrackIds: [] });
    const soundOnly = new Uint8Array(both);
    const trafs = findBoxes(soundOnly, ['moof', 'traf']);
    new DataView(soundOnly.buffer).setUint32((trafs[0]?.body ?? 0) + 12, AUDIO_TRACK_ID); // the picture's traf made a sound one
    expect(stripSoundFromFragment(soundOnly, [AUDIO_TRACK_ID])).toBeUndefined();
  });
});
