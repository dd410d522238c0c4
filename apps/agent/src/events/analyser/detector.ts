import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-wasm';
import { type GraphModel, loadGraphModel } from '@tensorflow/tfjs-converter';
import type { EventClass } from '@ship-cctv/protocol';

/**
 * The object detector: CenterNet with a MobileNetV3 backbone trained on COCO's 80 classes (the
 * `centernet` model that ships inside the npm package `@vladmandic/human`, MIT), run with
 * TensorFlow.js on its WebAssembly backend as shore's super-resolution is. Its weights (4 MB) are
 * read from the package's folder on disk; nothing is fetched at run time. The network takes one
 * 512×512 RGB picture in 0..255 (its graph is fixed at that size) and gives its 100 best boxes
 * with score and class, already decoded.
 */
export const DETECTOR_INPUT = 512;

/** A thing the detector found, in the picture it was given (fractions of its width and height). */
export interface Detection {
  class: Exclude<EventClass, 'motion'>;
  score: number;
  box: { x: number; y: number; w: number; h: number };
}

/** COCO's class indices (0-based, as the network gives them) that events are about. */
const COCO_TO_EVENT: ReadonlyMap<number, Detection['class']> = new Map([
  [0, 'person'],
  [1, 'vehicle'], // bicycle
  [2, 'vehicle'], // car
  [3, 'vehicle'], // motorcycle
  [5, 'vehicle'], // bus
  [7, 'vehicle'], // truck
  [8, 'boat'],
]);

/** Boxes below this score are not reported at all (each camera's minScore decides beyond it). */
const FLOOR_SCORE = 0.2;

export interface Detector {
  /** Finds people, boats and vehicles in an RGB picture (width × height × 3 bytes). */
  detect(rgb: Uint8Array, width: number, height: number): Promise<Detection[]>;
  dispose(): void;
}

/** The folder of the CenterNet model inside `@vladmandic/human` (which exports no package.json). */
export function centernetDir(): string {
  const require = createRequire(import.meta.url);
  // The package's `require` entry is dist/human.node.js: the models sit beside dist/.
  return join(dirname(require.resolve('@vladmandic/human')), '..', 'models');
}

let backend: Promise<void> | undefined;
/** TensorFlow.js on WebAssembly, once per process. */
function wasmBackend(): Promise<void> {
  backend ??= (async () => {
    if (!(await tf.setBackend('wasm'))) throw new Error('the TensorFlow.js WebAssembly backend did not start');
    await tf.ready();
  })();
  return backend;
}

/**
 * Loads the detector from `dir` (default: the package's folder). Throws with the reason when the
 * model's files are missing or broken: the caller reports it in the cameras' status.
 */
export async function loadDetector(dir: string = centernetDir()): Promise<Detector> {
  await wasmBackend();
  const json = JSON.parse(readFileSync(join(dir, 'centernet.json'), 'utf8')) as {
    modelTopology: object;
    weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[];
    format?: string;
  };
  const weights = Buffer.concat(json.weightsManifest.flatMap((g) => g.paths.map((p) => readFileSync(join(dir, p)))));
  const model: GraphModel = await loadGraphModel({
    load: async () => ({
      modelTopology: json.modelTopology,
      weightSpecs: json.weightsManifest.flatMap((g) => g.weights),
      weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
      ...(json.format ? { format: json.format } : {}),
    }),
  });
  return {
    async detect(rgb, width, height) {
      // Padded to a square (grey bands), so that a tall or wide crop is not squashed.
      const side = Math.max(width, height);
      const padX = Math.floor((side - width) / 2);
      const padY = Math.floor((side - height) / 2);
      const input = tf.tidy(() => {
        const picture = tf.cast(tf.tensor3d(rgb, [height, width, 3], 'int32'), 'float32');
        const square = tf.pad(picture, [[padY, side - height - padY], [padX, side - width - padX], [0, 0]], 114);
        return tf.expandDims(tf.image.resizeBilinear(square as tf.Tensor3D, [DETECTOR_INPUT, DETECTOR_INPUT]), 0);
      });
      const out = model.execute(input, ['tower_0/detections']) as tf.Tensor;
      try {
        const rows = (await out.array()) as number[][][];
        return toDetections(rows[0] ?? [], { side, padX, padY, width, height });
      } finally {
        tf.dispose([input, out]);
      }
    },
    dispose() {
      model.dispose();
    },
  };
}

