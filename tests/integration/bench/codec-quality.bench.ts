/**
 * Codec benchmark at satellite rates: H.264 (x264) against AV1 (SVT-AV1), each with the agent's own
 * encoder arguments for a 320×180, 3 fps definition at 24, 32, 48, 64, 100 and 150 kbit/s. Prints,
 * per scene, codec and rate: the bitrate measured on the link (the fragmented MP4 the agent sends,
 * boxes included), SSIM and PSNR of the decoded pictures against the source, and the encoder's CPU
 * per stream as a share of one core (user + system time over the clip's length, from ffmpeg's
 * `-benchmark`). Not part of npm test. Run from the repository root:
 *
 *   node --import tsx tests/integration/bench/codec-quality.bench.ts [--seconds=60] [--rates=24,32,64]
 *
 * Scenes look like cameras, not flat graphics (flat content flatters every encoder):
 * - `photo`: a photograph shipped by Debian's scikit-image (python3-skimage: its data folder),
 *   panned and slowly zoomed as a camera on a moving ship sees a scene, with sensor noise (at
 *   1280×720, then scaled down) that changes every picture and a dark object crossing the view;
 * - `synthetic`: the simulator's synthetic camera (moving square, burned-in clock and name, capture
 *   code), as the demo's ships send it, with the same sensor noise.
 * Each scene is rendered once to raw pictures (the reference), then encoded from it. The agent's
 * arguments change with the rate: at or below 32 kbit/s (the satellite tier) the tuned settings
 * and a keyframe every 10 s; above it the settings of the ordinary definitions (x264 ultrafast
 * Baseline, a keyframe a second) — what a ship would run at a definition of that rate.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { EncodeSpec, VideoCodec } from '@ship-cctv/protocol';
import { FMP4_OUTPUT_ARGS, videoEncodeArgs } from '@ship-cctv/agent';
import { syntheticCameraGraph } from '@ship-cctv/simulator';

const run = promisify(execFile);
const argv = process.argv.slice(2);
const arg = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const SECONDS = Number(arg('seconds') ?? 60);
const RATES = (arg('rates') ?? '24,32,48,64,100,150').split(',').map(Number);
const CODECS: VideoCodec[] = ['h264', 'av1'];
const W = 320;
const H = 180;
const FPS = 3;
/** Where Debian's scikit-image keeps its sample pictures. */
const PHOTO_DIRS = ['/usr/lib/python3/dist-packages/skimage/data', '/usr/share/python3-skimage/data'];
const PHOTOS = ['astronaut.png', 'chelsea.png', 'coffee.png', 'rocket.jpg'];
/** Sensor noise, new every picture (a camera's at dusk), at the camera's own size: scaling down averages much of it away, as on a ship. */
const NOISE = 'noise=alls=10:allf=t';

const dir = mkdtempSync(join(tmpdir(), 'codec-bench-'));

function photo(): string | undefined {
  for (const d of PHOTO_DIRS) for (const p of PHOTOS) if (existsSync(join(d, p))) return join(d, p);
  return undefined;
}

/** The scene's pictures, 320×180 at 3 fps, as raw video (y4m): the reference. */
async function renderScene(name: string): Promise<string | undefined> {
  const out = join(dir, `${name}.y4m`);
  if (name === 'photo') {
    const file = photo();
    if (!file) return undefined;
    // A view onto the photograph that pans across it and zooms in and out slowly (a ship's roll),
    // a dark box crossing (a person walking through), then sensor noise, at the definition's size.
    const view = [
      'scale=1280:720:force_original_aspect_ratio=increase', 'crop=1280:720', 'setsar=1', NOISE,
      `zoompan=z='1.25+0.2*sin(on/${FPS * 20}*2*PI)':x='(iw-iw/zoom)*(0.5+0.5*sin(on/${FPS * 30}*2*PI))':y='(ih-ih/zoom)*0.5':d=1:s=${W}x${H}:fps=${FPS}`,
      `drawbox=x='mod(t*40,${W + 60})-60':y=${Math.round(H * 0.45)}:w=30:h=60:color=0x202020@1:t=fill`,
      'format=yuv420p',
    ].join(',');
    await run('ffmpeg', ['-v', 'error', '-y', '-loop', '1', '-framerate', String(FPS), '-i', file, '-t', String(SECONDS), '-vf', view, '-r', String(FPS), out]);
    return out;
  }
  // Drawn at 1280×720 with the noise there, then brought down to the definition's size, as the agent scales a camera.
  const encode: EncodeSpec = { width: 1280, height: 720, frameRate: FPS, bitrateKbps: 32, codec: 'h264' };
  const graph = syntheticCameraGraph({ cameraName: 'Bridge', encode, startEpochMs: Date.UTC(2026, 0, 1, 12), realtime: false });
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', graph, '-t', String(SECONDS), '-vf', `${NOISE},scale=${W}:${H},format=yuv420p`, '-r', String(FPS), out], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return out;
}

