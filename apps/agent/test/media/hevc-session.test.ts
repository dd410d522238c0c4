/**
 * An H.265 camera (a real RTSP camera, scripts/rtsp-camera.py with x265) through one camera
 * session: a live stream whose viewers decode H.265 gets the camera's pictures as they are (hvc1
 * fragmented MP4) that ffmpeg decodes, one for viewers that do not gets H.264 transcoded on the
 * ship, and the ship recorder keeps H.265 (hvc1) — all from one RTSP session at the camera. A camera
 * with B-frames decodes in order; one that turns into an H.264 camera ends its H.265 live stream
 * with the reason, and the recorder goes on in the new codec.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AgentStreamMessage, type EncodeSpec, decodeStreamFrame } from '@ship-cctv/protocol';
import { Fmp4Splitter, parseInitSegment, readFirstCompositionOffset, readProducerTime } from '@ship-cctv/media';
import { CameraSources } from '../../src/camera-sources.ts';
import type { CameraConfig } from '../../src/cameras.ts';
import { CameraSessions } from '../../src/media/camera-session.ts';
import { probeInput } from '../../src/media/probe.ts';
import { jpegSize, shootSession } from '../../src/pictures/capture.ts';
import { type LiveLink, LiveStreams } from '../../src/media/live-streams.ts';
import { ShipRecorder } from '../../src/recorder/ship-recorder.ts';
import type { SegmentRecording } from '../../src/url-camera.ts';
import { type RtspCamera, startRtspCamera } from '../helpers/rtsp-camera.ts';
import { run, spec, tempDir } from './helpers.ts';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

class FakeLink implements LiveLink {
  readonly json: AgentStreamMessage[] = [];
  readonly binary = new Map<number, { at: number; payload: Buffer }[]>();
  sendJson(msg: AgentStreamMessage): void {
    this.json.push(msg);
  }
  sendBinary(frame: Uint8Array): void {
    const d = decodeStreamFrame(frame);
    if (!d) throw new Error('short frame');
    const list = this.binary.get(d.streamId) ?? [];
    list.push({ at: Date.now(), payload: Buffer.from(d.payload) });
    this.binary.set(d.streamId, list);
  }
  bufferedAmount(): number {
    return 0;
  }
  bytes(streamId: number): Buffer {
    return Buffer.concat((this.binary.get(streamId) ?? []).map((b) => b.payload));
  }
  units(streamId: number) {
    return new Fmp4Splitter().push(this.bytes(streamId));
  }
  fragments(streamId: number): number {
    return this.units(streamId).filter((u) => u.kind === 'fragment').length;
  }
  started(streamId: number) {
    return this.json.find((m) => m.type === 'live.started' && m.streamId === streamId);
  }
}

const CAMERA_ID = 'S1-C09-1';

describe('an H.265 camera through one camera session', () => {
  const tmp = tempDir('hevc-session-');
  let camera: RtspCamera;
  const sessions = new CameraSessions({ stallMs: 4_000, minRetryMs: 300, maxRetryMs: 1_000 });
  let recorder: ShipRecorder;
  let streams: LiveStreams;
  const link = new FakeLink();
  const recording: boolean[] = [];

  beforeAll(async () => {
    camera = await startRtspCamera({ port: 19510, codec: 'h265', width: 320, height: 240, fps: 10, gopSeconds: 1 });
    const cameras: CameraConfig[] = [{ cameraId: CAMERA_ID, source: camera.url }];
    const sources = new CameraSources(cameras, { sessions, dataDir: tmp.dir, url: { probe: () => Promise.reject(new Error('a camera with a session is never probed')) } });
    recorder = new ShipRecorder(sources, { dataDir: tmp.dir, segments: { segmentSeconds: 1, minRetryMs: 300 } });
    recorder.on('recording', (_id, on) => recording.push(on));
    streams = new LiveStreams(sources, { codecs: ['h264'] });
    streams.attach(link);
    recorder.start();
  });
  afterAll(async () => {
    await streams?.stopAll();
    await recorder?.stop();
    await sessions.stopAll();
    await camera?.stop();
    tmp.remove();
  });

  it('sends hvc1 to viewers that decode it and avc1 to the others, from the one RTSP session the recorder records', async () => {
    await expect.poll(() => recording.at(-1), { timeout: 15_000 }).toBe(true);
    expect(sessions.health(camera.url)).toMatchObject({ codec: 'h265', reader: 'rtsp', problem: undefined });
    const asked = Date.now();
    streams.handle({ type: 'live.start', streamId: 1, cameraId: CAMERA_ID, encode: { ...spec(320, 240, 10, 5_000), passThrough: ['h265'] } });
    streams.handle({ type: 'live.start', streamId: 2, cameraId: CAMERA_ID, encode: spec(320, 240, 10, 400) });
    await expect.poll(() => link.fragments(1) >= 15 && link.fragments(2) >= 15, { timeout: 10_000 }).toBe(true);
    const first = (id: number) => (link.binary.get(id)?.[0]?.at ?? Infinity) - asked;
    console.log(`H.265 camera, live from the running session: first bytes after ${first(1)} ms as hvc1, ${first(2)} ms transcoded to avc1`);

    const inits = (id: number) => link.units(id).filter((u) => u.kind === 'init');
    const hevcInit = inits(1)[0];
    const avcInit = inits(2)[0];
    if (hevcInit?.kind !== 'init' || avcInit?.kind !== 'init') throw new Error('no init segment');
    expect(parseInitSegment(hevcInit.data)).toMatchObject({ codec: expect.stringMatching(/^hvc1\.1\.6\.L\d+/), width: 320, height: 240 });
    expect(parseInitSegment(avcInit.data).codec).toMatch(/^avc1\./);
    expect(link.started(1)).toMatchObject({ cameraCodec: 'h265', transcoded: false });
    expect(link.started(2)).toMatchObject({ cameraCodec: 'h265', transcoded: true });
    expect(link.units(1).find((u) => u.kind === 'fragment')).toMatchObject({ keyframe: true });
    // Each hvc1 fragment says when it left the ship (the player's picture age), as H.264 ones do.
    const firstFragment = link.units(1).find((u) => u.kind === 'fragment');
    expect(readProducerTime(firstFragment?.data ?? new Uint8Array())?.wallMs).toBeGreaterThanOrEqual(asked);

    // What the hvc1 viewer got decodes cleanly, every picture of it.
    const file = join(tmp.dir, 'live-hvc1.mp4');
    writeFileSync(file, link.bytes(1));
    const { stdout, stderr } = await run('ffmpeg', ['-v', 'error', '-i', file, '-f', 'framemd5', '-']);
    expect(stderr).toBe('');
    const frames = stdout.split('\n').filter((l) => l && !l.startsWith('#')).length;
    expect(frames).toBeGreaterThanOrEqual(15);

    // The recorder keeps H.265, as hvc1.
    const recorded = recorder.recording(CAMERA_ID) as SegmentRecording;
    await expect.poll(() => recorded.segmentFiles(0, Date.now()).length, { timeout: 10_000 }).toBeGreaterThan(0);
    const segment = recorded.segmentFiles(0, Date.now())[0];
    if (!segment) throw new Error('no recorded segment');
    const probe = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,codec_tag_string,width,height', '-of', 'csv=p=0', segment.path]);
    expect(probe.stdout.trim()).toBe('hevc,hvc1,320,240');

    // Ship playback of the H.265 recording: to a viewer that decodes H.265 (passThrough) the recording
    // as it is (copied, hvc1, no transcode on the ship); to the others decoded and sent in H.264.
    const playBack = async (name: string, encode: EncodeSpec) => {
      const made = await recorded.playbackRun({ from: segment.start, to: segment.end, encode, speed: 1, tmpDir: tmp.dir, probe: probeInput });
      const played = join(tmp.dir, `${name}.mp4`);
      writeFileSync(played, (await run('ffmpeg', made.args, { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 })).stdout);
      const probed = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-count_frames', '-show_entries', 'stream=codec_name,codec_tag_string,nb_read_frames', '-of', 'csv=p=0', played]);
      const [codec, tag, frames] = probed.stdout.trim().split(',');
      const clean = await run('ffmpeg', ['-v', 'error', '-i', played, '-f', 'null', '-']);
      return { codec, tag, frames: Number(frames), copied: made.args.includes('copy'), stderr: clean.stderr };
    };
    const asIs = await playBack('played-hvc1', { ...spec(320, 240, 10, 5_000), passThrough: ['h265'] });
    expect(asIs).toMatchObject({ codec: 'hevc', tag: 'hvc1', copied: true, stderr: '' });
    expect(asIs.frames).toBeGreaterThan(3);
    const transcoded = await playBack('played-avc1', spec(320, 240, 10, 400));
    expect(transcoded).toMatchObject({ codec: 'h264', copied: false });
    expect(transcoded.frames).toBeGreaterThan(3);

    // A picture of now, from the session's H.265 GOP.
    const shot = await shootSession(sessions.get(camera.url), { width: 320, height: 240 });
    expect(jpegSize(shot.jpeg)).toEqual({ width: 320, height: 240 });

    // One RTSP session at the camera for all of it.
    expect(camera.sessionsOpened).toBe(1);
    expect(camera.openSessions).toBe(1);
    expect(sessions.health(camera.url)?.runs).toBe(1);
  });
});

/** Frames ffmpeg decodes from a file: their presentation stamps, and what it said on stderr. */
async function decoded(file: string): Promise<{ pts: number[]; stderr: string }> {
  const { stdout, stderr } = await run('ffmpeg', ['-v', 'error', '-i', file, '-f', 'framemd5', '-']);
  const pts = stdout
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => Number(l.split(',')[2]));
  return { pts, stderr };
}

