import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Fmp4Splitter, type InitSegment, type MediaFragment } from '@ship-cctv/media';

const run = promisify(execFile);

/** A second of fragmented MP4 video as an agent sends it up: its init segment and one fragment per picture. */
export interface Clip {
  init: InitSegment;
  fragments: MediaFragment[];
}

const ENCODERS = {
  hevc: ['-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=none:bframes=0', '-tag:v', 'hvc1'],
  h264: ['-c:v', 'libx264', '-preset', 'ultrafast'],
  av1: ['-c:v', 'libsvtav1', '-preset', '12'],
} as const;

/** A second of 320×180 test picture at 5 fps: a camera's H.265 as hvc1, H.264, or AV1 (ffmpeg with libsvtav1). */
export async function codecClip(codec: keyof typeof ENCODERS): Promise<Clip> {
  const dir = await mkdtemp(join(tmpdir(), 'codec-clip-'));
  try {
    const file = join(dir, `${codec}.mp4`);
    await run('ffmpeg', [
      '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=5', '-t', '1',
      ...ENCODERS[codec], '-pix_fmt', 'yuv420p', '-g', '5',
      '-movflags', '+frag_every_frame+empty_moov+default_base_moof', '-f', 'mp4', file,
    ], { env: { ...process.env, SVT_LOG: '1' } });
    const units = new Fmp4Splitter().push(new Uint8Array(await readFile(file)));
    const init = units.find((u) => u.kind === 'init');
    if (init?.kind !== 'init') throw new Error('no init segment');
    return { init, fragments: units.filter((u): u is MediaFragment => u.kind === 'fragment') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
