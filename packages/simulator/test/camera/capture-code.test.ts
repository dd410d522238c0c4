import { describe, expect, it } from 'vitest';
import {
  CODE_BLACK,
  CODE_CELLS,
  CODE_WHITE,
  captureCodeCells,
  captureCodeLayout,
  decodeCaptureCode,
} from '@ship-cctv/protocol';

const T = Date.UTC(2026, 10, 21, 7, 30, 15, 123);

/** Paints the code for `ms` (or the given cells) into a grey frame, as the synthetic camera does. */
function paint(width: number, height: number, ms: number | boolean[], channels: 1 | 4 = 1, stride = width * channels): Uint8Array {
  const px = new Uint8Array(stride * height).fill(90);
  const layout = captureCodeLayout(width, height);
  if (!layout) throw new Error('no layout');
  (typeof ms === 'number' ? captureCodeCells(ms) : ms).forEach((white, i) => {
    const x0 = layout.x + (i % layout.cols) * layout.cell;
    const y0 = layout.y + Math.floor(i / layout.cols) * layout.cell;
    for (let y = y0; y < y0 + layout.cell; y++)
      for (let x = x0; x < x0 + layout.cell; x++)
        for (let c = 0; c < Math.min(channels, 3); c++) px[y * stride + x * channels + c] = white ? CODE_WHITE : CODE_BLACK;
  });
  return px;
}

describe('capture code', () => {
  it('places 8 px cells per 360 lines in the bottom-left corner, on an 8 px grid', () => {
    expect(captureCodeLayout(640, 360)).toEqual({ x: 16, y: 312, cell: 8, cols: 14, rows: 4 });
    expect(captureCodeLayout(320, 180)).toEqual({ x: 16, y: 128, cell: 8, cols: 14, rows: 4 });
    expect(captureCodeLayout(1280, 720)).toEqual({ x: 32, y: 624, cell: 16, cols: 14, rows: 4 });
    expect(captureCodeLayout(1920, 1080)).toEqual({ x: 48, y: 936, cell: 24, cols: 14, rows: 4 });
    expect(captureCodeLayout(128, 72)).toBeUndefined();
  });

  it('has guards at both ends and parity over the 48 data bits', () => {
    const cells = captureCodeCells(T);
    expect(cells).toHaveLength(CODE_CELLS);
    expect([cells[0], cells[1], cells[54], cells[55]]).toEqual([true, false, false, true]);
    const bits = cells.slice(2, 50).map((b) => (b ? '1' : '0')).join('');
    expect(parseInt(bits, 2)).toBe(T);
    for (let k = 0; k < 4; k++) {
      const ones = [...bits].reverse().filter((b, i) => i % 4 === k && b === '1').length;
      expect(cells[50 + k]).toBe(ones % 2 === 1);
    }
  });

  it('decodes grayscale, RGBA and padded rows', () => {
    expect(decodeCaptureCode(paint(640, 360, T), 640, 360)).toBe(T);
    expect(decodeCaptureCode(paint(1280, 720, T + 1), 1280, 720)).toBe(T + 1);
    expect(decodeCaptureCode(new Uint8ClampedArray(paint(640, 360, T, 4)), 640, 360)).toBe(T);
    expect(decodeCaptureCode(paint(320, 180, T, 1, 384), 320, 180, { stride: 384 })).toBe(T);
  });

  it('survives codec-like noise but rejects a wrong cell, a flat frame and random patterns', () => {
    const noisy = paint(640, 360, T).map((v, i) => Math.max(0, Math.min(255, v + ((i * 7919) % 61) - 30)));
    expect(decodeCaptureCode(noisy, 640, 360)).toBe(T);

    const layout = captureCodeLayout(640, 360)!;
    const flipped = paint(640, 360, T);
    // Invert data cell 20 (its centre region is enough for the decoder).
    const cx = layout.x + (20 % 14) * 8;
    const cy = layout.y + Math.floor(20 / 14) * 8;
    for (let y = cy; y < cy + 8; y++) for (let x = cx; x < cx + 8; x++) flipped[y * 640 + x] = 251 - (flipped[y * 640 + x] ?? 0);
    expect(decodeCaptureCode(flipped, 640, 360)).toBeUndefined();

    expect(decodeCaptureCode(new Uint8Array(640 * 360).fill(128), 640, 360)).toBeUndefined();
    // Random black/white cells: guards, parity and the date range together pass about 1 in 10 000.
    let seed = 1;
    let accepted = 0;
    for (let n = 0; n < 2_000; n++) {
      const cells = Array.from({ length: CODE_CELLS }, () => ((seed = (seed * 1103515245 + 12345) >>> 0) & 0x8000) !== 0);
      if (decodeCaptureCode(paint(320, 180, cells), 320, 180) !== undefined) accepted++;
    }
    expect(accepted).toBeLessThan(3);
  });

  it('refuses a buffer too short for the frame and times beyond 48 bits', () => {
    expect(decodeCaptureCode(new Uint8Array(100), 640, 360)).toBeUndefined();
    expect(() => captureCodeCells(2 ** 48)).toThrow(RangeError);
  });
});