describe('an H.265 camera with B-frames', () => {
  const tmp = tempDir('hevc-bframes-');
  let camera: RtspCamera;
  const sessions = new CameraSessions({ stallMs: 4_000, minRetryMs: 300, maxRetryMs: 1_000 });
  let streams: LiveStreams;
  const link = new FakeLink();

  beforeAll(async () => {
    camera = await startRtspCamera({ port: 19511, codec: 'h265', width: 320, height: 240, fps: 10, gopSeconds: 1, bframes: 2 });
    streams = new LiveStreams(new CameraSources([{ cameraId: CAMERA_ID, source: camera.url }], { sessions }), { codecs: ['h264'] });
    streams.attach(link);
  });
  afterAll(async () => {
    await streams?.stopAll();
    await sessions.stopAll();
    await camera?.stop();
    tmp.remove();
  });

  it('goes up as hvc1 with composition offsets that ffmpeg decodes in presentation order', async () => {
    streams.handle({ type: 'live.start', streamId: 1, cameraId: CAMERA_ID, encode: { ...spec(320, 240, 10, 5_000), passThrough: ['h265'] } });
    await expect.poll(() => link.fragments(1), { timeout: 10_000 }).toBeGreaterThanOrEqual(20);
    const offsets = link.units(1).flatMap((u) => (u.kind === 'fragment' ? [readFirstCompositionOffset(u.data)] : []));
    // Pictures shown after later ones: offsets above zero (the reorder depth from the SPS).
    expect(Math.max(...offsets)).toBeGreaterThan(0);
    const file = join(tmp.dir, 'bframes.mp4');
    writeFileSync(file, link.bytes(1));
    const { pts, stderr } = await decoded(file);
    expect(stderr).toBe('');
    expect(pts.length).toBeGreaterThanOrEqual(20);
    // In presentation order, each picture once.
    expect(pts).toEqual([...pts].sort((a, b) => a - b));
    expect(new Set(pts).size).toBe(pts.length);
    expect(link.json.filter((m) => m.type === 'live.failed')).toEqual([]);
  });
});

