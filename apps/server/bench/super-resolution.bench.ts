/**
 * Super-resolution honesty: is the model better than bicubic? On 28 pictures in three groups —
 * 12 frames of the synthetic camera at different moments, 8 pictures made with ffmpeg's generators
 * (fractals, test charts, gradients, cellular automata) and 8 photographs (the sample pictures of
 * Debian's scikit-image package, fetched with `apt-get download` and unpacked, never installed;
 * skipped with a note where apt cannot fetch) — each is shrunk ×2 or ×4, then enlarged back with
 * the model (as the server runs it, or `--model=`) and with bicubic (sharp), and both are compared
 * with the original: PSNR and SSIM on luma, per picture, per group and overall. Also the model's
 * speed in seconds per output megapixel on this machine. Prints figures; not part of npm test.
 * From the repository root:
 *
 *   node --import tsx apps/server/bench/super-resolution.bench.ts [--scales=2,4] [--model=slim|medium]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { shootSynthetic } from '../../../packages/simulator/src/camera/synthetic-camera.ts';
import { MODEL_OF_SCALE, type ModelVariant, type Scale, loadModel, upscale } from '../src/modules/pictures/enhance/esrgan.ts';

const argv = process.argv.slice(2);
const SCALES = (argv.find((a) => a.startsWith('--scales='))?.slice(9) ?? '2,4').split(',').map(Number) as Scale[];
const MODEL = argv.find((a) => a.startsWith('--model='))?.slice(8) as ModelVariant | undefined;
const W = 480;
const H = 272;

/** A generated picture, W×H RGB, from an ffmpeg lavfi source. */
function generated(source: string): Buffer {
  return execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `${source}${source.includes('=') ? ':' : '='}size=${W}x${H}`, '-frames:v', '1', '-pix_fmt', 'rgb24', '-f', 'rawvideo', 'pipe:1'], { maxBuffer: 64 * 1024 * 1024 });
}

const PHOTOS = ['astronaut.png', 'chelsea.png', 'coffee.png', 'rocket.jpg', 'motorcycle_left.png', 'brick.png', 'grass.png', 'hubble_deep_field.jpg'];

/** The folder of scikit-image's sample photographs, from Debian's package (unpacked once into the temp folder). */
function photoFolder(): string | undefined {
  const root = join(tmpdir(), 'ship-cctv-sr-photos');
  const data = join(root, 'usr/lib/python3/dist-packages/skimage/data');
  if (existsSync(data)) return data;
  try {
    mkdirSync(root, { recursive: true });
    execFileSync('apt-get', ['download', 'python3-skimage'], { cwd: root, stdio: 'ignore' });
    const deb = readdirSync(root).find((f) => f.endsWith('.deb'));
    if (!deb) return undefined;
    execFileSync('dpkg-deb', ['-x', deb, '.'], { cwd: root });
    return existsSync(data) ? data : undefined;
  } catch {
    return undefined;
  }
}

type Group = 'synthetic' | 'generated' | 'photo';

async function pictures(): Promise<{ name: string; group: Group; rgb: Buffer }[]> {
  const out: { name: string; group: Group; rgb: Buffer }[] = [];
  for (let i = 0; i < 12; i++) {
    const shot = await shootSynthetic('Bridge 驾驶台', Date.UTC(2026, 10, 25, 8, 0, 0) + i * 4_321, { width: W, height: H }, { fontFile: undefined, nameFontFile: undefined });
    out.push({ name: `synthetic-${i}`, group: 'synthetic', rgb: await sharp(shot.jpeg).removeAlpha().raw().toBuffer() });
  }
  for (const source of ['mandelbrot', 'testsrc2', 'smptehdbars', 'gradients=seed=3', 'cellauto=rule=110:seed=5', 'life=mold=10:ratio=0.2:seed=4', 'rgbtestsrc', 'sierpinski=seed=7']) {
    out.push({ name: source.split('=')[0] ?? source, group: 'generated', rgb: generated(source) });
  }
  const folder = photoFolder();
  if (!folder) console.log('[photos] Debian\'s python3-skimage could not be fetched with apt-get download: photographs left out');
  for (const name of folder ? PHOTOS : []) {
    // The middle of the photograph at the benchmark's size (shrunk first where it is much larger).
    const meta = await sharp(join(folder ?? '', name)).metadata();
    const fit = Math.min((meta.width ?? W) / W, (meta.height ?? H) / H) > 2 ? 2 : 1;
    const rgb = await sharp(join(folder ?? '', name))
      .removeAlpha()
      .toColourspace('srgb')
      .resize(Math.round((meta.width ?? W) / fit), Math.round((meta.height ?? H) / fit), { kernel: 'cubic' })
      .resize(W, H, { fit: 'cover', position: 'centre' })
      .raw()
      .toBuffer();
    out.push({ name: name.replace(/\.\w+$/, ''), group: 'photo', rgb });
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
    const variant = MODEL ?? MODEL_OF_SCALE[scale];
    const model = await loadModel(scale, variant);
    const lw = W / scale;
    const lh = H / scale;
    const rows: { name: string; group: Group; model: [number, number]; bicubic: [number, number] }[] = [];
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
      rows.push({ name: p.name, group: p.group, model: [psnr(ref, m), ssim(ref, m, W, H)], bicubic: [psnr(ref, b), ssim(ref, b, W, H)] });
    }
    for (const r of rows) {
      console.log(`[×${scale}] ${r.name.padEnd(16)} model PSNR ${r.model[0].toFixed(2)} dB SSIM ${r.model[1].toFixed(4)} | bicubic PSNR ${r.bicubic[0].toFixed(2)} dB SSIM ${r.bicubic[1].toFixed(4)}`);
    }
    const summary = (label: string, of: typeof rows) => {
      const better = of.filter((r) => r.model[0] > r.bicubic[0]).length;
      const betterSsim = of.filter((r) => r.model[1] > r.bicubic[1]).length;
      console.log(
        `[×${scale}] ${label.padEnd(10)} ${String(of.length).padStart(2)} pictures: model PSNR ${mean(of.map((r) => r.model[0])).toFixed(2)} dB, SSIM ${mean(of.map((r) => r.model[1])).toFixed(4)}; ` +
          `bicubic PSNR ${mean(of.map((r) => r.bicubic[0])).toFixed(2)} dB, SSIM ${mean(of.map((r) => r.bicubic[1])).toFixed(4)}; ` +
          `model better on ${better}/${of.length} (PSNR), ${betterSsim}/${of.length} (SSIM)`,
      );
    };
    for (const group of ['synthetic', 'generated', 'photo'] as const) {
      const of = rows.filter((r) => r.group === group);
      if (of.length > 0) summary(group, of);
    }
    summary('all', rows);
    const mp = (set.length * W * H) / 1e6;
    console.log(`[×${scale}] ESRGAN-${variant}, ${lw}×${lh} → ${W}×${H}: ${(modelMs / 1000 / mp).toFixed(1)} s per output megapixel`);
  }
}

await main();
