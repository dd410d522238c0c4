import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canCopy, urlCameraArgs } from '../../src/media/ffmpeg-args.ts';
import { parseProbeOutput, probeInput } from '../../src/media/probe.ts';
import { ffmpegToFile, makeClip, probeFile, spec, tempDir } from './helpers.ts';

const tmp = tempDir('url-camera-');
let h264: string;
let hevc: string;
beforeAll(async () => {
  [h264, hevc] = await Promise.all([
    makeClip(join(tmp.dir, 'cam-h264.mp4'), { width: 320, height: 180, rate: 10, seconds: 2 }),
    makeClip(join(tmp.dir, 'cam-hevc.mp4'), { width: 320, height: 180, rate: 10, seconds: 2, codec: 'libx265' }),
  ]);
});
afterAll(() => tmp.remove());

describe('a URL camera from a local file', () => {
  it('is probed for codec, size and rate', async () => {
    await expect(probeInput(h264)).resolves.toMatchObject({ codec: 'h264', width: 320, height: 180, frameRate: 10, pixFmt: 'yuv420p' });
    await expect(probeInput(hevc)).resolves.toMatchObject({ codec: 'hevc', width: 320, height: 180 });
    await expect(probeInput(join(tmp.dir, 'missing.mp4'))).rejects.toThrow(/No such file or directory/);
  });

  it('is copied untouched when it fits the template', async () => {
    const encode = spec(320, 180, 10, 400);
    const probe = await probeInput(h264);
    expect(canCopy(probe, encode)).toBe(true);
    const args = urlCameraArgs({ url: h264, encode, probe, durationSeconds: 1.5 });
    expect(args).toContain('copy');
    const out = await probeFile(await ffmpegToFile(args, join(tmp.dir, 'copied.mp4')));
    // The clip's own High profile survives: nothing was re-encoded.
    expect(out).toMatchObject({ codec: 'h264', profile: 'High', width: 320, height: 180 });
  });

  it('is transcoded into the template’s size when it does not fit', async () => {
    const encode = spec(640, 360, 10, 400);
    const probe = await probeInput(h264);
    const out = await probeFile(await ffmpegToFile(urlCameraArgs({ url: h264, encode, probe, durationSeconds: 1.5 }), join(tmp.dir, 'scaled.mp4')));
    expect(out).toMatchObject({ codec: 'h264', profile: 'Constrained Baseline', width: 640, height: 360, frameRate: '10/1' });
    expect(out.keyframes.slice(0, 2)).toEqual([0, 10]);
  });

  it('is always transcoded from H.265, even at the template’s size', async () => {
    const encode = spec(320, 180, 10, 400);
    const probe = await probeInput(hevc);
    const out = await probeFile(await ffmpegToFile(urlCameraArgs({ url: hevc, encode, probe, durationSeconds: 1.5 }), join(tmp.dir, 'from-hevc.mp4')));
    expect(out).toMatchObject({ codec: 'h264', profile: 'Constrained Baseline', width: 320, height: 180 });
  });
});

describe('parseProbeOutput', () => {
  it('takes the first video stream and ignores a timebase posing as a frame rate', () => {
    const json = JSON.stringify({
      streams: [
        { codec_type: 'audio', codec_name: 'aac' },
        { codec_type: 'video', codec_name: 'h264', width: 1920, height: 1080, avg_frame_rate: '0/0', r_frame_rate: '90000/1', pix_fmt: 'yuvj420p', bit_rate: '2048000' },
      ],
    });
    expect(parseProbeOutput(json)).toEqual({ codec: 'h264', width: 1920, height: 1080, pixFmt: 'yuvj420p', bitrateKbps: 2048 });
    expect(parseProbeOutput(JSON.stringify({ streams: [{ codec_type: 'video', codec_name: 'hevc', width: 640, height: 360, avg_frame_rate: '25/2' }] }))).toEqual({
      codec: 'hevc',
      width: 640,
      height: 360,
      frameRate: 12.5,
    });
    expect(parseProbeOutput('{"streams":[]}')).toBeUndefined();
    expect(parseProbeOutput('not json')).toBeUndefined();
  });
});
