import { describe, expect, it } from 'vitest';
import { parseByteRange } from '../../src/core/storage/http-range.ts';

describe('parseByteRange', () => {
  it('reads the three forms of one byte range, clamped to the object', () => {
    expect(parseByteRange('bytes=100-1099', 5000)).toEqual({ start: 100, end: 1099 });
    expect(parseByteRange('bytes=4990-', 5000)).toEqual({ start: 4990, end: 4999 });
    expect(parseByteRange('bytes=-10', 5000)).toEqual({ start: 4990, end: 4999 });
    expect(parseByteRange('bytes=-9000', 5000)).toEqual({ start: 0, end: 4999 });
    expect(parseByteRange('bytes=10-99999', 5000)).toEqual({ start: 10, end: 4999 });
  });

  it('answers unsatisfiable past the end, and whole for what it does not handle', () => {
    expect(parseByteRange('bytes=5000-', 5000)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=20-10', 5000)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=-0', 5000)).toBe('unsatisfiable');
    expect(parseByteRange(undefined, 5000)).toBeUndefined();
    expect(parseByteRange('bytes=0-1,5-6', 5000)).toBeUndefined();
    expect(parseByteRange('items=0-1', 5000)).toBeUndefined();
  });
});
