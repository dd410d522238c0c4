import { describe, expect, it } from 'vitest';
import { clipProblem, defaultClip } from './clip-range.ts';

const rec = { start: 1_000_000, end: 1_000_000 + 20 * 60_000 };

describe('clip range', () => {
  it('accepts a range inside the recording of at most ten minutes', () => {
    expect(clipProblem({ start: rec.start, end: rec.start + 10 * 60_000 }, rec)).toBeUndefined();
  });
  it('names what is wrong', () => {
    expect(clipProblem({ start: rec.start + 5, end: rec.start + 5 }, rec)).toBe('endBeforeStart');
    expect(clipProblem({ start: rec.start, end: rec.start + 10 * 60_000 + 1 }, rec)).toBe('maxLength');
    expect(clipProblem({ start: rec.start - 1, end: rec.start + 1000 }, rec)).toBe('outside');
  });
  it('offers 30 s from the time shown, kept inside the recording', () => {
    expect(defaultClip(rec.start + 60_000, rec)).toEqual({ start: rec.start + 60_000, end: rec.start + 90_000 });
    expect(defaultClip(rec.end - 1_000, rec)).toEqual({ start: rec.end - 30_000, end: rec.end });
    const short = { start: 0, end: 10_000 };
    expect(defaultClip(5_000, short)).toEqual({ start: 0, end: 10_000 });
  });
});
