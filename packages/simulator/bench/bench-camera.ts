/**
 * The benchmarks' real RTSP camera: the synthetic camera's capture-coded picture (the agent's own
 * lavfi graph, a clock drawn into every frame) encoded by ffmpeg's x264 in two slices a picture,
 * like many IP cameras, and served by scripts/rtsp-camera.py (Debian's GStreamer RTSP server).
 * live-rig.ts gives each ship one with `--camera=rtsp`; camera-chain.bench.ts measures what the
 * chain itself adds.
 *
 * `feed` is how the encoder hands its pictures to the server (rtsp-camera.py --stdin=FORMAT):
 * - `flv` (default): one FLV tag per picture, written the moment it is encoded; the camera script
 *   reads them from the start (the encoder never waits for a viewer) and pushes each picture whole
 *   into the server's live pipeline, which sends it at once: 7–9 ms from capture to the agent's
 *   camera session (camera-chain.bench.ts).
 * - `h264`: an H.264 Annex B byte stream, the way it was fed before: the encoder blocked until the
 *   first client, the server then sent the backlog at the camera's pace, and h264parse held every
 *   picture until the next one began (0.1 s to seconds late; kept for before/after figures).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { EncodeSpec } from '@ship-cctv/protocol';
import { FMP4_OUTPUT_ARGS } from '../../../apps/agent/src/media/ffmpeg-args.ts';
import { syntheticCameraArgs } from '../src/camera/synthetic-picture.ts';
import { fontsFor } from '../src/camera/fonts.ts';

export type CameraFeed = 'flv' | 'h264';
export const CAMERA_FEEDS: readonly CameraFeed[] = ['flv', 'h264'];

export interface BenchCameraOptions {
  name: string;
  port: number;
  encode?: EncodeSpec;
  feed?: CameraFeed;
  /** Every chunk the encoder writes, as it is read from its stdout (before the server gets it). */
  onEncoderBytes?: (chunk: Buffer, atEpochMs: number) => void;
}

export interface BenchCamera {
  url: string;
  procs: ChildProcess[];
  ready: Promise<void>;
  stop(): void;
}

export const BENCH_CAMERA_ENCODE: EncodeSpec = { width: 640, height: 360, frameRate: 10, bitrateKbps: 350, codec: 'h264' };

const SCRIPT = join(import.meta.dirname, '../../../scripts/rtsp-camera.py');

/** ffmpeg's output options for a feed: each picture written and flushed as soon as it is encoded. */
function feedOutputArgs(feed: CameraFeed): string[] {
  if (feed === 'flv') return ['-f', 'flv', '-flvflags', 'no_duration_filesize', '-flush_packets', '1', 'pipe:1'];
  // Annex B for h264parse: the parameter sets (global header) repeated before each keyframe.
  return ['-bsf:v', 'dump_extra=freq=keyframe', '-f', 'h264', '-flush_packets', '1', 'pipe:1'];
}

export function startBenchCamera(opts: BenchCameraOptions): BenchCamera {
  const feed = opts.feed ?? 'flv';
  const encode = opts.encode ?? BENCH_CAMERA_ENCODE;
  const args = syntheticCameraArgs({ cameraName: opts.name, encode, realtime: true, ...fontsFor(opts.name) }).slice(0, -FMP4_OUTPUT_ARGS.length);
  const encoder = spawn('ffmpeg', [...args, '-x264-params', 'slices=2', ...feedOutputArgs(feed)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const server = spawn('/usr/bin/python3', [SCRIPT, '--port', String(opts.port), `--stdin=${feed}`], { stdio: ['pipe', 'pipe', 'ignore'] });
  server.stdin.on('error', () => undefined);
  const tap = opts.onEncoderBytes;
  if (tap) encoder.stdout.on('data', (chunk: Buffer) => tap(chunk, performance.timeOrigin + performance.now()));
  encoder.stdout.pipe(server.stdin);
  const ready = new Promise<void>((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('ready ')) resolve();
    });
    server.once('exit', (code) => reject(new Error(`RTSP camera on port ${opts.port} exited with ${code}`)));
  });
  ready.catch(() => undefined);
  return {
    url: `rtsp://127.0.0.1:${opts.port}/cam`,
    procs: [encoder, server],
    ready,
    stop() {
      encoder.kill('SIGTERM');
      server.kill('SIGTERM');
    },
  };
}
