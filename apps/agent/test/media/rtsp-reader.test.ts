/**
 * The camera session's own RTSP reader against real cameras (scripts/rtsp-camera.py, GStreamer's
 * RTSP server): it gives the pictures the ffmpeg reader gives (same sequence header, same bytes per
 * picture, same steps between stamps), answers a camera's Digest challenge, reads H.265 into whole
 * decodable pictures (which the session shares as hvc1), and hands a camera it cannot read to
 * ffmpeg. Cameras that send B-frames: rtsp-bframes.test.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NAL_SPS, isSlice, nalType, splitNals } from '../../src/media/access-unit.ts';
import { CameraSession, type SessionPicture } from '../../src/media/camera-session.ts';
import type { AccessUnit } from '../../src/media/rtsp/depacketizer.ts';
import { openRtspStream } from '../../src/media/rtsp/stream.ts';
import { type RtspCamera, startRtspCamera } from '../helpers/rtsp-camera.ts';
import { run, tempDir } from './helpers.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

function collect(session: CameraSession) {
  const pictures: (SessionPicture & { at: number })[] = [];
  const configs: Buffer[] = [];
  const unsubscribe = session.subscribe((e) => {
    if (e.kind === 'config') configs.push(e.record);
    if (e.kind === 'picture') pictures.push({ ...e.picture, at: performance.now() });
  });
  return { pictures, configs, unsubscribe };
}

describe('the rtsp reader and the ffmpeg reader on one multi-slice camera', () => {
  let camera: RtspCamera;
  const sessions: CameraSession[] = [];
  beforeAll(async () => {
    camera = await startRtspCamera({ port: 18562, slices: 2, width: 320, height: 240, fps: 10 });
  });
  afterAll(async () => {
    await Promise.all(sessions.map((s) => s.stop()));
    await camera?.stop();
  });

  it('give the same sequence header and the same pictures, the rtsp reader without ffmpeg', async () => {
    const rtsp = new CameraSession(camera.url, { reader: 'rtsp', lingerMs: 0 });
    const ffmpeg = new CameraSession(camera.url, { reader: 'ffmpeg', lingerMs: 0 });
    sessions.push(rtsp, ffmpeg);
    const a = collect(rtsp);
    const b = collect(ffmpeg);
    // The GStreamer camera restamps every client when another starts playing: compare after both run.
    await expect.poll(() => a.pictures.length > 0 && b.pictures.length > 0, { timeout: 10_000 }).toBe(true);
    await wait(1_000);
    const [fromA, fromB] = [a.pictures.length, b.pictures.length];
    await wait(3_000);
    const ours = a.pictures.slice(fromA);
    // ffmpeg hands a picture over later than our reader (its own buffering, more under load): wait
    // until it has handed over the last picture of the window before comparing.
    const last = ours.at(-1)?.data.toString('base64');
    await expect.poll(() => b.pictures.slice(fromB).some((p) => p.data.toString('base64') === last), { timeout: 10_000 }).toBe(true);
    const theirs = b.pictures.slice(fromB);
    expect(rtsp.health()).toMatchObject({ reader: 'rtsp', online: true, runs: 1, fallback: undefined });
    expect(ffmpeg.health()).toMatchObject({ reader: 'ffmpeg', online: true, runs: 1 });
    expect(a.configs.at(-1)?.toString('hex')).toBe(b.configs.at(-1)?.toString('hex'));

    // The same camera pictures, byte for byte, from both readers.
    const byBytes = new Map(theirs.map((p) => [p.data.toString('base64'), p]));
    const common = ours.filter((p) => byBytes.has(p.data.toString('base64')));
    expect(ours.length).toBeGreaterThanOrEqual(25);
    expect(common.length).toBeGreaterThanOrEqual(ours.length - 3);
    for (const p of common) {
      const q = byBytes.get(p.data.toString('base64')) as SessionPicture;
      expect(p.keyframe).toBe(q.keyframe);
      expect(p.compositionMs).toBe(q.compositionMs);
      // One picture: both slices in it.
      expect(splitNals(p.data).filter(isSlice)).toHaveLength(2);
    }
    // On the same clock: the steps between pictures are the same.
    const steps = (list: SessionPicture[]) => list.slice(1).map((p, i) => p.timestampMs - (list[i] as SessionPicture).timestampMs);
    const theirsCommon = common.map((p) => byBytes.get(p.data.toString('base64')) as SessionPicture);
    expect(steps(common)).toEqual(steps(theirsCommon));
    expect(common.some((p) => p.keyframe && splitNals(p.data).some((n) => nalType(n) === NAL_SPS))).toBe(true);

    // What the marker bit saves, for the record (figures belong to the benchmark, not to this test).
    const ahead = common.map((p) => ((byBytes.get(p.data.toString('base64')) as SessionPicture & { at: number }).at - p.at)).sort((x, y) => x - y);
    console.log(`rtsp reader ahead of ffmpeg per picture: median ${ahead[Math.floor(ahead.length / 2)]?.toFixed(1)} ms over ${ahead.length} pictures`);
  });

  it("learns from the camera's RTCP sender reports when it captured each picture, and so the camera's own delay", async () => {
    const session = new CameraSession(camera.url, { reader: 'rtsp', lingerMs: 0 });
    sessions.push(session);
    const { pictures } = collect(session);
    expect(session.cameraDelayMs()).toBe(0);
    // GStreamer's RTSP server sends its first report a few seconds into the session.
    await expect.poll(() => session.cameraDelayMs(), { timeout: 20_000 }).toBeGreaterThan(0);
    const stamped = pictures.filter((p) => p.capturedAt !== undefined);
    expect(stamped.length).toBeGreaterThanOrEqual(5);
    // Captured before it arrived, less than a second before (the camera and the ship share this clock).
    for (const p of stamped) {
      expect(p.capturedAt as number).toBeLessThanOrEqual(p.arrivedAt);
      expect(p.arrivedAt - (p.capturedAt as number)).toBeLessThan(1_000);
    }
    // Pictures 100 ms apart by the camera's clock, as by their stamps.
    const steps = stamped.slice(1).map((p, i) => (p.capturedAt as number) - ((stamped[i] as SessionPicture).capturedAt as number));
    for (const step of steps) expect(step).toBeCloseTo(100, 0);
    console.log(`the camera's own delay (capture → the ship's reader): ${session.cameraDelayMs()} ms`);
  });
});

describe('a camera that asks for credentials (Digest)', () => {
  let camera: RtspCamera;
  const sessions: CameraSession[] = [];
  beforeAll(async () => {
    camera = await startRtspCamera({ port: 18563, user: 'operator', password: 'deck 7/aft', width: 160, height: 120, fps: 10 });
  });
  afterAll(async () => {
    await Promise.all(sessions.map((s) => s.stop()));
    await camera?.stop();
  });

  it('is read with the credentials of its URL', async () => {
    const session = new CameraSession(camera.url, { reader: 'rtsp', lingerMs: 0 });
    sessions.push(session);
    const seen = collect(session);
    await expect.poll(() => seen.pictures.length, { timeout: 10_000 }).toBeGreaterThan(5);
    expect(seen.pictures[0]?.keyframe).toBe(true);
    expect(session.health()).toMatchObject({ reader: 'rtsp', online: true, fallback: undefined });
  });

  it('says the camera refused a wrong password, and does not hand it to ffmpeg', async () => {
    const session = new CameraSession(camera.url.replace('deck%207%2Faft', 'wrong'), { reader: 'rtsp', lingerMs: 0, minRetryMs: 10_000 });
    sessions.push(session);
    const seen = collect(session);
    await expect.poll(() => session.health().lastError, { timeout: 10_000 }).toMatch(/refused the credentials \(DESCRIBE: 401/);
    expect(session.health()).toMatchObject({ reader: 'rtsp', fallback: undefined, pictures: 0 });
    expect(seen.pictures).toEqual([]);
  });
});

describe('an H.265 camera', () => {
  const tmp = tempDir('rtsp-h265-');
  let camera: RtspCamera;
  beforeAll(async () => {
    camera = await startRtspCamera({ port: 18564, codec: 'h265', slices: 2, width: 320, height: 240, fps: 10 });
  });
  afterAll(async () => {
    await camera?.stop();
    tmp.remove();
  });

  it('is read by the RTSP client into whole pictures that decode cleanly', async () => {
    const units: AccessUnit[] = [];
    let ended: string | undefined;
    const stream = openRtspStream(camera.url, { onAccessUnit: (au) => units.push(au), onEnd: (e) => (ended = e.reason) });
    await wait(3_000);
    stream.stop();
    expect(ended).toBeUndefined();
    expect(stream.track?.codec).toBe('h265');
    const pictures = units.filter((u) => u.slices);
    expect(pictures.length).toBeGreaterThanOrEqual(20);
    expect(pictures[0]?.keyframe).toBe(true);
    // Two slices a picture: both in one access unit.
    const vcl = (u: AccessUnit) => u.nals.filter((n) => (((n[0] as number) >> 1) & 0x3f) < 32).length;
    expect(pictures.every((u) => vcl(u) === 2)).toBe(true);
    // The stream's parameter sets from the SDP first, then every picture: an H.265 elementary stream.
    const startCode = Buffer.from([0, 0, 0, 1]);
    const annexB = Buffer.concat([...(stream.track?.parameterSets ?? []), ...pictures.flatMap((u) => u.nals)].flatMap((n) => [startCode, n]));
    const file = join(tmp.dir, 'camera.h265');
    writeFileSync(file, annexB);
    const { stdout, stderr } = await run('ffmpeg', ['-v', 'error', '-f', 'hevc', '-i', file, '-f', 'framemd5', '-']);
    expect(stderr).toBe('');
    expect(stdout.split('\n').filter((l) => l && !l.startsWith('#'))).toHaveLength(pictures.length);
    // Stamps 100 ms apart on the 90 kHz clock.
    const steps = new Set(pictures.slice(1).map((u, i) => u.timestamp - (pictures[i] as AccessUnit).timestamp));
    expect([...steps]).toEqual([9000]);
  });

  it('is shared by the session: its pictures with an hvcC sequence header, the picture size from its SPS', async () => {
    const session = new CameraSession(camera.url, { reader: 'rtsp', lingerMs: 0 });
    session.subscribe(() => undefined);
    await expect(session.ready(5_000)).resolves.toMatchObject({ codec: 'hevc', width: 320, height: 240 });
    expect(session.unsupported).toBeUndefined();
    expect(session.container).toBe('mp4');
    expect(session.health()).toMatchObject({ codec: 'h265', reader: 'rtsp' });
    await session.stop();
  });
});

describe('a camera the rtsp reader cannot read (MJPEG)', () => {
  let camera: RtspCamera;
  beforeAll(async () => {
    camera = await startRtspCamera({ port: 18565, codec: 'mjpeg', width: 160, height: 120, fps: 5 });
  });
  afterAll(async () => {
    await camera?.stop();
  });

  it('is handed to the ffmpeg reader, which says why it cannot be shared', async () => {
    const session = new CameraSession(camera.url, { lingerMs: 0 });
    session.subscribe(() => undefined);
    await expect.poll(() => session.unsupported, { timeout: 15_000 }).toMatch(/cannot be shared.*mjpeg/i);
    expect(session.health()).toMatchObject({ reader: 'ffmpeg', fallback: 'the camera sends JPEG video', runs: 2 });
    await session.stop();
  });
});
