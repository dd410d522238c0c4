/**
 * Super-resolution honesty: is the model better than bicubic? On 20 pictures — 12 frames of the
 * synthetic camera at different moments and 8 pictures made with ffmpeg's generators (fractals,
 * test charts, gradients; no photographs: nothing is downloaded here) — each is shrunk ×2 (and
 * ×4 for the ones that divide), then enlarged back with the model (ESRGAN-slim, as the server runs
 * it) and with bicubic (sharp), and both are compared with the original: PSNR and SSIM on luma.
 * Also the model's speed in seconds per output megapixel on this machine. Prints figures; not part
 * of npm test. From the repository root:
 *
 *   node --import tsx apps/server/bench/super-resolution.bench.ts [--scales=2,4]
 */
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { shootSynthetic } from '../../agent/src/pictures/capture.ts';
import { type Scale, loadModel, upscale } from '../src/pictures/enhance/esrgan.ts';

const argv = process.argv.slice(2);
const SCALES = (argv.find((a) => a.startsWith('--scales='))?.slice(9) ?? '2,4').split(',').map(Number) as Scale[];
const W = 480;
const H = 272;

/** A generated picture, W×H RGB, from an ffmpeg lavfi source. */
function generated(source: string): Buffer {
  return execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `${source}${source.includes('=') ? ':' : '='}size=${W}x${H}`, '-frames:v', '1', '-pix_fmt', 'rgb24', '-f', 'rawvideo', 'pipe:1'], { maxBuffer: 64 * 1024 * 1024 });
}

async function pictures(): Promise<{ name: string; rgb: Buffer }[]> {
  const out: { name: string; rgb: Buffer }[] = [];
  for (let i = 0; i < 12; i++) {
    const shot = await shootSynthetic('Bridge 驾驶台', Date.UTC(2026, 10, 25, 8, 0, 0) + i * 4_321, { width: W, height: H }, { fontFile: undefined, nameFontFile: undefined });
    out.push({ name: `synthetic-${i}`, rgb: await sharp(shot.jpeg).removeAlpha().raw().toBuffer() });
  }
  for (const source of ['mandelbrot', 'testsrc2', 'smptehdbars', 'gradients=seed=3', 'cellauto=rule=110', 'life=mold=10:ratio=0.2:seed=4', 'rgbtestsrc', 'sierpinski=seed=7']) {
    out.push({ name: source.split('=')[0] ?? source, rgb: generated(source) });
  }
  return out;
}

/** Luma (BT.601) of RGB bytes. */
function luma(rgb: Uint8Array): Float64Array {
  const y = new Float64Array(rgb.length / 3);
  for (let i = 0; i < y.length; i++) y[i] = 0.299 * (rgb[3 * i] ?? 0) + 0.587 * (rgb[3 * i + 1] ?? 0) + 0.114 * (rgb[3 * i + 2] ?? 0);
  return y;
}

function psnr(a: Float64Array, b: Float64Array): number {
  let se = 0;
  for (let i = 0; i < a.length; i++) se += ((a[i] ?? 0) - (b[i] ?? 0)) ** 2;
  const mse = se / a.length;
  return mse === 0 ? Infinity : 10 * Math.log10((255 * 255) / mse);
}

/** Mean SSIM over 8×8 windows with a stride of 4 (the constants of Wang et al. 2004). */
function ssim(a: Float64Array, b: Float64Array, width: number, height: number): number {
  const C1 = (0.01 * 255) ** 2;
  const C2 = (0.03 * 255) ** 2;
  let sum = 0;
  let n = 0;
  for (let y0 = 0; y0 + 8 <= height; y0 += 4) {
    for (let x0 = 0; x0 + 8 <= width; x0 += 4) {
      let ma = 0;
      let mb = 0;
      for (let y = y0; y < y0 + 8; y++) for (let x = x0; x < x0 + 8; x++) {
        ma += a[y * width + x] ?? 0;
        mb += b[y * width + x] ?? 0;
      }
      ma /= 64;
      mb /= 64;
      let va = 0;
      let vb = 0;
      let cov = 0;
      for (let y = y0; y < y0 + 8; y++) for (let x = x0; x < x0 + 8; x++) {
        const da = (a[y * width + x] ?? 0) - ma;
        const db = (b[y * width + x] ?? 0) - mb;
        va += da * da;
        vb += db * db;
        cov += da * db;
      }
      va /= 63;
      vb /= 63;
      cov /= 63;
      sum += ((2 * ma * mb + C1) * (2 * cov + C2)) / ((ma * ma + mb * mb + C1) * (va + vb + C2));
      n++;
    }
  }
  return sum / n;
}

const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;

async function main(): Promise<void> {
  const set = await pictures();
  for (const scale of SCALES) {
    const model = await loadModel(scale);
    const lw = W / scale;
    const lh = H / scale;
    const rows: { name: string; model: [number, number]; bicubic: [number, number] }[] = [];
    let modelMs = 0;
    for (const p of set) {
      const raw = { raw: { width: W, height: H, channels: 3 as const } };
      const small = await sharp(p.rgb, raw).resize(lw, lh, { kernel: 'cubic' }).raw().toBuffer();
      const t0 = performance.now();
      const up = upscale(model, scale, new Uint8Array(small), lw, lh);
      modelMs += performance.now() - t0;
      if (!up) throw new Error('stopped');
      const bicubic = await sharp(small, { raw: { width: lw, height: lh, channels: 3 } }).resize(W, H, { kernel: 'cubic' }).raw().toBuffer();
      const ref = luma(p.rgb);
      const m = luma(up);
      const b = luma(bicubic);
      rows.push({ name: p.name, model: [psnr(ref, m), ssim(ref, m, W, H)], bicubic: [psnr(ref, b), ssim(ref, b, W, H)] });
    }
    const better = rows.filter((r) => r.model[0] > r.bicubic[0]).length;
    const betterSsim = rows.filter((r) => r.model[1] > r.bicubic[1]).length;
    for (const r of rows) {
      console.log(`[×${scale}] ${r.name.padEnd(14)} model PSNR ${r.model[0].toFixed(2)} dB SSIM ${r.model[1].toFixed(4)} | bicubic PSNR ${r.bicubic[0].toFixed(2)} dB SSIM ${r.bicubic[1].toFixed(4)}`);
    }
    const mp = (set.length * W * H) / 1e6;
    console.log(
      `[×${scale}] ${set.length} pictures ${lw}×${lh} → ${W}×${H}: model PSNR ${mean(rows.map((r) => r.model[0])).toFixed(2)} dB, SSIM ${mean(rows.map((r) => r.model[1])).toFixed(4)}; ` +
        `bicubic PSNR ${mean(rows.map((r) => r.bicubic[0])).toFixed(2)} dB, SSIM ${mean(rows.map((r) => r.bicubic[1])).toFixed(4)}; ` +
        `model better on ${better}/${rows.length} (PSNR), ${betterSsim}/${rows.length} (SSIM); ${(modelMs / 1000 / mp).toFixed(1)} s per output megapixel`,
    );
  }
}

await main();
