import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AgentStreamMessage, decodeStreamFrame } from '@ship-cctv/protocol';
import { type CameraConfig, CameraSources, type LiveLink, LiveStreams } from '@ship-cctv/agent';
import { run, spec, tempDir } from '../../../../apps/agent/test/media/helpers.ts';
import { fontsFor } from '../../src/camera/fonts.ts';
import { SyntheticCamera, shootSynthetic, syntheticCameras } from '../../src/camera/synthetic-camera.ts';

/** Every payload a stream sent, with when it arrived (a fragment is one frame). */
class RecordingLink implements LiveLink {
  readonly payloads = new Map<number, { at: number; bytes: Uint8Array }[]>();
  sendJson(_msg: AgentStreamMessage): void {}
  sendBinary(frame: Uint8Array): void {
    const d = decodeStreamFrame(frame);
    if (!d) return;
    const list = this.payloads.get(d.streamId) ?? [];
    list.push({ at: Date.now(), bytes: d.payload });
    this.payloads.set(d.streamId, list);
  }
  bufferedAmount(): number {
    return 0;
  }
  count(streamId: number): number {
    return this.payloads.get(streamId)?.length ?? 0;
  }
}

const CAMERAS: CameraConfig[] = [{ cameraId: 'S1-C01-1', source: 'synthetic', name: 'Bridge', ptz: {} }];
const tmp = tempDir('ptz-live-');
afterAll(() => tmp.remove());

/** The stream's frames decoded to grey pixels (index 0 = the first fragment). */
async function decode(link: RecordingLink, streamId: number, width: number, height: number): Promise<Uint8Array[]> {
  const file = join(tmp.dir, `stream-${streamId}.mp4`);
  writeFileSync(file, Buffer.concat((link.payloads.get(streamId) ?? []).map((p) => p.bytes)));
  const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'], { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 });
  const frames: Uint8Array[] = [];
  for (let at = 0; at + width * height <= stdout.length; at += width * height) frames.push(new Uint8Array(stdout.subarray(at, at + width * height)));
  return frames;
}

/** Mean absolute difference of two grey frames below the burned-in name and clock, above the capture code. */
function sceneDiff(a: Uint8Array, b: Uint8Array, width: number, height: number): number {
  let sum = 0;
  let n = 0;
  for (let y = Math.round(height * 0.3); y < Math.round(height * 0.8); y++) {
    for (let x = 0; x < width; x++) {
      sum += Math.abs((a[y * width + x] ?? 0) - (b[y * width + x] ?? 0));
      n++;
    }
  }
  return sum / n;
}

describe('the synthetic PTZ camera, live', () => {
  it('every running stream (two definitions) follows a move without a restart; a picture shows the window of its moment', async () => {
    const sources = new CameraSources(CAMERAS, { kinds: [syntheticCameras()] });
    const camera = sources.get('S1-C01-1');
    if (!(camera instanceof SyntheticCamera) || !camera.ptz) throw new Error('not a synthetic PTZ camera');
    const ptz = camera.ptz;
    const streams = new LiveStreams(sources);
    const link = new RecordingLink();
    streams.attach(link);
    const small = spec(320, 180, 10, 300);
    const large = spec(640, 360, 10, 600);
    streams.handle({ type: 'live.start', streamId: 1, cameraId: 'S1-C01-1', encode: small });
    streams.handle({ type: 'live.start', streamId: 2, cameraId: 'S1-C01-1', encode: large });
    await expect.poll(() => Math.min(link.count(1), link.count(2)), { timeout: 20_000 }).toBeGreaterThan(25);

    const still = await shootSynthetic('Bridge', Date.now(), { width: 320, height: 180 }, fontsFor('Bridge'), ptz.stillStage(320, 180));
    const moveAt = Date.now();
    await ptz.move(1, 0.6, 0, 1_200);
    await new Promise((r) => setTimeout(r, 2_500));
    const moved = await shootSynthetic('Bridge', Date.now(), { width: 320, height: 180 }, fontsFor('Bridge'), ptz.stillStage(320, 180));
    await streams.stopAll();

    for (const [id, encode] of [[1, small], [2, large]] as const) {
      const frames = await decode(link, id, encode.width, encode.height);
      const times = (link.payloads.get(id) ?? []).slice(1).map((p) => p.at);
      expect(frames.length).toBe(times.length);
      const before = times.findLastIndex((t) => t < moveAt);
      const after = times.length - 1;
      // Standing still a second before the move: only the small moving square differs.
      const idle = sceneDiff(frames[before - 10] ?? new Uint8Array(), frames[before] ?? new Uint8Array(), encode.width, encode.height);
      const panned = sceneDiff(frames[before] ?? new Uint8Array(), frames[after] ?? new Uint8Array(), encode.width, encode.height);
      expect(panned, `stream ${id}: idle ${idle.toFixed(1)}, after the move ${panned.toFixed(1)}`).toBeGreaterThan(Math.max(8, idle * 4));
    }
    expect(still.jpeg.equals(moved.jpeg)).toBe(false);
    expect(ptz.position()).toMatchObject({ x: expect.closeTo(0.74, 2), zoom: 1 });
    ptz.close();
  }, 60_000);
});
