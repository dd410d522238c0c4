import { describe, expect, it } from 'vitest';
import { boxes, findBox, isInitSegment, readBaseDecodeTime, readTimescale } from '../src/index.ts';
import { box, concat, fragment, initSegment } from './fakes.ts';

describe('fmp4', () => {
  it('reads the timescale of an init segment and tells init from media', () => {
    const init = initSegment(15360);
    expect(isInitSegment(init)).toBe(true);
    expect(readTimescale(init)).toBe(15360);
    expect(isInitSegment(fragment(0))).toBe(false);
  });

  it('reads 64-bit and 32-bit base decode times', () => {
    expect(readBaseDecodeTime(fragment(2 ** 33 + 5))).toBe(2 ** 33 + 5);
    const v0 = box('moof', box('traf', box('tfdt', new Uint8Array([0, 0, 0, 0, 0, 0, 0x30, 0x39]))));
    expect(readBaseDecodeTime(v0)).toBe(12345);
  });

  it('stops at a truncated box instead of reading past it', () => {
    const whole = concat(box('free'), fragment(7));
    expect([...boxes(whole.subarray(0, whole.length - 2))].map((b) => b.type)).toEqual(['free', 'moof']);
    expect(findBox(whole.subarray(0, 20), ['moof', 'traf', 'tfdt'])).toBeUndefined();
    expect(readBaseDecodeTime(new Uint8Array(3))).toBeUndefined();
  });
});
