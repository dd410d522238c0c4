/**
 * What one live synthetic camera costs the ship and how fresh its frames are when they leave ffmpeg:
 * CPU of the ffmpeg process (from /proc, after its first byte), output bitrate against the target,
 * and capture-to-stdout delay read from the capture code of every frame. The output is what live
 * streams use (FLV repackaged into fragmented MP4 by FlvToFmp4); `--fmp4` measures ffmpeg's own MP4
 * muxer instead, which holds every frame until the next one. Run from the repository root:
 *   node --import tsx packages/simulator/bench/synthetic-camera.bench.ts [width height fps kbps seconds] [--fmp4]
 * Defaults: 640 360 15 400 10.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { decodeCaptureCode } from '@ship-cctv/protocol';
import { startEncoder } from '../../../apps/agent/src/media/encoder.ts';
import { syntheticCameraArgs } from '../src/camera/synthetic-picture.ts';
import { FlvToFmp4, type Fmp4Source } from '../../../apps/agent/src/media/flv-packager.ts';
import { Fmp4Reader } from '../../../apps/agent/src/media/fmp4.ts';
import { fontsFor } from '../src/camera/fonts.ts';

const FMP4 = process.argv.includes('--fmp4');
const [width = 640, height = 360, fps = 15, kbps = 400, seconds = 10] = process.argv
  .slice(2)
  .filter((a) => !a.startsWith('--'))
  .map(Number);
const encode = { width, height, frameRate: fps, bitrateKbps: kbps, codec: 'h264' as const };
const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** utime + stime of a process, in seconds. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

const args = syntheticCameraArgs({ cameraName: 'Bench 甲板', encode, realtime: true, output: FMP4 ? 'fmp4' : 'flv', ...fontsFor('Bench 甲板') });
console.log(`ffmpeg ${args.map((a) => (/[\s'"();,[\]|&]/.test(a) ? `"${a.replace(/(["\\$`])/g, '\\$1')}"` : a)).join(' ')}\n`);

const reader: Fmp4Source = FMP4 ? new Fmp4Reader() : new FlvToFmp4({ frameRate: fps, width, height });
const units: { bytes: Buffer; at: number }[] = [];
let window: { cpu: number; wall: number; bytes: number } | undefined;
let bytes = 0;
const encoder = startEncoder(args, {
  firstByteTimeoutMs: 10_000,
  onData: (chunk) => {
    const at = Date.now();
    bytes += chunk.length;
    for (const u of reader.push(chunk)) units.push({ bytes: u.bytes, at });
  },
  onRunning: () => {
    // Let the start-up (font loading, x264 init) pass, then measure a steady window.
    setTimeout(() => {
      window = { cpu: cpuSeconds(encoder.pid!), wall: performance.now(), bytes };
      setTimeout(() => void finish(), seconds * 1000);
    }, 1000);
  },
});

async function finish(): Promise<void> {
  const start = window!;
  const cpu = cpuSeconds(encoder.pid!) - start.cpu;
  const wall = (performance.now() - start.wall) / 1000;
  const sent = bytes - start.bytes;
  await encoder.stop();

  // Capture code of every frame against the moment its fragment came out of ffmpeg.
  const file = Buffer.concat(units.map((u) => u.bytes));
  const gray = execFileSync('ffmpeg', ['-v', 'error', '-i', 'pipe:0', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'], { input: file, maxBuffer: 1 << 30 });
  const frameBytes = width * height;
  const delays: number[] = [];
  let unreadable = 0;
  for (let i = 0; (i + 1) * frameBytes <= gray.length; i++) {
    const code = decodeCaptureCode(gray.subarray(i * frameBytes, (i + 1) * frameBytes), width, height, { channels: 1 });
    const arrived = units[i + 1]?.at; // units[0] is the init segment
    if (code === undefined || arrived === undefined) unreadable++;
    else delays.push(arrived - code);
  }
  delays.sort((a, b) => a - b);
  const pct = (p: number) => delays[Math.min(delays.length - 1, Math.floor((p / 100) * delays.length))] ?? NaN;

  console.log(`synthetic camera ${width}×${height}@${fps}, target ${kbps} kbit/s, ${FMP4 ? "ffmpeg's MP4 muxer" : 'FLV repackaged (live)'}, ${wall.toFixed(1)} s steady window`);
  console.log(`  ffmpeg CPU      ${((cpu / wall) * 100).toFixed(1)} % of one core (${cpu.toFixed(2)} s CPU)`);
  console.log(`  output          ${((sent * 8) / wall / 1000).toFixed(0)} kbit/s`);
  console.log(`  capture→stdout  median ${pct(50)} ms, p95 ${pct(95)} ms, max ${delays.at(-1)} ms over ${delays.length} frames (${unreadable} codes unreadable)`);
}