describe('a camera that changes its size or codec mid-stream', () => {
  const tmp = tempDir('hevc-switch-');
  let camera: RtspCamera;
  const sessions = new CameraSessions({ stallMs: 4_000, minRetryMs: 200, maxRetryMs: 1_000 });
  let recorder: ShipRecorder;
  let streams: LiveStreams;
  const link = new FakeLink();

  beforeAll(async () => {
    camera = await startRtspCamera({ port: 19512, codec: 'h265', width: 320, height: 240, fps: 10, gopSeconds: 1 });
    const sources = new CameraSources([{ cameraId: CAMERA_ID, source: camera.url }], { sessions, dataDir: tmp.dir });
    recorder = new ShipRecorder(sources, { dataDir: tmp.dir, segments: { segmentSeconds: 1, minRetryMs: 300 } });
    streams = new LiveStreams(sources, { codecs: ['h264'] });
    streams.attach(link);
    recorder.start();
  });
  afterAll(async () => {
    await streams?.stopAll();
    await recorder?.stop();
    await sessions.stopAll();
    await camera?.stop();
    tmp.remove();
  });

  it('ends its live streams saying why when it changes size or codec, and the recorder goes on', async () => {
    const endOf = (id: number) => JSON.stringify(link.json.find((m) => (m.type === 'live.failed' || m.type === 'live.ended') && m.streamId === id) ?? null);
    streams.handle({ type: 'live.start', streamId: 1, cameraId: CAMERA_ID, encode: { ...spec(320, 240, 10, 5_000), passThrough: ['h265'] } });
    streams.handle({ type: 'live.start', streamId: 2, cameraId: CAMERA_ID, encode: spec(320, 240, 10, 400) });
    await expect.poll(() => link.fragments(1) > 3 && link.fragments(2) > 3, { timeout: 10_000 }).toBe(true);
    const recorded = recorder.recording(CAMERA_ID) as SegmentRecording;
    await expect.poll(() => recorded.segmentFiles(0, Date.now()).length, { timeout: 10_000 }).toBeGreaterThan(0);
    const url = camera.url;

    // The camera is set to another size (it restarts, as cameras do): both streams end with the reason.
    await camera.stop();
    camera = await startRtspCamera({ port: 19512, codec: 'h265', width: 640, height: 360, fps: 10, gopSeconds: 1 });
    await expect.poll(() => endOf(1), { timeout: 10_000 }).toContain('changed its picture size from 320×240 to 640×360');
    await expect.poll(() => endOf(2), { timeout: 10_000 }).toContain('changed its picture size from 320×240 to 640×360');

    // Then to H.264: a stream of its H.265 ends saying so (shore asks again, and gets H.264).
    streams.handle({ type: 'live.start', streamId: 3, cameraId: CAMERA_ID, encode: { ...spec(640, 360, 10, 5_000), passThrough: ['h265'] } });
    await expect.poll(() => link.fragments(3), { timeout: 10_000 }).toBeGreaterThan(3);
    await camera.stop();
    camera = await startRtspCamera({ port: 19512, codec: 'h264', width: 640, height: 360, fps: 10, gopSeconds: 1 });
    expect(camera.url).toBe(url);
    await expect.poll(() => sessions.health(url)?.codec, { timeout: 10_000 }).toBe('h264');
    await expect.poll(() => endOf(3), { timeout: 10_000 }).toContain('changed its codec from h265 to h264');

    // The recorder went on through both: its first segments H.265, its latest H.264, each plays.
    const probeOf = async (path: string) => (await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,width', '-of', 'csv=p=0', path])).stdout.trim();
    await expect
      .poll(async () => (await Promise.all(recorded.segmentFiles(0, Date.now()).map((f) => probeOf(f.path)))).includes('h264,640'), { timeout: 15_000, interval: 500 })
      .toBe(true);
    const probes = await Promise.all(recorded.segmentFiles(0, Date.now()).map((f) => probeOf(f.path)));
    expect(probes[0]).toBe('hevc,320');
    expect(probes).toContain('hevc,640');
  });
});
