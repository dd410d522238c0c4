/**
 * A real RTSP camera (Debian's GStreamer RTSP server with x264/x265, scripts/rtsp-camera.py) that
 * cuts every picture into two slices and repeats SPS/PPS before each IDR slice, as many IP cameras
 * do. The copy path must carry each picture as one sample, the transcode path must decode whole
 * pictures, and both must give the frames an independent reference decode of the same camera gives.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RelaySplitter, type MediaFragment } from '../../../../apps/server/src/core/media/fmp4.ts';
import { NAL_PPS, NAL_SPS, isSlice, nalType, splitNals, startsPicture } from '../../../../apps/agent/src/media/access-unit.ts';
import { urlCameraArgs } from '../../../../apps/agent/src/media/ffmpeg-args.ts';
import { FlvToFmp4, TIMESCALE } from '../../../../apps/agent/src/media/flv-packager.ts';
import type { Fmp4Unit } from '../../../../apps/agent/src/media/fmp4.ts';
import { probeInput } from '../../../../apps/agent/src/media/probe.ts';
import { type RtspCamera, startRtspCamera } from '../../../../apps/agent/test/helpers/rtsp-camera.ts';
import { ffmpegToFile, run, spec, tempDir } from '../../../../apps/agent/test/media/helpers.ts';

// Real-time camera sessions of several seconds each.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });

const SMALL = { w: 80, h: 60 };
const FRAME_BYTES = SMALL.w * SMALL.h;

/** The sample (NAL units) of a fragment, and its decode time. */
function sampleOf(f: MediaFragment, bytes: Buffer): { nals: Buffer[]; decodeTime: number } {
  // moof+mdat: the mdat payload follows the moof and the 8-byte mdat header.
  const moofSize = bytes.readUInt32BE(0);
  const nals = splitNals(bytes.subarray(moofSize + 8));
  return { nals, decodeTime: Number(f.baseMediaDecodeTime) };
}

/** Starts at the first keyframe, as a viewer does. */
function fromKeyframe(units: Fmp4Unit[]): Fmp4Unit[] {
  const init = units.find((u) => u.kind === 'init');
  const at = units.findIndex((u) => u.kind === 'fragment' && u.keyframe);
  if (!init || at < 0) throw new Error('no init segment or no keyframe');
  return [init, ...units.slice(at)];
}

const md5s = (text: string) =>
  text
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split(',').at(-1)?.trim() ?? '');

const grayFrames = (buf: Buffer) => Array.from({ length: Math.floor(buf.length / FRAME_BYTES) }, (_, i) => buf.subarray(i * FRAME_BYTES, (i + 1) * FRAME_BYTES));

function psnr(a: Buffer, b: Buffer): number {
  let se = 0;
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] as number) - (b[i] as number);
    se += d * d;
  }
  const mse = se / a.length;
  return mse === 0 ? 99 : 10 * Math.log10((255 * 255) / mse);
}

/**
 * An independent decode of the camera: its own RTSP session, ffmpeg's decoder told that a picture
 * may come in several packets (`-flags2 +chunks`). MD5 of every decoded picture, and small grey
 * copies for the transcode comparison.
 */
function referenceDecode(url: string, seconds: number, dir: string, name: string): { child: ChildProcess; done: Promise<{ md5: string[]; gray: Buffer[] }> } {
  const md5File = join(dir, `${name}.md5`);
  const grayFile = join(dir, `${name}.gray`);
  const child = spawn('ffmpeg', [
    '-v', 'error', '-rtsp_transport', 'tcp', '-flags2', '+chunks', '-t', String(seconds), '-i', url,
    '-map', '0:v:0', '-f', 'framemd5', md5File,
    '-map', '0:v:0', '-vf', `scale=${SMALL.w}:${SMALL.h},format=gray`, '-f', 'rawvideo', grayFile,
  ], { stdio: 'ignore' });
  const done = new Promise<{ md5: string[]; gray: Buffer[] }>((resolve, reject) => {
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`reference decode exited with ${code}`));
      resolve({ md5: md5s(readFileSync(md5File, 'utf8')), gray: grayFrames(readFileSync(grayFile)) });
    });
  });
  return { child, done };
}

async function packagedFromCamera(url: string, encode: ReturnType<typeof spec>, copy: boolean, seconds: number, file: string): Promise<Fmp4Unit[]> {
  const probe = copy ? await probeInput(url) : undefined;
  const flv = readFileSync(await ffmpegToFile(urlCameraArgs({ url, encode, probe, output: 'flv', durationSeconds: seconds }), `${file}.flv`));
  const packager = new FlvToFmp4({ frameRate: encode.frameRate, joinSlices: copy });
  const units = fromKeyframe([...packager.push(flv), ...packager.flush()]);
  writeFileSync(file, Buffer.concat(units.map((u) => u.bytes)));
  return units;
}

