/**
 * The camera session's clock: a camera's timestamps that stall (ffmpeg holds a backwards stamp
 * at the last one it wrote), jump ahead or come from a restarted reader become one continuous
 * clock with each jump flagged once — never pictures one tick apart. The camera's reader here is
 * a stand-in for ffmpeg that writes a prepared FLV stream.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CameraSession, type SessionPicture } from '../../../../apps/agent/src/media/camera-session.ts';
import { syntheticCameraArgs } from '../../src/camera/synthetic-picture.ts';
import { FlvReader } from '../../../../apps/agent/src/media/flv.ts';
import { flvConfigTag, flvHeader, flvPictureTag } from '../../../../apps/agent/src/media/flv-writer.ts';
import { ffmpegToFile, spec, tempDir } from '../../../../apps/agent/test/media/helpers.ts';

const tmp = tempDir('camera-clock-');
let fakeFfmpeg: string;

/** Camera stamps in ms for 60 pictures: steady, stalled at 1900 for 5, steady, then 10 s ahead. */
const STAMPS = [
  ...Array.from({ length: 20 }, (_, i) => i * 100),
  ...Array.from({ length: 5 }, () => 1900),
  ...Array.from({ length: 15 }, (_, i) => 2000 + i * 100),
  ...Array.from({ length: 20 }, (_, i) => 13_500 + i * 100),
];

beforeAll(async () => {
  const encode = spec(160, 120, 10, 200);
  const source = readFileSync(
    await ffmpegToFile(syntheticCameraArgs({ cameraName: 'Deck', encode, startEpochMs: 0, realtime: false, durationSeconds: 6, output: 'flv' }), join(tmp.dir, 'camera.flv')),
  );
  const items = new FlvReader().push(source);
  const config = items.find((i) => i.kind === 'config');
  const frames = items.flatMap((i) => (i.kind === 'frame' ? [i] : []));
  if (!config || config.kind !== 'config' || frames.length < STAMPS.length) throw new Error('no camera stream');
  const parts = [flvHeader(), flvConfigTag(config.record)];
  STAMPS.forEach((ms, n) => parts.push(flvPictureTag({ ...(frames[n] as (typeof frames)[number]), timestampMs: ms })));
  const flv = join(tmp.dir, 'stamped.flv');
  writeFileSync(flv, Buffer.concat(parts));
  fakeFfmpeg = join(tmp.dir, 'fake-ffmpeg');
  writeFileSync(fakeFfmpeg, `#!/bin/sh\ncat '${flv}'\nexec sleep 30\n`);
  chmodSync(fakeFfmpeg, 0o755);
});
afterAll(() => tmp.remove());

describe('CameraSession’s clock', () => {
  it('makes stalled and jumping camera stamps one continuous clock, each jump flagged once', async () => {
    const session = new CameraSession('rtsp://camera.invalid/stream', { reader: 'ffmpeg', ffmpegCommand: fakeFfmpeg, lingerMs: 0 });
    const pictures: SessionPicture[] = [];
    session.subscribe((e) => {
      if (e.kind === 'picture') pictures.push(e.picture);
    });
    try {
      // Single-slice pictures: each is whole the moment it comes (the slice count is learned).
      await expect.poll(() => pictures.length, { timeout: 10_000 }).toBe(STAMPS.length);
      const steps = pictures.slice(1).map((p, i) => p.timestampMs - (pictures[i] as SessionPicture).timestampMs);
      expect(Math.min(...steps)).toBeGreaterThanOrEqual(99);
      expect(Math.max(...steps)).toBeLessThanOrEqual(101);
      // Flagged: the first picture, the first stalled one, the one 10 s ahead — nothing else.
      expect(pictures.flatMap((p, i) => (p.discontinuity ? [i] : []))).toEqual([0, 20, 40]);
      expect(session.health()).toMatchObject({ online: true, runs: 1, discontinuities: 2 });
      expect(session.info()).toMatchObject({ codec: 'h264', width: 160, height: 120, frameRate: 10 });
    } finally {
      await session.stop();
    }
  });

  it('hands a consumer that joins late the sequence header and the GOP from its keyframe', async () => {
    const session = new CameraSession('rtsp://camera.invalid/stream', { reader: 'ffmpeg', ffmpegCommand: fakeFfmpeg, lingerMs: 0 });
    const first: SessionPicture[] = [];
    session.subscribe((e) => e.kind === 'picture' && first.push(e.picture));
    try {
      await expect.poll(() => first.length, { timeout: 10_000 }).toBe(STAMPS.length);
      const late: string[] = [];
      session.subscribe((e) => late.push(e.kind === 'picture' ? (e.picture.keyframe ? 'K' : 'P') : e.kind));
      const lastKey = first.map((p) => p.keyframe).lastIndexOf(true);
      expect(late).toEqual(['config', 'K', ...Array<string>(first.length - 1 - lastKey).fill('P')]);
    } finally {
      await session.stop();
    }
  });
});

describe('CameraSession’s FLV for a live viewer that joins late', () => {
  it('squeezes the GOP handed over at once to 1 ms apart, then goes on one frame later on the camera’s clock', async () => {
    const session = new CameraSession('rtsp://camera.invalid/stream', { reader: 'ffmpeg', ffmpegCommand: fakeFfmpeg, lingerMs: 0 });
    let count = 0;
    session.subscribe((e) => {
      if (e.kind === 'picture') count += 1;
    });
    try {
      // All 60 pictures in (a keyframe every 10): the GOP so far is pictures 50–59.
      await expect.poll(() => count, { timeout: 10_000 }).toBe(STAMPS.length);
      const chunks: Buffer[] = [];
      session.subscribeStream((c) => chunks.push(c), undefined, { squeezeReplay: true })();
      const stamps = new FlvReader().push(Buffer.concat(chunks)).flatMap((i) => (i.kind === 'frame' ? [i.timestampMs] : []));
      // The GOP from its keyframe (picture 50): ten pictures, 1 ms apart but the last, a frame after.
      expect(stamps).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 108]);
    } finally {
      await session.stop();
    }
  });
});
