import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import type { AnalysisFrame } from '../../src/events/analyser/frames.ts';

/**
 * Known pictures for the detector's tests, all from npm packages installed here: the photographs of
 * people in `@vladmandic/human`'s assets/samples.jpg (a strip of eight pictures along its top), and
 * a photograph with nobody in it (a hibiscus flower, `@upscalerjs/esrgan-slim`'s sample).
 */
const require = createRequire(import.meta.url);
const humanRoot = join(dirname(require.resolve('@vladmandic/human')), '..');
export const SAMPLES_JPG = join(humanRoot, 'assets', 'samples.jpg');
export const FLOWER_PNG = join(dirname(require.resolve('@upscalerjs/esrgan-slim')), '..', '..', '..', '..', '..', 'assets', 'samples', '4x', 'result.png');

/** The people of the strip (pixels of samples.jpg): standing, whole bodies. */
export const PEOPLE = {
  standingRender: { left: 0, top: 0, width: 158, height: 158 },
  standingPhoto: { left: 545, top: 0, width: 92, height: 158 },
  seated: { left: 797, top: 0, width: 112, height: 158 },
} as const;

export interface Rgb {
  rgb: Uint8Array;
  width: number;
  height: number;
}

export async function rgbOf(file: string, region?: { left: number; top: number; width: number; height: number }, resize?: { width: number; height: number }): Promise<Rgb> {
  let img = sharp(file);
  if (region) img = img.extract(region);
  if (resize) img = img.resize(resize.width, resize.height, { fit: 'fill' });
  const { data, info } = await img.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { rgb: new Uint8Array(data), width: info.width, height: info.height };
}

/** A flat picture of one colour. */
export function flat(width: number, height: number, rgb: [number, number, number]): Rgb {
  const out = new Uint8Array(width * height * 3);
  for (let i = 0; i < out.length; i += 3) out.set(rgb, i);
  return { rgb: out, width, height };
}

/** `over` pasted into a copy of `base` at (x, y). */
export function paste(base: Rgb, over: Rgb, x: number, y: number): Rgb {
  const out = new Uint8Array(base.rgb);
  for (let r = 0; r < over.height; r++) {
    const ty = y + r;
    if (ty < 0 || ty >= base.height) continue;
    for (let c = 0; c < over.width; c++) {
      const tx = x + c;
      if (tx < 0 || tx >= base.width) continue;
      const s = (r * over.width + c) * 3;
      out.set(over.rgb.subarray(s, s + 3), (ty * base.width + tx) * 3);
    }
  }
  return { rgb: out, width: base.width, height: base.height };
}

export function frameOf(p: Rgb, time: number): AnalysisFrame {
  return { time, width: p.width, height: p.height, rgb: p.rgb };
}
