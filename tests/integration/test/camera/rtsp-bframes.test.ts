/**
 * A camera that sends B-frames (scripts/rtsp-camera.py: x264 main profile, 2 B-frames, B-pyramid),
 * read by the agent's own RTSP reader: decode times that only increase and are never after the
 * presentation times (the RTP stamps), composition offsets that put the pictures back in the
 * camera's order, each picture handed on at once; and everything downstream of the camera session:
 * the live copy's fMP4, a transcoded live stream, the ship recorder's segments and a picture.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AgentMessage, type AgentStreamMessage, decodeStreamFrame } from '@ship-cctv/protocol';
import { type CameraConfig, CameraSessions, CameraSources, type LiveLink, LiveStreams, SegmentRecording, ShipRecorder, jpegSize } from '@ship-cctv/agent';
import { RelaySplitter, type MediaFragment, type InitSegment } from '../../../../apps/server/src/core/media/fmp4.ts';
import { type VideoPacket, isSlice, splitNals } from '../../../../apps/agent/src/media/access-unit.ts';
import { isBSlice } from '../../../../apps/agent/src/media/avc.ts';
import { flvConfigTag, flvHeader, flvPictureTag } from '../../../../apps/agent/src/media/flv-writer.ts';
import { startRtspReader } from '../../../../apps/agent/src/media/rtsp/reader.ts';
import { ShipPictures } from '../../../../apps/agent/src/pictures/ship-pictures.ts';
import { type RtspCamera, startRtspCamera } from '../../../../apps/agent/test/helpers/rtsp-camera.ts';
import { run, spec, tempDir } from '../../../../apps/agent/test/media/helpers.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Hashes of the decoded frames of framemd5's output, in output order. */
function hashes(framemd5: string): string[] {
  return framemd5
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split(',').map((x) => x.trim())[5] ?? '');
}

/**
 * A file decoded by ffmpeg: errors (stderr), and each decoded frame's hash and presentation time
 * in ms (ffprobe's), in the decoder's output order.
 */
async function decode(file: string): Promise<{ stderr: string; frames: { ms: number; hash: string }[] }> {
  const decoded = await run('ffmpeg', ['-v', 'error', '-i', file, '-fps_mode', 'passthrough', '-f', 'framemd5', '-']);
  const probed = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'frame=pts_time', '-of', 'json', file]);
  const times = (JSON.parse(probed.stdout) as { frames: { pts_time: string }[] }).frames.map((f) => Math.round(Number(f.pts_time) * 1000));
  const h = hashes(decoded.stdout);
  return { stderr: decoded.stderr, frames: h.map((hash, i) => ({ hash, ms: times[i] ?? Number.NaN })) };
}

const strictlyIncreasing = (list: number[]) => list.every((x, i) => i === 0 || x > (list[i - 1] as number));

