import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { sessionTranscodeArgs } from '../../src/media/ffmpeg-args.ts';
import { run, spec } from './helpers.ts';

/**
 * A camera faster than its template, through the live transcode's own filters and encoder options
 * (sessionTranscodeArgs: everything from -vf to the output), with real ffmpeg: each picture kept
 * leaves the encoder before the camera's next picture has come, the template's rate comes out,
 * and the encoder spends the template's bitrate.
 */
const CAMERA_FPS = 25;
const TEMPLATE = spec(320, 180, 10, 200);
const W = 320;
const H = 180;

/** The transcode's filters and encoder options, without its input and container. */
function filtersAndEncoder(cameraFps: number | undefined): string[] {
  const args = sessionTranscodeArgs(TEMPLATE, 'flv', cameraFps);
  const from = args.indexOf('-vf');
  return args.slice(from, args.indexOf('-f', from));
}

/** Pictures 0..n-1 of the camera that the thinning keeps: the first of each 1/10 s slot. */
function kept(n: number): number {
  let count = 0;
  let slot = -1;
  for (let i = 0; i < n; i++) {
    const s = Math.floor((i / CAMERA_FPS) * TEMPLATE.frameRate + 1e-9);
    if (s > slot) {
      count++;
      slot = s;
    }
  }
  return count;
}

/**
 * Writes raw camera pictures one at a time to ffmpeg running the transcode, and after each reads
 * how many encoded pictures have come out (framecrc: a line a packet) before the next is written.
 * Waits for a picture's packet up to `firstWaitMs` for the first (ffmpeg starting) and 3 s for the
 * others, many times what one small picture takes; stops at the first picture it waited for in vain.
 */
async function packetsAfterEachPicture(cameraFps: number | undefined, pictures: number, firstWaitMs: number): Promise<number[]> {
  const ff = spawn(
    'ffmpeg',
    ['-hide_banner', '-nostdin', '-loglevel', 'error', '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-s', `${W}x${H}`, '-framerate', String(CAMERA_FPS), '-i', 'pipe:0', ...filtersAndEncoder(cameraFps), '-flush_packets', '1', '-f', 'framecrc', 'pipe:1'],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let packets = 0;
  let out = '';
  ff.stdout.on('data', (d: Buffer) => {
    out += d.toString('latin1');
    const lines = out.split('\n');
    out = lines.pop() ?? '';
    packets += lines.filter((l) => l.length > 0 && !l.startsWith('#')).length;
  });
  const exited = new Promise<void>((resolve) => ff.once('close', () => resolve()));
  const counts: number[] = [];
  const picture = Buffer.alloc((W * H * 3) / 2);
  try {
    for (let i = 0; i < pictures; i++) {
      picture.fill(16 + ((i * 7) % 200), 0, W * H);
      picture.fill(128, W * H);
      ff.stdin.write(picture);
      const want = kept(i + 1);
      const deadline = Date.now() + (i === 0 ? firstWaitMs : 3_000);
      while (packets < want && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      counts.push(packets);
      if (packets < want) break;
    }
  } finally {
    ff.stdin.end();
    await exited;
  }
  return counts;
}

describe('a camera faster than its template, thinned out in the live transcode', () => {
  it('puts each kept picture out before the next one comes; the frame-rate filter held one back', async () => {
    const pictures = 26;
    const expected = Array.from({ length: pictures }, (_, i) => kept(i + 1));
    expect(expected.at(-1)).toBe(11);
    expect(await packetsAfterEachPicture(CAMERA_FPS, pictures, 10_000)).toEqual(expected);
    // What the thinning replaces (the filter used when the camera's rate is not known): behind,
    // from the first picture on (which it keeps until the second has come).
    const held = await packetsAfterEachPicture(undefined, pictures, 3_000);
    expect(held.length).toBeLessThan(pictures);
    expect(held.at(-1)).toBeLessThan(expected[held.length - 1] ?? 0);
  }, 60_000);

  it('comes out at the template’s rate and bitrate, as the frame-rate filter’s does', async () => {
    const encodeOf = async (cameraFps: number | undefined) => {
      const { stdout } = await run('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc2=size=640x360:rate=${CAMERA_FPS}`, '-t', '6', ...filtersAndEncoder(cameraFps), '-f', 'framecrc', 'pipe:1'], {
        maxBuffer: 16 * 1024 * 1024,
      });
      const lines = stdout.split('\n').filter((l) => l.length > 0 && !l.startsWith('#'));
      const timebase = /#tb 0: (\d+)\/(\d+)/.exec(stdout);
      return { frames: lines.length, bytes: lines.reduce((sum, l) => sum + Number(l.split(',')[4]), 0), timebase: timebase ? `${timebase[1]}/${timebase[2]}` : undefined };
    };
    const thinned = await encodeOf(CAMERA_FPS);
    const filtered = await encodeOf(undefined);
    expect(thinned.frames).toBeGreaterThanOrEqual(59);
    expect(thinned.frames).toBeLessThanOrEqual(61);
    expect(thinned.timebase).toBe('1/10');
    // Rate control at the template's rate: within a fifth of the frame-rate filter's bytes (at the
    // camera's rate x264 spends about half).
    expect(thinned.bytes / filtered.bytes).toBeGreaterThan(0.8);
    expect(thinned.bytes / filtered.bytes).toBeLessThan(1.25);
  }, 60_000);
});
