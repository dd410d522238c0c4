import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeCaptureCode } from '@ship-cctv/protocol';
import { findFont, fitsTemplate, h264Output, syntheticCameraArgs, urlCameraArgs } from '../../src/streams/ffmpeg-args.ts';

const sd = { width: 640, height: 360, frameRate: 10, bitrateKbps: 400, codec: 'h264' as const };
const dir = mkdtempSync(join(tmpdir(), 'ffmpeg-args-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ffmpeg command lines', () => {
  it('encodes baseline H.264 into fragmented MP4 with a one-second GOP and a global header', () => {
    expect(h264Output(sd)).toEqual([
      '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-profile:v', 'baseline', '-pix_fmt', 'yuv420p',
      '-g', '10', '-keyint_min', '10', '-sc_threshold', '0', '-b:v', '400k', '-maxrate', '400k', '-bufsize', '800k',
      '-flags:v', '+global_header', '-an', '-f', 'mp4', '-movflags', '+frag_every_frame+empty_moov+default_base_moof', 'pipe:1',
    ]);
  });

  it('copies a camera that already fits the definition, over TCP for RTSP', () => {
    const args = urlCameraArgs({ url: 'rtsp://10.0.0.5/s1', encode: sd, probe: { codec: 'h264', width: 640, height: 360, frameRate: 10 } });
    expect(args).toEqual([
      '-hide_banner', '-nostdin', '-loglevel', 'error', '-fflags', 'nobuffer', '-flags', 'low_delay', '-rtsp_transport', 'tcp',
      '-i', 'rtsp://10.0.0.5/s1', '-map', '0:v:0', '-c:v', 'copy', '-an', '-f', 'mp4', '-movflags', '+frag_every_frame+empty_moov+default_base_moof', 'pipe:1',
    ]);
  });

  it('transcodes H.265, a different size, a higher frame rate, or an unknown stream', () => {
    for (const probe of [
      { codec: 'hevc', width: 640, height: 360, frameRate: 10 },
      { codec: 'h264', width: 1920, height: 1080, frameRate: 10 },
      { codec: 'h264', width: 640, height: 360, frameRate: 25 },
      undefined,
    ]) {
      expect(fitsTemplate(probe, sd)).toBe(false);
      const args = urlCameraArgs({ url: 'udp://239.0.0.1:5000', encode: sd, probe });
      expect(args).toContain('libx264');
      expect(args[args.indexOf('-vf') + 1]).toBe('scale=640:360:force_original_aspect_ratio=decrease,pad=640:360:(ow-iw)/2:(oh-ih)/2,fps=10');
      expect(args).not.toContain('-rtsp_transport');
    }
  });

  it('renders the synthetic camera as a function of absolute time, with a capture code that decodes to that time', () => {
    const start = Date.UTC(2026, 10, 21, 6, 0, 0);
    const args = syntheticCameraArgs({ cameraName: 'Bridge', encode: sd, startEpochMs: start, fontFile: findFont(), realtime: false, durationSeconds: 2 });
    expect(args).not.toContain('-re');
    const file = join(dir, 'syn.mp4');
    writeFileSync(file, execFileSync('ffmpeg', args, { maxBuffer: 64 * 1024 * 1024 }));
    const probe = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,profile,width,height', '-of', 'csv=p=0', file]).toString().trim();
    expect(probe).toBe('h264,Constrained Baseline,640,360');
    // The frame at 1.0 s carries start + 1000 ms in its code.
    const gray = execFileSync('ffmpeg', ['-v', 'error', '-ss', '1.0', '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1']);
    const decoded = decodeCaptureCode(gray, 640, 360, { channels: 1 });
    expect(decoded).toBeDefined();
    expect(Math.abs((decoded ?? 0) - (start + 1000))).toBeLessThanOrEqual(100);
    // Another start time renders another picture: the code follows absolute time.
    const later = syntheticCameraArgs({ cameraName: 'Bridge', encode: sd, startEpochMs: start + 3_600_000, realtime: false, durationSeconds: 1 });
    const frame = execFileSync('ffmpeg', [...later.slice(0, later.indexOf('-c:v')), '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1']);
    expect(decodeCaptureCode(frame, 640, 360, { channels: 1 })).toBe(start + 3_600_000);
  });
});