/** Where the picture sat in the square the network saw (pixels). */
export interface Letterbox {
  side: number;
  padX: number;
  padY: number;
  width: number;
  height: number;
}

/**
 * The network's rows [x1, y1, x2, y2, score, class] (pixels of its 512×512 input) as detections of
 * the classes events are about, in fractions of the picture given (`box`: where it sat in the
 * square), overlapping boxes of one class kept once (the best).
 */
export function toDetections(rows: readonly number[][], box?: Letterbox): Detection[] {
  const lb = box ?? { side: DETECTOR_INPUT, padX: 0, padY: 0, width: DETECTOR_INPUT, height: DETECTOR_INPUT };
  const k = lb.side / DETECTOR_INPUT;
  const fx = (v: number) => Math.min(1, Math.max(0, (v * k - lb.padX) / lb.width));
  const fy = (v: number) => Math.min(1, Math.max(0, (v * k - lb.padY) / lb.height));
  const found: Detection[] = [];
  for (const row of [...rows].sort((a, b) => (b[4] ?? 0) - (a[4] ?? 0))) {
    const [x1 = 0, y1 = 0, x2 = 0, y2 = 0, score = 0, coco = -1] = row;
    const cls = COCO_TO_EVENT.get(Math.round(coco));
    if (!cls || !(score >= FLOOR_SCORE)) continue;
    const b = { x: fx(x1), y: fy(y1), w: fx(x2) - fx(x1), h: fy(y2) - fy(y1) };
    if (b.w <= 0 || b.h <= 0) continue;
    if (!found.some((f) => f.class === cls && iou(f.box, b) > 0.5)) found.push({ class: cls, score, box: b });
  }
  return found;
}

function iou(a: Detection['box'], b: Detection['box']): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / (a.w * a.h + b.w * b.h - inter);
}

/**
 * The detector in a worker thread (detector-worker.ts), so a detection never holds up the agent's
 * own thread. Rejects with the reason when the model does not load there.
 */
export function loadDetectorInWorker(dir?: string): Promise<Detector> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./detector-worker.ts', import.meta.url), { workerData: { dir } });
    worker.unref();
    const waiting = new Map<number, { resolve(d: Detection[]): void; reject(e: Error): void }>();
    let next = 0;
    let settled = false;
    const fail = (reason: string) => {
      for (const w of waiting.values()) w.reject(new Error(reason));
      waiting.clear();
      if (!settled) {
        settled = true;
        reject(new Error(reason));
      }
    };
    worker.on('error', (err) => fail(`the detector's worker failed: ${err.message}`));
    worker.on('exit', (code) => fail(`the detector's worker ended (exit ${code})`));
    worker.on('message', (m: { ready?: true; failed?: true; reason?: string; id?: number; detections?: Detection[]; error?: string }) => {
      if (m.failed) {
        void worker.terminate();
        return fail(m.reason ?? 'the detector did not load');
      }
      if (m.ready) {
        settled = true;
        return resolve({
          detect(rgb, width, height) {
            const id = next++;
            // A copy goes over (its memory moves to the worker): the caller keeps its frame.
            const copy = rgb.slice();
            return new Promise<Detection[]>((res, rej) => {
              waiting.set(id, { resolve: res, reject: rej });
              worker.postMessage({ id, rgb: copy, width, height }, [copy.buffer]);
            });
          },
          dispose() {
            void worker.terminate();
          },
        });
      }
      const w = m.id === undefined ? undefined : waiting.get(m.id);
      if (!w || m.id === undefined) return;
      waiting.delete(m.id);
      if (m.error !== undefined) w.reject(new Error(m.error));
      else w.resolve(m.detections ?? []);
    });
  });
}