describe('a multi-slice H.264 RTSP camera', () => {
  const tmp = tempDir('rtsp-camera-');
  let camera: RtspCamera;
  let reference: ReturnType<typeof referenceDecode>;
  beforeAll(async () => {
    camera = await startRtspCamera({ port: 18554, slices: 2, width: 320, height: 240, fps: 10 });
    reference = referenceDecode(camera.url, 16, tmp.dir, 'reference');
    // The reference session is up before the ones under test start.
    await new Promise((r) => setTimeout(r, 1_500));
  });
  afterAll(async () => {
    reference?.child.kill('SIGKILL');
    await camera?.stop();
    tmp.remove();
  });

  let copied: Fmp4Unit[];
  let transcoded: Fmp4Unit[];
  it('is copied as one sample per picture, both slices in it, parameter sets before them, on a 100 ms grid', async () => {
    const encode = spec(320, 240, 10, 2000);
    copied = await packagedFromCamera(camera.url, encode, true, 4, join(tmp.dir, 'copied.mp4'));
    const fragments = new RelaySplitter().push(Buffer.concat(copied.map((u) => u.bytes))).filter((u): u is MediaFragment => u.kind === 'fragment');
    const frags = copied.filter((u) => u.kind === 'fragment');
    expect(fragments.length).toBeGreaterThanOrEqual(20);
    expect(fragments.length).toBe(frags.length);
    let last: number | undefined;
    fragments.forEach((f, i) => {
      const { nals, decodeTime } = sampleOf(f, Buffer.from((frags[i] as Fmp4Unit).bytes));
      const slices = nals.filter(isSlice);
      expect(slices.length).toBe(2);
      expect(startsPicture(slices[0] as Buffer)).toBe(true);
      expect(startsPicture(slices[1] as Buffer)).toBe(false);
      // Nothing but slices after the first slice (no SPS/PPS between slices).
      const first = nals.findIndex(isSlice);
      expect(nals.slice(first).every(isSlice)).toBe(true);
      if (f.keyframe) expect(nals.slice(0, first).map(nalType)).toEqual(expect.arrayContaining([NAL_SPS, NAL_PPS]));
      if (last !== undefined) expect(decodeTime - last).toBe(TIMESCALE / 10);
      last = decodeTime;
    });
  });

  it('is transcoded into whole pictures', async () => {
    transcoded = await packagedFromCamera(camera.url, spec(320, 240, 10, 800), false, 4, join(tmp.dir, 'transcoded.mp4'));
    expect(transcoded.filter((u) => u.kind === 'fragment').length).toBeGreaterThanOrEqual(20);
  });

  it('decodes to exactly the reference’s pictures when copied, and close to them when transcoded', async () => {
    const ref = await reference.done;
    expect(ref.md5.length).toBeGreaterThan(100);
    // Copy: every picture bit-exact, in order, a run of the reference's.
    const ours = md5s((await run('ffmpeg', ['-v', 'error', '-i', join(tmp.dir, 'copied.mp4'), '-f', 'framemd5', '-'])).stdout);
    expect(ours.length).toBe(copied.length - 1);
    const at = ref.md5.indexOf(ours[0] as string);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(ref.md5.slice(at, at + ours.length)).toEqual(ours);

    // Transcode: every picture within 30 dB PSNR of some reference picture (a grey or smeared half
    // picture is far below), and ffmpeg finds no decoding error.
    const { stdout, stderr } = await run('ffmpeg', ['-v', 'error', '-i', join(tmp.dir, 'transcoded.mp4'), '-vf', `scale=${SMALL.w}:${SMALL.h},format=gray`, '-f', 'rawvideo', 'pipe:1'], {
      encoding: 'buffer',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(stderr.toString()).toBe('');
    const frames = grayFrames(stdout);
    expect(frames.length).toBe(transcoded.length - 1);
    const worst = Math.min(...frames.map((f) => Math.max(...ref.gray.map((r) => psnr(f, r)))));
    expect(worst).toBeGreaterThan(30);
  });
});

describe('a multi-slice H.265 RTSP camera', () => {
  const tmp = tempDir('rtsp-camera-hevc-');
  let camera: RtspCamera;
  beforeAll(async () => {
    camera = await startRtspCamera({ port: 18555, codec: 'h265', slices: 2, width: 320, height: 240, fps: 10 });
  });
  afterAll(async () => {
    await camera?.stop();
    tmp.remove();
  });

  it('is transcoded into H.264 pictures close to a reference decode', async () => {
    const reference = referenceDecode(camera.url, 8, tmp.dir, 'reference');
    await new Promise((r) => setTimeout(r, 1_500));
    const units = await packagedFromCamera(camera.url, spec(320, 240, 10, 800), false, 4, join(tmp.dir, 'transcoded.mp4'));
    const ref = await reference.done;
    const { stdout, stderr } = await run('ffmpeg', ['-v', 'error', '-i', join(tmp.dir, 'transcoded.mp4'), '-vf', `scale=${SMALL.w}:${SMALL.h},format=gray`, '-f', 'rawvideo', 'pipe:1'], {
      encoding: 'buffer',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(stderr.toString()).toBe('');
    const frames = grayFrames(stdout);
    expect(frames.length).toBe(units.length - 1);
    expect(frames.length).toBeGreaterThanOrEqual(20);
    const worst = Math.min(...frames.map((f) => Math.max(...ref.gray.map((r) => psnr(f, r)))));
    expect(worst).toBeGreaterThan(30);
  });
});
