import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-wasm';
import { type LayersModel, layers, loadLayersModel } from '@tensorflow/tfjs-layers';

/**
 * A learned super-resolution model, run with TensorFlow.js on its WebAssembly backend: the ESRGAN
 * networks (residual dense networks trained on DIV2K) whose weights ship inside the npm packages
 * `@upscalerjs/esrgan-slim` and `@upscalerjs/esrgan-medium` and are read from disk — nothing is
 * fetched at run time.
 * The networks take RGB in [0, 1] and give RGB in [0, 1] at 2× or 4× the size; two custom layers
 * (a residual scaling by 0.2 and a pixel shuffle) are defined here as the models name them.
 */
export const SCALES = [2, 4] as const;
export type Scale = (typeof SCALES)[number];

/** The two sizes of the network shipped (`@upscalerjs/esrgan-slim`, `-medium`): medium has more layers. */
export type ModelVariant = 'slim' | 'medium';
/** Which network each scale runs, chosen by the benchmark (apps/server/bench/super-resolution.bench.ts). */
export const MODEL_OF_SCALE: Record<Scale, ModelVariant> = { 2: 'slim', 4: 'medium' };

const BETA = 0.2;
type Shape = (number | null)[];

class MultiplyBeta extends layers.Layer {
  static className = 'MultiplyBeta';
  override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor {
    return tf.mul(Array.isArray(inputs) ? (inputs[0] as tf.Tensor) : inputs, BETA);
  }
}

function pixelShuffle(scale: Scale) {
  return class PixelShuffle extends layers.Layer {
    static className = `PixelShuffle${scale}x`;
    override computeOutputShape(shape: Shape | Shape[]): Shape {
      const s = (Array.isArray(shape[0]) ? shape[0] : shape) as Shape;
      return [s[0] ?? null, s[1] ?? null, s[2] ?? null, 3];
    }
    override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor {
      return tf.depthToSpace((Array.isArray(inputs) ? inputs[0] : inputs) as tf.Tensor4D, scale, 'NHWC');
    }
  };
}

let registered = false;
function registerLayers(): void {
  if (registered) return;
  registered = true;
  tf.serialization.registerClass(MultiplyBeta);
  for (const scale of SCALES) tf.serialization.registerClass(pixelShuffle(scale));
}

/** The folder of the model's files (`model.json` and its weight shards) inside the npm package. */
export function modelDir(scale: Scale, variant: ModelVariant = MODEL_OF_SCALE[scale]): string {
  const require = createRequire(import.meta.url);
  // The package exports no package.json: its CommonJS entry sits five folders down from its root.
  const entry = require.resolve(`@upscalerjs/esrgan-${variant}`);
  return join(dirname(entry), '..', '..', '..', '..', '..', 'models', `x${scale}`);
}

export async function loadModel(scale: Scale, variant: ModelVariant = MODEL_OF_SCALE[scale]): Promise<LayersModel> {
  await tf.setBackend('wasm');
  await tf.ready();
  registerLayers();
  const dir = modelDir(scale, variant);
  const json = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8')) as {
    modelTopology: object;
    weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[];
    format?: string;
    generatedBy?: string;
    convertedBy?: string | null;
  };
  const weights = Buffer.concat(json.weightsManifest.flatMap((g) => g.paths.map((p) => readFileSync(join(dir, p)))));
  return loadLayersModel({
    load: async () => ({
      modelTopology: json.modelTopology,
      weightSpecs: json.weightsManifest.flatMap((g) => g.weights),
      weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
      ...(json.format ? { format: json.format } : {}),
    }),
  });
}

export interface UpscaleOptions {
  /** Input pixels per tile side (the models were trained on 128-pixel patches). */
  tile?: number;
  /** Pixels of context around each tile, cut away after: no seams where tiles meet. */
  overlap?: number;
  /** After each tile: how many are done of how many. */
  onTile?(done: number, total: number): void;
  /** Checked before each tile: true stops the work (the caller has given up). */
  stopped?(): boolean;
}

/**
 * Upscales an RGB picture (width × height × 3 bytes) tile by tile, so memory stays bounded and
 * progress is real; returns RGB bytes of (width × scale) × (height × scale).
 */
export function upscale(model: LayersModel, scale: Scale, rgb: Uint8Array, width: number, height: number, opts: UpscaleOptions = {}): Uint8Array | undefined {
  const tile = opts.tile ?? 96;
  const overlap = opts.overlap ?? 8;
  const outW = width * scale;
  const out = new Uint8Array(outW * height * scale * 3);
  const cols = Math.ceil(width / tile);
  const rows = Math.ceil(height / tile);
  const total = cols * rows;
  const source = tf.tensor3d(rgb, [height, width, 3], 'int32');
  try {
    let done = 0;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        if (opts.stopped?.()) return undefined;
        const x0 = c * tile;
        const y0 = r * tile;
        const w = Math.min(tile, width - x0);
        const h = Math.min(tile, height - y0);
        // The tile with its context, clamped to the picture.
        const cx0 = Math.max(0, x0 - overlap);
        const cy0 = Math.max(0, y0 - overlap);
        const cx1 = Math.min(width, x0 + w + overlap);
        const cy1 = Math.min(height, y0 + h + overlap);
        const result = tf.tidy(() => {
          const patch = tf.expandDims(tf.div(tf.cast(tf.slice(source, [cy0, cx0, 0], [cy1 - cy0, cx1 - cx0, 3]), 'float32'), 255), 0);
          const up = tf.squeeze(model.predict(patch) as tf.Tensor4D, [0]) as tf.Tensor3D;
          // Back to the tile itself, without its context.
          const inner = tf.slice(up, [(y0 - cy0) * scale, (x0 - cx0) * scale, 0], [h * scale, w * scale, 3]);
          return tf.cast(tf.round(tf.mul(tf.clipByValue(inner, 0, 1), 255)), 'int32');
        });
        const data = result.dataSync();
        result.dispose();
        for (let y = 0; y < h * scale; y++) {
          const rowStart = ((y0 * scale + y) * outW + x0 * scale) * 3;
          out.set(data.subarray(y * w * scale * 3, (y + 1) * w * scale * 3), rowStart);
        }
        done++;
        opts.onTile?.(done, total);
      }
    }
    return out;
  } finally {
    source.dispose();
  }
}
