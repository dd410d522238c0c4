import { describe, expect, it } from 'vitest';
import { DEFAULT_VOLUME, keepSessionVolume, sessionVolume, soundCodecOf } from './sound.ts';

describe('a cell’s sound', () => {
  it('is there when the codec mime names a sound codec', () => {
    expect(soundCodecOf('video/mp4; codecs="avc1.42c01e,mp4a.40.2"')).toBe('mp4a.40.2');
    expect(soundCodecOf('video/mp4; codecs="avc1.42c01e, opus"')).toBe('opus');
    expect(soundCodecOf('video/mp4; codecs="avc1.42c01e"')).toBeUndefined();
    expect(soundCodecOf(undefined)).toBeUndefined();
  });

  it('keeps the volume for the session, within 0–1, the default when nothing or nonsense is kept', () => {
    const kept = new Map<string, string>();
    const storage = { getItem: (k: string) => kept.get(k) ?? null, setItem: (k: string, v: string) => void kept.set(k, v) };
    expect(sessionVolume(storage)).toBe(DEFAULT_VOLUME);
    keepSessionVolume(0.35, storage);
    expect(sessionVolume(storage)).toBe(0.35);
    keepSessionVolume(4, storage);
    expect(sessionVolume(storage)).toBe(1);
    kept.set('shipcctv.cellVolume', 'loud');
    expect(sessionVolume(storage)).toBe(DEFAULT_VOLUME);
    keepSessionVolume(0, storage);
    expect(sessionVolume(storage)).toBe(0);
  });
});
