import { describe, expect, it } from 'vitest';
import { pictureOnlyMime } from '../src/sound-mime.ts';

describe('pictureOnlyMime', () => {
  it('takes the sound codecs out of a stream’s mime, leaves a picture-only one as it is', () => {
    expect(pictureOnlyMime('video/mp4; codecs="avc1.42c01e,mp4a.40.2"')).toBe('video/mp4; codecs="avc1.42c01e"');
    expect(pictureOnlyMime('video/mp4; codecs="avc1.42c01e, opus"')).toBe('video/mp4; codecs="avc1.42c01e"');
    expect(pictureOnlyMime('video/mp4; codecs="avc1.42c01e"')).toBe('video/mp4; codecs="avc1.42c01e"');
    // Sound alone is not made into nothing.
    expect(pictureOnlyMime('audio/mp4; codecs="mp4a.40.2"')).toBe('audio/mp4; codecs="mp4a.40.2"');
  });
});
