/**
 * Helpers for the agent's media tests: running a builder's command to a file, ffprobe's view of
 * the result, top-level MP4 boxes, one frame as grayscale pixels, and whether a process is gone.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { EncodeSpec } from '@ship-cctv/protocol';

export const run = promisify(execFile);

export const spec = (width: number, height: number, frameRate: number, bitrateKbps: number): EncodeSpec => ({
  width,
  height,
  frameRate,
  bitrateKbps,
  codec: 'h264',
});

export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs ffmpeg with builder args (which end in pipe:1) and writes stdout to `file`. */
export async function ffmpegToFile(args: readonly string[], file: string): Promise<string> {
  const { stdout } = await run('ffmpeg', [...args], { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 });
  writeFileSync(file, stdout);
  return file;
}

export interface ProbedVideo {
  codec: string;
  profile: string;
  width: number;
  height: number;
  frameRate: string;
  /** Frame index of every packet that is a keyframe. */
  keyframes: number[];
  packets: number;
}

export async function probeFile(file: string): Promise<ProbedVideo> {
  const { stdout } = await run('ffprobe', [
    '-v', 'error', '-select_streams', 'v:0',
    '-show_entries', 'stream=codec_name,profile,width,height,r_frame_rate:packet=flags',
    '-of', 'json', file,
  ]);
  const parsed = JSON.parse(stdout) as { streams: Record<string, string | number>[]; packets: { flags: string }[] };
  const s = parsed.streams[0];
  if (!s) throw new Error(`no video stream in ${file}`);
  return {
    codec: String(s.codec_name),
    profile: String(s.profile),
    width: Number(s.width),
    height: Number(s.height),
    frameRate: String(s.r_frame_rate),
    keyframes: parsed.packets.flatMap((p, i) => (p.flags.startsWith('K') ? [i] : [])),
    packets: parsed.packets.length,
  };
}

/** Top-level box types of an MP4 file, in order. */
export function topLevelBoxes(bytes: Uint8Array): string[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const types: string[] = [];
  let off = 0;
  while (off + 8 <= buf.length) {
    const size = buf.readUInt32BE(off);
    types.push(buf.toString('latin1', off + 4, off + 8));
    if (size < 8) break;
    off += size;
  }
  return types;
}

/** Frame `index` of a video file as 8-bit grayscale (luma) pixels. */
export async function grayFrame(file: string, index: number): Promise<Uint8Array> {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-vf', `select=eq(n\\,${index})`, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return new Uint8Array(stdout);
}

/** Makes a small H.264 High (or H.265 Main) test clip with ffmpeg's test pattern. */
export async function makeClip(file: string, o: { width: number; height: number; rate: number; seconds: number; codec?: 'libx264' | 'libx265' }): Promise<string> {
  await run('ffmpeg', [
    '-v', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc2=size=${o.width}x${o.height}:rate=${o.rate}`,
    '-t', String(o.seconds),
    // veryfast, not ultrafast: ultrafast's stream is Constrained Baseline whatever the profile, and
    // the copy test tells a copied stream from a re-encoded one by its High profile.
    '-c:v', o.codec ?? 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p',
    ...(o.codec === 'libx265' ? ['-x265-params', 'log-level=error'] : []),
    file,
  ]);
  return file;
}

/** True once no process (not even a zombie) has this pid. */
export function processGone(pid: number): boolean {
  if (!existsSync(`/proc/${pid}`)) return true;
  try {
    // A zombie still has a /proc entry with state Z; it would count as left behind.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('X');
  } catch {
    return true;
  }
}