describe('a B-frame camera read by the RTSP reader', () => {
  const tmp = tempDir('rtsp-bframes-');
  let camera: RtspCamera;
  beforeAll(async () => {
    camera = await startRtspCamera({ port: 18567, bframes: 2, width: 320, height: 240, fps: 10 });
  });
  afterAll(async () => {
    await camera?.stop();
    tmp.remove();
  });

  it('gives decode times in order and composition offsets that decode to the camera’s pictures, in its order, as ffmpeg reads them', async () => {
    // ffmpeg's own reading of the camera first (the GStreamer camera restamps its clients when one starts).
    const reference = spawn('ffmpeg', ['-v', 'error', '-rtsp_transport', 'tcp', '-i', camera.url, '-t', '8', '-map', '0:v:0', '-fps_mode', 'passthrough', '-f', 'framemd5', '-']);
    let referenceOut = '';
    reference.stdout.on('data', (d: Buffer) => (referenceOut += d.toString()));
    const referenceDone = new Promise((r) => reference.once('exit', r));
    await wait(1_500);

    const configs: Buffer[] = [];
    const pictures: (VideoPacket & { at: number })[] = [];
    let ended: string | undefined;
    const reader = startRtspReader(
      camera.url,
      { ffmpegCommand: 'ffmpeg', firstByteTimeoutMs: 10_000 },
      {
        onConfig: (r) => configs.push(r),
        onPicture: (p) => pictures.push({ ...p, at: performance.now() }),
        onBytes: () => undefined,
        onEnd: (e) => (ended = e.reason),
      },
    );
    // 3.2 s of the camera from its first keyframe on, however long connecting took on this machine
    // (a fixed 4 s gave 29 pictures once on a busy one); the reference reads 8 s.
    for (const until = Date.now() + 15_000; pictures.length < 32 && Date.now() < until; ) await wait(100);
    await reader.stop();
    await referenceDone;
    expect(ended).toBeUndefined();
    expect(reader.kind).toBe('rtsp');
    expect(pictures.length).toBeGreaterThanOrEqual(30);
    expect(pictures[0]?.keyframe).toBe(true);

    // It has B slices, and they come out of presentation order.
    const withB = pictures.filter((p) => splitNals(p.data).some((n) => isSlice(n) && isBSlice(n)));
    expect(withB.length).toBeGreaterThanOrEqual(pictures.length / 3);
    const dts = pictures.map((p) => p.timestampMs);
    const pts = pictures.map((p) => p.timestampMs + p.compositionMs);
    expect(strictlyIncreasing(dts)).toBe(true);
    expect(pictures.every((p) => p.compositionMs >= 0)).toBe(true);
    expect(strictlyIncreasing(pts)).toBe(false);
    // Presentation times are the camera's (RTP) stamps: 100 ms apart once sorted (up to the last
    // decode time: the B-frames of the last pictures had not come when the reader stopped).
    const sorted = [...pts].sort((a, b) => a - b);
    const complete = sorted.filter((t) => t <= (dts.at(-1) as number));
    expect(complete.length).toBeGreaterThanOrEqual(pictures.length - 3);
    expect(new Set(complete.slice(1).map((t, i) => t - (complete[i] as number)))).toEqual(new Set([100]));
    // x264's VUI says 2 pictures of reordering: decode times 2 frames behind presentation on average.
    const meanOffset = pictures.reduce((n, p) => n + p.compositionMs, 0) / pictures.length;
    expect(meanOffset).toBeGreaterThan(150);
    expect(meanOffset).toBeLessThan(250);

    // As FLV (what the session hands the recorder and transcoders), decoded by ffmpeg: every picture,
    // no error, the frames in presentation-time order (the decoder's order from the slices' picture
    // order counts and ours from the composition offsets agree), 100 ms apart.
    const record = configs.at(-1) as Buffer;
    const flv = Buffer.concat([flvHeader(), flvConfigTag(record), ...pictures.map((p) => flvPictureTag({ ...p, timestampMs: p.timestampMs - (dts[0] as number) }))]);
    const flvFile = join(tmp.dir, 'camera.flv');
    writeFileSync(flvFile, flv);
    const decoded = await decode(flvFile);
    expect(decoded.stderr).toBe('');
    const ours = decoded.frames;
    expect(ours).toHaveLength(pictures.length);
    expect(ours.map((f) => f.ms)).toEqual(sorted.map((t) => t - (dts[0] as number)));

    // The same pictures as ffmpeg's own RTSP reading decodes them: one run of its frames, in order
    // (the test picture repeats itself, so the run is the best-matching one). Compared up to the
    // last decode time: past it, the pictures whose B-frames had not come yet.
    const theirs = hashes(referenceOut);
    const whole = ours.slice(0, complete.length);
    let matching = 0;
    let compared = 0;
    theirs.forEach((h, start) => {
      if (h !== whole[0]?.hash) return;
      const run_ = theirs.slice(start, start + whole.length);
      const m = whole.filter((f, i) => f.hash === run_[i]).length;
      if (m > matching) [matching, compared] = [m, Math.min(whole.length, run_.length)];
    });
    // The reference may end a few frames before our reader does.
    expect(matching).toBe(compared);
    expect(matching).toBeGreaterThanOrEqual(25);

    // What B-frames cost a live viewer: how late after its presentation time each picture is handed on,
    // beyond the earliest (the camera's encoder holds a B-frame until the later picture it is predicted from).
    const lateness = pictures.map((p, i) => p.at - (pts[i] as number));
    const earliest = Math.min(...lateness);
    const extra = lateness.map((l) => l - earliest).sort((a, b) => a - b);
    console.log(
      `B-frame camera (2 B-frames, 10 fps): reorder depth from the SPS ${Math.round(meanOffset / 100)}; picture handed on after its presentation time, beyond the earliest: ` +
        `median ${extra[Math.floor(extra.length / 2)]?.toFixed(0)} ms, p95 ${extra[Math.floor(extra.length * 0.95)]?.toFixed(0)} ms, max ${extra.at(-1)?.toFixed(0)} ms over ${extra.length} pictures`,
    );
  });
});

