/**
 * The capture code: a small black-and-white grid drawn into every synthetic camera frame that
 * carries the frame's capture time (epoch milliseconds), so end-to-end latency can be measured
 * from the pixels of a decoded frame (a canvas in the browser, `-f rawvideo` on a server). No
 * dependencies: this file runs in the agent, the server and the browser.
 *
 * Geometry: CODE_COLS × CODE_ROWS = 56 square cells, read row by row from the top-left:
 *
 *   cell  0–1   start guard: white, black
 *   cell  2–49  the 48 bits of the epoch milliseconds, most significant first
 *   cell 50–53  parity: cell 50+k is the XOR of the data bits whose bit index ≡ k (mod 4)
 *               (bit index 0 = least significant); catches any burst of up to 4 wrong cells
 *   cell 54–55  end guard: black, white
 *
 * White is luma 235, black luma 16 (legal video levels, so any YUV→RGB conversion gives pure
 * black and white). Cells are at least 8×8 px and aligned to multiples of 8 px, which keeps them
 * on H.264 transform-block boundaries and sharp after lossy coding. The grid sits in the bottom-left
 * corner, two cells in from the left and at least two cells up from the bottom.
 *
 * A decoder accepts a code only when the guards show clear contrast, the parity matches and the
 * time falls in 2000–2199: a random picture passes with a probability of about 1 in 10 000.
 */
export const CODE_COLS = 14;
export const CODE_ROWS = 4;
export const CODE_DATA_BITS = 48;
export const CODE_PARITY_BITS = 4;
/** Cells before the data bits (start guard). */
export const CODE_DATA_START = 2;
export const CODE_PARITY_START = CODE_DATA_START + CODE_DATA_BITS;
export const CODE_CELLS = CODE_COLS * CODE_ROWS;
export const CODE_WHITE = 235;
export const CODE_BLACK = 16;
/** Smallest cell edge in pixels. */
export const CODE_MIN_CELL = 8;

/** Guard cells and their colour (true = white). */
export const CODE_GUARDS: readonly (readonly [cell: number, white: boolean])[] = [
  [0, true],
  [1, false],
  [CODE_CELLS - 2, false],
  [CODE_CELLS - 1, true],
];

/** Codes outside this range are rejected as noise. */
const MIN_PLAUSIBLE_MS = Date.UTC(2000, 0, 1);
const MAX_PLAUSIBLE_MS = Date.UTC(2200, 0, 1);
/** Guard white must exceed guard black by this much luma for the frame to count as carrying a code. */
const MIN_CONTRAST = 64;

export interface CaptureCodeLayout {
  /** Top-left corner of the grid, in pixels. */
  x: number;
  y: number;
  /** Cell edge in pixels. */
  cell: number;
  cols: number;
  rows: number;
}

/**
 * Where the code sits in a frame of this size: cells of 8 px per 360 lines (8 px below 720 lines,
 * 16 px at 720p, 24 px at 1080p). Undefined for frames too small to carry it (under 144×64).
 */
export function captureCodeLayout(width: number, height: number): CaptureCodeLayout | undefined {
  const cell = CODE_MIN_CELL * Math.max(1, Math.floor(height / 360));
  const x = 2 * cell;
  const y = Math.floor((height - 2 * cell - CODE_ROWS * cell) / cell) * cell;
  if (x + CODE_COLS * cell > width - cell || y < 0) return undefined;
  return { x, y, cell, cols: CODE_COLS, rows: CODE_ROWS };
}

function bitOf(epochMs: number, bit: number): boolean {
  return Math.floor(epochMs / 2 ** bit) % 2 === 1;
}

/** The cells for a time, row by row (true = white). The time is truncated to whole milliseconds. */
export function captureCodeCells(epochMs: number): boolean[] {
  const ms = Math.floor(epochMs);
  if (!(ms >= 0 && ms < 2 ** CODE_DATA_BITS)) throw new RangeError(`capture time out of range: ${epochMs}`);
  const cells = new Array<boolean>(CODE_CELLS).fill(false);
  for (const [cell, white] of CODE_GUARDS) cells[cell] = white;
  for (let i = 0; i < CODE_DATA_BITS; i++) cells[CODE_DATA_START + i] = bitOf(ms, CODE_DATA_BITS - 1 - i);
  for (let k = 0; k < CODE_PARITY_BITS; k++) {
    let p = false;
    for (let b = k; b < CODE_DATA_BITS; b += CODE_PARITY_BITS) p = p !== bitOf(ms, b);
    cells[CODE_PARITY_START + k] = p;
  }
  return cells;
}

export interface PixelFormat {
  /** Bytes per pixel: 1 for grayscale (luma), 3 for RGB, 4 for RGBA (canvas ImageData). */
  channels?: 1 | 3 | 4;
  /** Bytes per row; defaults to width × channels. */
  stride?: number;
}

/**
 * Reads the capture time from a frame's pixels: grayscale (one byte of luma per pixel) or RGB/RGBA
 * as a canvas gives them. The frame must be at the video's own size (draw the video to a canvas of
 * videoWidth × videoHeight). Returns epoch milliseconds, or undefined when the frame carries no
 * valid code. `channels` defaults to 4 when the buffer holds exactly width × height × 4 bytes,
 * else 1.
 */
export function decodeCaptureCode(
  pixels: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  format: PixelFormat = {},
): number | undefined {
  const layout = captureCodeLayout(width, height);
  if (!layout) return undefined;
  const channels = format.channels ?? (pixels.length === width * height * 4 ? 4 : 1);
  const stride = format.stride ?? width * channels;
  if (pixels.length < stride * (height - 1) + width * channels) return undefined;

  // Mean luma over the middle half of each cell: ignores the ringing at cell edges.
  const inset = Math.floor(layout.cell / 4);
  const span = layout.cell - 2 * inset;
  const luma = (px: number): number => {
    if (channels === 1) return pixels[px] ?? 0;
    return 0.299 * (pixels[px] ?? 0) + 0.587 * (pixels[px + 1] ?? 0) + 0.114 * (pixels[px + 2] ?? 0);
  };
  const sample = (index: number): number => {
    const cx = layout.x + (index % layout.cols) * layout.cell + inset;
    const cy = layout.y + Math.floor(index / layout.cols) * layout.cell + inset;
    let sum = 0;
    for (let y = cy; y < cy + span; y++) for (let x = cx; x < cx + span; x++) sum += luma(y * stride + x * channels);
    return sum / (span * span);
  };

  let whiteMin = 255;
  let blackMax = 0;
  for (const [cell, white] of CODE_GUARDS) {
    const v = sample(cell);
    if (white) whiteMin = Math.min(whiteMin, v);
    else blackMax = Math.max(blackMax, v);
  }
  if (whiteMin - blackMax < MIN_CONTRAST) return undefined;
  const threshold = (whiteMin + blackMax) / 2;

  let ms = 0;
  const parity = [false, false, false, false];
  for (let i = 0; i < CODE_DATA_BITS; i++) {
    const on = sample(CODE_DATA_START + i) > threshold;
    const bit = CODE_DATA_BITS - 1 - i;
    if (on) {
      ms += 2 ** bit;
      parity[bit % CODE_PARITY_BITS] = !parity[bit % CODE_PARITY_BITS];
    }
  }
  for (let k = 0; k < CODE_PARITY_BITS; k++) {
    if (sample(CODE_PARITY_START + k) > threshold !== parity[k]) return undefined;
  }
  return ms >= MIN_PLAUSIBLE_MS && ms < MAX_PLAUSIBLE_MS ? ms : undefined;
}
