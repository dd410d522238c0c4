import { describe, expect, it } from 'vitest';
import { clipSpans, normalizeSpans, spansLength, subtractSpans } from '../src/spans.ts';

describe('span arithmetic', () => {
  it('merges, clips and subtracts half-open spans', () => {
    expect(normalizeSpans([{ start: 5, end: 9 }, { start: 0, end: 3 }, { start: 3, end: 4 }, { start: 7, end: 7 }])).toEqual([
      { start: 0, end: 4 },
      { start: 5, end: 9 },
    ]);
    expect(clipSpans([{ start: 0, end: 10 }, { start: 20, end: 30 }], 5, 25)).toEqual([
      { start: 5, end: 10 },
      { start: 20, end: 25 },
    ]);
    expect(subtractSpans([{ start: 0, end: 100 }], [{ start: 10, end: 20 }, { start: 90, end: 120 }])).toEqual([
      { start: 0, end: 10 },
      { start: 20, end: 90 },
    ]);
    expect(spansLength([{ start: 0, end: 10 }, { start: 5, end: 15 }])).toBe(15);
  });
});
