import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeCaptureCode } from '@ship-cctv/protocol';
import { startEncoder } from '../../../../apps/agent/src/media/encoder.ts';
import { syntheticCameraArgs } from '../../src/camera/synthetic-picture.ts';
import { Fmp4Reader } from '../../../../apps/agent/src/media/fmp4.ts';
import { fontsFor } from '../../src/camera/fonts.ts';
import { ffmpegToFile, grayFrame, probeFile, run, spec, tempDir, topLevelBoxes } from '../../../../apps/agent/test/media/helpers.ts';

const START = Date.UTC(2026, 4, 1, 10, 40, 0, 0);
const tmp = tempDir('synthetic-camera-');
afterAll(() => tmp.remove());

describe.each([
  { width: 320, height: 180, fps: 5, kbps: 200 },
  { width: 640, height: 360, fps: 10, kbps: 400 },
])('the synthetic camera at $width×$height@$fps', ({ width, height, fps, kbps }) => {
  const seconds = 3;
  let file: string;

  it('encodes H.264 baseline fragmented MP4 at the template size and rate, a keyframe every second', async () => {
    const args = syntheticCameraArgs({ cameraName: '驾驶台 Bridge', encode: spec(width, height, fps, kbps), startEpochMs: START, realtime: false, durationSeconds: seconds, ...fontsFor('驾驶台 Bridge') });
    file = await ffmpegToFile(args, join(tmp.dir, `synthetic-${width}.mp4`));
    const probe = await probeFile(file);
    expect(probe).toMatchObject({ codec: 'h264', profile: 'Constrained Baseline', width, height, frameRate: `${fps}/1`, packets: seconds * fps });
    expect(probe.keyframes).toEqual(Array.from({ length: seconds }, (_, i) => i * fps));
    const boxes = topLevelBoxes(readFileSync(file));
    expect(boxes.slice(0, 2)).toEqual(['ftyp', 'moov']);
    // One fragment per frame.
    expect(boxes.filter((b) => b === 'moof')).toHaveLength(seconds * fps);
    // Then moof+mdat pairs, and the random-access index ffmpeg appends when it finishes.
    expect(boxes.at(-1)).toBe('mfra');
    expect(boxes.slice(2, -1).every((b, i) => b === (i % 2 === 0 ? 'moof' : 'mdat'))).toBe(true);
  });

  it('carries the capture time of each frame in its pixels', async () => {
    for (const n of [0, fps + 2, seconds * fps - 1]) {
      const code = decodeCaptureCode(await grayFrame(file, n), width, height, { channels: 1 });
      expect(code).toBeDefined();
      expect(Math.abs((code ?? 0) - (START + (n * 1000) / fps))).toBeLessThan(1000 / fps);
    }
  });
});

describe('the synthetic picture', () => {
  it('is a function of absolute time: a render started one second later shows the same frame for the same moment', async () => {
    const raw = async (startEpochMs: number) => {
      const args = syntheticCameraArgs({ cameraName: 'Deck', encode: spec(320, 180, 5, 200), startEpochMs, realtime: false, durationSeconds: 2, ...fontsFor('Deck') });
      // The same graph, but raw pixels instead of the encoder: lossless comparison.
      const graphOnly = args.slice(0, args.indexOf('-an'));
      const { stdout } = await run('ffmpeg', [...graphOnly, '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'], { encoding: 'buffer', maxBuffer: 32 * 1024 * 1024 });
      return stdout;
    };
    const frame = 320 * 180;
    const early = await raw(START);
    const late = await raw(START + 1000);
    expect(early.length).toBe(10 * frame);
    // Frame 5 of the first render and frame 0 of the second both show START + 1 s.
    expect(Buffer.compare(early.subarray(5 * frame, 6 * frame), late.subarray(0, frame))).toBe(0);
    // … and the picture does move: one second apart differs.
    expect(Buffer.compare(early.subarray(0, frame), early.subarray(5 * frame, 6 * frame))).not.toBe(0);
  });

  it('takes any camera name: quotes, colons, percent signs, backslashes and graph punctuation', async () => {
    const args = syntheticCameraArgs({ cameraName: "O'Neil: 50% \\ deck, [1]; =x", encode: spec(320, 180, 5, 200), startEpochMs: START, realtime: false, durationSeconds: 0.4 });
    const probe = await probeFile(await ffmpegToFile(args, join(tmp.dir, 'odd-name.mp4')));
    expect(probe.packets).toBe(2);
  });

  it('shows the wall clock when live: the code of a frame lies between the spawn and its arrival', async () => {
    const spawnedAt = Date.now();
    const chunks: Buffer[] = [];
    let lastChunkAt = 0;
    const enc = startEncoder(syntheticCameraArgs({ cameraName: 'Live', encode: spec(320, 180, 10, 200), realtime: true, ...fontsFor('Live') }), {
      firstByteTimeoutMs: 10_000,
      onData: (c) => {
        chunks.push(c);
        lastChunkAt = Date.now();
      },
    });
    await new Promise((r) => setTimeout(r, 1_500));
    const arrivedBy = lastChunkAt;
    const arrived = chunks.length;
    await enc.stop();
    // Only whole fragments that had arrived by `arrivedBy`.
    const units = new Fmp4Reader().push(Buffer.concat(chunks.slice(0, arrived)));
    const file = join(tmp.dir, 'live.mp4');
    writeFileSync(file, Buffer.concat(units.map((u) => u.bytes)));
    const frames = (await probeFile(file)).packets;
    expect(frames).toBeGreaterThan(5);
    const code = decodeCaptureCode(await grayFrame(file, frames - 1), 320, 180);
    expect(code).toBeDefined();
    expect(code).toBeGreaterThan(spawnedAt);
    expect(code).toBeLessThanOrEqual(arrivedBy);
  });
});
