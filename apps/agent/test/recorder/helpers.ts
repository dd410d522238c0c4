import { run } from '../media/helpers.ts';

/**
 * A "real camera" for recorder tests: an H.264 file with a keyframe every second (as IP cameras
 * send; if `gop` is given, exactly `gop` frames apart and without B-frames), which ffmpeg plays as
 * a looping live source (a file URL is opened like a camera).
 */
export async function makeCameraFile(file: string, o: { width?: number; height?: number; rate?: number; seconds?: number; gop?: number } = {}): Promise<string> {
  const rate = o.rate ?? 10;
  await run('ffmpeg', [
    '-v', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc2=size=${o.width ?? 320}x${o.height ?? 180}:rate=${rate}`,
    '-t', String(o.seconds ?? 4),
    '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-g', String(o.gop ?? rate), ...(o.gop !== undefined ? ['-keyint_min', String(o.gop), '-sc_threshold', '0', '-bf', '0'] : []),
    file,
  ]);
  return file;
}