interface Row {
  scene: string;
  codec: VideoCodec;
  rate: number;
  kbps: number;
  ssim: number;
  psnr: number;
  cpu: number;
}

/** Encodes the reference as the agent would, then measures the result against it. */
async function measure(scene: string, reference: string, codec: VideoCodec, rate: number): Promise<Row> {
  const encoded = join(dir, `${scene}-${codec}-${rate}.mp4`);
  const encode: EncodeSpec = { width: W, height: H, frameRate: FPS, bitrateKbps: rate, codec };
  const output = FMP4_OUTPUT_ARGS.slice(0, -1);
  const { stderr } = await run('ffmpeg', ['-hide_banner', '-nostdin', '-benchmark', '-y', '-i', reference, ...videoEncodeArgs(encode), ...output, encoded], {
    env: { ...process.env, SVT_LOG: '1' },
    maxBuffer: 16 * 1024 * 1024,
  });
  const utime = Number(/utime=([\d.]+)s/.exec(stderr)?.[1] ?? NaN);
  const stime = Number(/stime=([\d.]+)s/.exec(stderr)?.[1] ?? NaN);
  const kbps = (statSync(encoded).size * 8) / SECONDS / 1000;
  const compare = await run('ffmpeg', ['-hide_banner', '-nostdin', '-i', encoded, '-i', reference, '-lavfi', '[0:v]split[a][b];[1:v]split[c][d];[a][c]ssim;[b][d]psnr', '-f', 'null', '-'], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const ssim = Number(/SSIM .*All:([\d.]+)/.exec(compare.stderr)?.[1] ?? NaN);
  const psnr = Number(/PSNR .*average:([\d.]+|inf)/.exec(compare.stderr)?.[1] ?? NaN);
  return { scene, codec, rate, kbps, ssim, psnr, cpu: ((utime + stime) / SECONDS) * 100 };
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  try {
    for (const scene of ['photo', 'synthetic']) {
      const reference = await renderScene(scene);
      if (!reference) {
        console.log(`${scene}: no photograph found (install python3-skimage: its data folder has them); skipped`);
        continue;
      }
      for (const rate of RATES) for (const codec of CODECS) rows.push(await measure(scene, reference, codec, rate));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\n320×180 at ${FPS} fps, ${SECONDS} s per clip; CPU: user+system time over the clip's length, % of one core (${process.arch})\n`);
  console.log('| scene | kbit/s asked | codec | kbit/s on the link | SSIM | PSNR (dB) | CPU per stream |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.scene} | ${r.rate} | ${r.codec === 'av1' ? 'AV1' : 'H.264'} | ${r.kbps.toFixed(1)} | ${r.ssim.toFixed(4)} | ${r.psnr.toFixed(2)} | ${r.cpu.toFixed(1)} % |`);
  }
  // The goal: AV1 at 32 kbit/s at least as good as H.264 at 64.
  for (const scene of new Set(rows.map((r) => r.scene))) {
    const av1 = rows.find((r) => r.scene === scene && r.codec === 'av1' && r.rate === 32);
    const h264 = rows.find((r) => r.scene === scene && r.codec === 'h264' && r.rate === 64);
    if (av1 && h264) console.log(`${scene}: AV1 at 32 kbit/s SSIM ${av1.ssim.toFixed(4)} against H.264 at 64 kbit/s ${h264.ssim.toFixed(4)}: ${av1.ssim >= h264.ssim ? 'goal met' : `short by ${(h264.ssim - av1.ssim).toFixed(4)}`}`);
  }
}

await main();