class FakeLink implements LiveLink {
  readonly json: AgentStreamMessage[] = [];
  readonly binary = new Map<number, Buffer[]>();
  sendJson(msg: AgentStreamMessage): void {
    this.json.push(msg);
  }
  sendBinary(frame: Uint8Array): void {
    const d = decodeStreamFrame(frame);
    if (!d) throw new Error('short frame');
    const list = this.binary.get(d.streamId) ?? [];
    list.push(Buffer.from(d.payload));
    this.binary.set(d.streamId, list);
  }
  bufferedAmount(): number {
    return 0;
  }
  bytes(streamId: number): Buffer {
    return Buffer.concat(this.binary.get(streamId) ?? []);
  }
  units(streamId: number) {
    return new RelaySplitter().push(this.bytes(streamId));
  }
  fragments(streamId: number): MediaFragment[] {
    return this.units(streamId).filter((u): u is MediaFragment => u.kind === 'fragment');
  }
}

const CAMERA_ID = 'S1-C01-1';

describe('a B-frame camera downstream of its session: live copy, transcode, recorder, pictures', () => {
  const tmp = tempDir('bframes-session-');
  let camera: RtspCamera;
  const sessions = new CameraSessions({ stallMs: 4_000, minRetryMs: 300, maxRetryMs: 1_000, reader: 'rtsp' });
  let recorder: ShipRecorder;
  let streams: LiveStreams;
  let pictures: ShipPictures;
  const link = new FakeLink();
  const recording: boolean[] = [];

  beforeAll(async () => {
    camera = await startRtspCamera({ port: 18568, bframes: 2, width: 320, height: 240, fps: 10 });
    const cameras: CameraConfig[] = [{ cameraId: CAMERA_ID, source: camera.url }];
    const sources = new CameraSources(cameras, { sessions, url: { probe: () => Promise.reject(new Error('a camera with a session is never probed')) } });
    recorder = new ShipRecorder(sources, { dataDir: tmp.dir, segments: { segmentSeconds: 2, minRetryMs: 300 } });
    recorder.on('recording', (_id, on) => recording.push(on));
    streams = new LiveStreams(sources);
    streams.attach(link);
    pictures = new ShipPictures(sources, { dataDir: tmp.dir });
    const sent: AgentMessage[] = [];
    pictures.attach({ sendJson: (m) => sent.push(m), sendBinary: () => undefined });
    recorder.start();
  });
  afterAll(async () => {
    pictures?.close();
    await streams?.stopAll();
    await recorder?.stop();
    await sessions.stopAll();
    await camera?.stop();
    tmp.remove();
  });

  it('is read by the RTSP reader, not handed to ffmpeg', async () => {
    await expect.poll(() => recording.at(-1), { timeout: 15_000 }).toBe(true);
    expect(sessions.health(camera.url)).toMatchObject({ reader: 'rtsp', fallback: undefined, online: true });
  });

  it('live copy (joining mid-GOP) and transcode: fragments that decode cleanly, every one a frame, in presentation order', async () => {
    await wait(1_500); // join mid-GOP: the squeezed GOP goes first
    streams.handle({ type: 'live.start', streamId: 1, cameraId: CAMERA_ID, encode: spec(320, 240, 10, 5_000) });
    streams.handle({ type: 'live.start', streamId: 2, cameraId: CAMERA_ID, encode: spec(160, 120, 10, 200) });
    await expect.poll(() => link.fragments(1).length >= 40 && link.fragments(2).length >= 30, { timeout: 20_000 }).toBe(true);
    streams.handle({ type: 'live.stop', streamId: 1 });
    streams.handle({ type: 'live.stop', streamId: 2 });
    expect(link.json.filter((m) => m.type === 'live.failed')).toEqual([]);

    const copied = link.units(1);
    const init = copied.find((u): u is InitSegment => u.kind === 'init');
    expect(init?.codec).toMatch(/^avc1\.4d/); // the camera's own main profile: copied, not re-encoded
    const fragments = link.fragments(1);
    expect(fragments[0]?.keyframe).toBe(true);
    const times = fragments.map((f) => Number(f.baseMediaDecodeTime));
    expect(strictlyIncreasing(times)).toBe(true);

    for (const [streamId, name] of [[1, 'copy.mp4'], [2, 'transcoded.mp4']] as const) {
      const file = join(tmp.dir, name);
      writeFileSync(file, link.bytes(streamId));
      const decoded = await decode(file);
      expect(decoded.stderr).toBe('');
      expect(decoded.frames).toHaveLength(link.fragments(streamId).length);
      expect(strictlyIncreasing(decoded.frames.map((f) => f.ms))).toBe(true);
      // Past the squeezed start, frames 100 ms apart (the copy's last B-frames may not have come).
      const tail = decoded.frames.slice(-25, -5).map((f) => f.ms);
      expect([...new Set(tail.slice(1).map((t, i) => t - (tail[i] as number)))]).toEqual([100]);
    }
    // The copy's composition offsets (signed trun) are there: its packets are not in presentation order.
    const probe = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts,dts', '-of', 'csv=p=0', join(tmp.dir, 'copy.mp4')]);
    const packets = probe.stdout.trim().split('\n').map((l) => l.split(',').map(Number) as [number, number]);
    expect(packets.every(([pts, dts]) => pts >= dts)).toBe(true);
    expect(strictlyIncreasing(packets.map(([pts]) => pts))).toBe(false);
  });

  it('takes a picture of the running session', async () => {
    const picture = await pictures.take({ type: 'pictures.take', streamId: 9, pictureId: 'bframes-000001', cameraId: CAMERA_ID, width: 640, height: 360, origin: 'manual' });
    expect(picture).toMatchObject({ cameraId: CAMERA_ID, width: 320, height: 240 });
    expect(jpegSize(pictures.store.read('bframes-000001') ?? new Uint8Array())).toEqual({ width: 320, height: 240 });
  });

  it('records segments that decode cleanly, every packet a frame, in presentation order 100 ms apart', async () => {
    await wait(3_000);
    await recorder.stop();
    const source = recorder.recording(CAMERA_ID);
    if (!(source instanceof SegmentRecording)) throw new Error('not a segment recorder');
    const segments = source.recorder.index.all;
    expect(segments.length).toBeGreaterThanOrEqual(2);
    for (const s of segments) {
      const file = join(source.recorder.index.dir, s.file);
      expect(readFileSync(file).length).toBeGreaterThan(0);
      const decoded = await decode(file);
      expect(decoded.stderr).toBe('');
      const out = decoded.frames;
      const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,dts_time', '-of', 'csv=p=0', file]);
      const packets = stdout.trim().split('\n').map((l) => l.split(',').map(Number) as [number, number]);
      expect(out).toHaveLength(packets.length);
      expect(strictlyIncreasing(packets.map(([, dts]) => dts))).toBe(true);
      expect(packets.every(([pts, dts]) => pts >= dts)).toBe(true);
      expect(strictlyIncreasing(out.map((f) => f.ms))).toBe(true);
      const steps = out.slice(1).map((f, i) => f.ms - (out[i] as { ms: number }).ms);
      console.log(`segment ${s.file}: ${out.length} frames, presentation steps ${[...new Set(steps)].join(' ')} ms`);
      // 100 ms apart (the last segment may end before the B-frames of its last picture came).
      expect(steps.filter((x) => x !== 100).length).toBeLessThanOrEqual(s === segments.at(-1) ? 1 : 0);
    }
  });
});
