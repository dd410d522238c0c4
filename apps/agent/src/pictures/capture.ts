import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CameraSession } from '../media/camera-session.ts';
import { FFMPEG_GLOBAL_ARGS, cameraInputArgs, sessionInputOptions } from '../media/ffmpeg-args.ts';
import { filter } from '../media/filtergraph.ts';

/** A picture as taken: JPEG, its thumbnail (JPEG, THUMB_WIDTH wide) and its size. */
export interface Shot {
  jpeg: Buffer;
  thumb: Buffer;
  width: number;
  height: number;
}

/** The box a picture is fitted into (the aspect ratio is kept). */
export interface ShotSize {
  width: number;
  height: number;
}

/** Thumbnails are this wide: a list of 24 costs a few kB each over the link. */
export const THUMB_WIDTH = 160;
/**
 * ffmpeg's JPEG quantiser (2 best … 31 worst). 5 keeps a 1280×720 picture near 100 kB with the
 * burned-in text sharp; the thumbnail is only a preview.
 */
const PICTURE_QSCALE = 5;
const THUMB_QSCALE = 10;
const STILL_TIMEOUT_MS = 20_000;

export class ShotError extends Error {
  constructor(
    readonly code: 'cameraOffline' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

/**
 * The two outputs of one ffmpeg run: the picture fitted into `size` (never enlarged: a smaller
 * camera's picture keeps its own size) and its thumbnail. With
 * `lastFrame`, every decoded frame overwrites the files (`-update 1`), so what is left is the last
 * one — for input that is a GOP ending at the moment wanted.
 */
function stillOutputArgs(dir: string, size: ShotSize, lastFrame: boolean): string[] {
  const graph =
    `[0:v]${filter('scale', { w: `min(${size.width},iw)`, h: `min(${size.height},ih)`, force_original_aspect_ratio: 'decrease', force_divisible_by: 2 })},` +
    `${filter('format', { pix_fmts: 'yuvj420p' })},split=2[full][t];[t]${filter('scale', { w: THUMB_WIDTH, h: -2 })}[thumb]`;
  const one = lastFrame ? [] : ['-frames:v', '1'];
  return [
    '-filter_complex', graph,
    '-map', '[full]', ...one, '-c:v', 'mjpeg', '-q:v', String(PICTURE_QSCALE), '-f', 'image2', '-update', '1', join(dir, 'picture.jpg'),
    '-map', '[thumb]', ...one, '-c:v', 'mjpeg', '-q:v', String(THUMB_QSCALE), '-f', 'image2', '-update', '1', join(dir, 'thumb.jpg'),
  ];
}

/**
 * A picture of whatever ffmpeg reads with `input` (its input options and `-i …`): its first frame,
 * or with `lastFrame` its last; `feed` writes its stdin when given.
 */
export function shootInput(input: string[], size: ShotSize, opts: { lastFrame?: boolean; feed?: (stdin: NodeJS.WritableStream) => void; ffmpeg?: string } = {}): Promise<Shot> {
  const dir = mkdtempSync(join(tmpdir(), 'ship-picture-'));
  const args = [...FFMPEG_GLOBAL_ARGS, '-y', ...input, ...stillOutputArgs(dir, size, opts.lastFrame ?? false)];
  return new Promise<Shot>((resolve, reject) => {
    const child = spawn(opts.ffmpeg ?? 'ffmpeg', args, { stdio: [opts.feed ? 'pipe' : 'ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), STILL_TIMEOUT_MS);
    child.on('error', (err) => {
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
      reject(new ShotError('failed', `ffmpeg could not start: ${err.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      try {
        const jpeg = readFileSync(join(dir, 'picture.jpg'));
        const thumb = readFileSync(join(dir, 'thumb.jpg'));
        const dims = jpegSize(jpeg);
        if (!dims) throw new Error('not a JPEG');
        resolve({ jpeg, thumb, ...dims });
      } catch {
        const why = signal ? `stopped after ${STILL_TIMEOUT_MS / 1000} s` : `exit ${code ?? '?'}`;
        reject(new ShotError('failed', `no picture came out of ffmpeg (${why}): ${stderr.trim() || 'no message'}`));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
    if (opts.feed && child.stdin) {
      child.stdin.on('error', () => undefined);
      opts.feed(child.stdin);
    }
  });
}

/** The frame of a recording at `offsetSec` into its file. */
export function shootRecording(file: string, offsetSec: number, size: ShotSize): Promise<Shot> {
  return shootInput(['-ss', Math.max(0, offsetSec).toFixed(3), '-i', file], size);
}

/** One frame read from a camera URL by its own connection (a camera the session cannot carry). */
export function shootUrl(url: string, size: ShotSize): Promise<Shot> {
  const input = cameraInputArgs(url).filter((a) => a !== '-re' && a !== '-stream_loop' && a !== '-1');
  return shootInput([...input, '-i', url], size);
}

/**
 * A URL camera's picture from its running session (no second connection to the camera): the
 * session's GOP up to now is decoded and its last frame kept — the picture of this instant. A
 * session without a picture yet is waited for up to `waitMs`.
 */
export function shootSession(session: CameraSession, size: ShotSize, waitMs = 10_000): Promise<Shot> {
  return new Promise<Shot>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let pictures = 0;
    let done = false;
    // Set once subscribe() returns: events during subscribe() are the GOP handed over.
    const sub: { off: (() => void) | undefined } = { off: undefined };
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sub.off?.();
      if (pictures === 0) return reject(new ShotError('cameraOffline', `the camera sent no picture within ${waitMs / 1000} s`));
      const flv = Buffer.concat(chunks);
      shootInput([...sessionInputOptions(session.container), '-i', 'pipe:0'], size, { lastFrame: true, feed: (stdin) => stdin.end(flv) }).then(resolve, reject);
    };
    const timer = setTimeout(finish, waitMs);
    sub.off = session.subscribeStream(
      (chunk) => chunks.push(chunk),
      (e) => {
        // FLV starts at a keyframe: pictures before the first one are not written.
        if (e.kind !== 'picture' || (pictures === 0 && !e.picture.keyframe)) return;
        pictures++;
        // The GOP handed over at subscribe is the picture so far; without one, the first keyframe is it.
        if (sub.off && !done) queueMicrotask(finish);
      },
    );
    // subscribe() handed the GOP over synchronously: that is the picture of this instant.
    if (pictures > 0) finish();
  });
}

/** Width and height from a JPEG's start-of-frame marker; undefined when it is not a JPEG. */
export function jpegSize(jpeg: Uint8Array): { width: number; height: number } | undefined {
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return undefined;
  let i = 2;
  while (i + 9 < jpeg.length) {
    if (jpeg[i] !== 0xff) return undefined;
    const marker = jpeg[i + 1] ?? 0;
    const length = ((jpeg[i + 2] ?? 0) << 8) | (jpeg[i + 3] ?? 0);
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const height = ((jpeg[i + 5] ?? 0) << 8) | (jpeg[i + 6] ?? 0);
      const width = ((jpeg[i + 7] ?? 0) << 8) | (jpeg[i + 8] ?? 0);
      return width > 0 && height > 0 ? { width, height } : undefined;
    }
    i += 2 + length;
  }
  return undefined;
}
