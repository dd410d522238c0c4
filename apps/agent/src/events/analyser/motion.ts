import type { CameraEventSettings } from '@ship-cctv/protocol';
import { type RegionMap, regionMap } from './regions.ts';

/**
 * Motion by frame difference on a small grey picture (about MOTION_WIDTH wide): each pixel that
 * changed from the last analysed frame by more than a threshold counts, and the picture is cut into
 * CELL × CELL cells; a cell moved when enough of its pixels did. Masked cells never count; with
 * zones, only cells inside a zone do. The camera's sensitivity (1 … 100) sets both how much a pixel
 * must change and how many cells must move. A change over most of the picture (a camera switching
 * to infrared, the sun behind a cloud) is not motion.
 */
export const MOTION_WIDTH = 320;
export const CELL = 8;
/** Share of a cell's pixels that must change for the cell to count. */
const CELL_SHARE = 0.2;
/** More than this share of the analysed cells changing at once is light, not motion. */
const GLOBAL_CHANGE = 0.6;

/** A box in fractions of the picture. */
export interface RelBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface MotionResult {
  moving: boolean;
  /** Cells that moved (outside masks, inside zones when there are any). */
  cells: number;
  /** Around the cells that moved, when any did. */
  box?: RelBox;
  /** The zone with the most moving cells (cameras with zones). */
  zone?: string;
}

/** Per-pixel threshold (0..255) and the share of the analysed cells that must move, for a sensitivity. */
export function motionThresholds(sensitivity: number): { pixel: number; area: number } {
  const s = Math.min(100, Math.max(1, sensitivity));
  const rest = (100 - s) / 100;
  return { pixel: Math.round(10 + 40 * rest), area: 0.0005 + 0.02 * rest * rest };
}

/** An RGB picture (width × height × 3) as grey, reduced by a whole `step` each way (box average). */
export function greyOf(rgb: Uint8Array, width: number, height: number, step: number): { grey: Uint8Array; width: number; height: number } {
  const gw = Math.floor(width / step);
  const gh = Math.floor(height / step);
  const grey = new Uint8Array(gw * gh);
  const n = step * step;
  for (let gy = 0; gy < gh; gy++) {
    for (let gx = 0; gx < gw; gx++) {
      let sum = 0;
      for (let dy = 0; dy < step; dy++) {
        let i = ((gy * step + dy) * width + gx * step) * 3;
        for (let dx = 0; dx < step; dx++, i += 3) sum += (rgb[i] as number) * 77 + (rgb[i + 1] as number) * 150 + (rgb[i + 2] as number) * 29;
      }
      grey[gy * gw + gx] = sum / n / 256;
    }
  }
  return { grey, width: gw, height: gh };
}

export class MotionDetector {
  private last: Uint8Array | undefined;
  private regions: RegionMap | undefined;
  private thresholds: { pixel: number; area: number };

  constructor(private settings: Pick<CameraEventSettings, 'sensitivity' | 'zones' | 'masks'>) {
    this.thresholds = motionThresholds(settings.sensitivity);
  }

  /** New settings: the grid is laid again at the next frame (the last frame is kept). */
  apply(settings: Pick<CameraEventSettings, 'sensitivity' | 'zones' | 'masks'>): void {
    this.settings = settings;
    this.thresholds = motionThresholds(settings.sensitivity);
    this.regions = undefined;
  }

  /** Compares an RGB frame with the last one. The first frame (or one of another size) is no motion. */
  update(rgb: Uint8Array, width: number, height: number): MotionResult {
    const step = Math.max(1, Math.round(width / MOTION_WIDTH));
    const { grey, width: gw, height: gh } = greyOf(rgb, width, height, step);
    const last = this.last;
    this.last = grey;
    const cols = Math.floor(gw / CELL);
    const rows = Math.floor(gh / CELL);
    if (!last || last.length !== grey.length || cols === 0 || rows === 0) return { moving: false, cells: 0 };
    if (!this.regions || this.regions.cols !== cols || this.regions.rows !== rows) this.regions = regionMap(this.settings, cols, rows);
    const regions = this.regions;
    const zoned = this.settings.zones.length > 0;
    const { pixel } = this.thresholds;
    const need = Math.ceil(CELL * CELL * CELL_SHARE);
    const zoneCells = new Array<number>(regions.zoneNames.length + 1).fill(0);
    let analysed = 0;
    let moved = 0;
    let minC = cols;
    let maxC = -1;
    let minR = rows;
    let maxR = -1;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const cell = r * cols + c;
        const zone = regions.zone[cell] as number;
        if (regions.masked[cell] || (zoned && zone === 0)) continue;
        analysed++;
        let changed = 0;
        for (let y = r * CELL; y < r * CELL + CELL; y++) {
          let i = y * gw + c * CELL;
          for (let x = 0; x < CELL; x++, i++) if (Math.abs((grey[i] as number) - (last[i] as number)) > pixel) changed++;
        }
        if (changed < need) continue;
        moved++;
        zoneCells[zone] = (zoneCells[zone] as number) + 1;
        if (c < minC) minC = c;
        if (c > maxC) maxC = c;
        if (r < minR) minR = r;
        if (r > maxR) maxR = r;
      }
    }
    if (moved === 0) return { moving: false, cells: 0 };
    const box = { x: minC / cols, y: minR / rows, w: (maxC - minC + 1) / cols, h: (maxR - minR + 1) / rows };
    const minCells = Math.max(1, Math.round(analysed * this.thresholds.area));
    const moving = moved >= minCells && moved <= analysed * GLOBAL_CHANGE;
    const result: MotionResult = { moving, cells: moved, box };
    if (zoned) {
      let best = 1;
      for (let z = 2; z < zoneCells.length; z++) if ((zoneCells[z] as number) > (zoneCells[best] as number)) best = z;
      const name = regions.zoneNames[best - 1];
      if (name !== undefined && (zoneCells[best] as number) > 0) result.zone = name;
    }
    return result;
  }
}
