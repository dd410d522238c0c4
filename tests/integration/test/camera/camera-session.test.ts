/**
 * One camera session per camera, against a real RTSP camera (scripts/rtsp-camera.py, two slices
 * per picture): the ship recorder and live streams (copied and transcoded) share one RTSP session;
 * a live view of the recorded camera starts from the running session; a camera restart is a
 * discontinuity — live goes on, the recorder starts a new, noted segment — and every recorded
 * segment plays.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AgentStreamMessage, decodeStreamFrame } from '@ship-cctv/protocol';
import { RelaySplitter, type MediaFragment } from '../../../../apps/server/src/core/media/fmp4.ts';
import { type CameraConfig, CameraSessions, CameraSources, type LiveLink, LiveStreams, SegmentRecording, ShipRecorder } from '@ship-cctv/agent';
import { type RtspCamera, startRtspCamera } from '../../../../apps/agent/test/helpers/rtsp-camera.ts';
import { run, spec, tempDir } from '../../../../apps/agent/test/media/helpers.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });

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
  fragments(streamId: number): MediaFragment[] {
    const bytes = Buffer.concat((this.binary.get(streamId) ?? []).map((b) => b.payload));
    return new RelaySplitter().push(bytes).filter((u): u is MediaFragment => u.kind === 'fragment');
  }
  started(streamId: number): boolean {
    return this.json.some((m) => m.type === 'live.started' && m.streamId === streamId);
  }
}

const CAMERA_ID = 'S1-C01-1';

describe('one camera session shared by the recorder and live streams', () => {
  const tmp = tempDir('camera-session-');
  let camera: RtspCamera;
  let cameras: CameraConfig[];
  const sessions = new CameraSessions({ stallMs: 4_000, minRetryMs: 300, maxRetryMs: 1_000 });
  let recorder: ShipRecorder;
  let streams: LiveStreams;
  const link = new FakeLink();
  const recording: boolean[] = [];

  beforeAll(async () => {
    camera = await startRtspCamera({ port: 18557, slices: 2, width: 320, height: 240, fps: 10 });
    cameras = [{ cameraId: CAMERA_ID, source: camera.url }];
    const sources = new CameraSources(cameras, { sessions, url: { probe: () => Promise.reject(new Error('a camera with a session is never probed')) } });
    recorder = new ShipRecorder(sources, { dataDir: tmp.dir, segments: { segmentSeconds: 2, minRetryMs: 300 } });
    recorder.on('recording', (_id, on) => recording.push(on));
    streams = new LiveStreams(sources);
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

  let liveStartedAt = 0;
  it('starts a live view of the recorded camera from the running session, copied and transcoded', async () => {
    await expect.poll(() => recording.at(-1), { timeout: 15_000 }).toBe(true);
    liveStartedAt = Date.now();
    streams.handle({ type: 'live.start', streamId: 1, cameraId: CAMERA_ID, encode: spec(320, 240, 10, 5_000) });
    streams.handle({ type: 'live.start', streamId: 2, cameraId: CAMERA_ID, encode: spec(160, 120, 10, 200) });
    await expect.poll(() => link.started(1) && link.fragments(1).length > 0, { timeout: 5_000 }).toBe(true);
    const copyFirst = (link.binary.get(1)?.[0]?.at ?? Infinity) - liveStartedAt;
    await expect.poll(() => link.started(2) && link.fragments(2).length > 0, { timeout: 5_000 }).toBe(true);
    const transcodeFirst = (link.binary.get(2)?.[0]?.at ?? Infinity) - liveStartedAt;
    // From the session's GOP: no probe, no new camera session, no wait for the next keyframe.
    expect(copyFirst).toBeLessThan(300);
    expect(transcodeFirst).toBeLessThan(1_500);
    expect(link.fragments(1)[0]?.keyframe).toBe(true);
    expect(link.fragments(2)[0]?.keyframe).toBe(true);
  });

  it('holds one RTSP session at the camera for the recorder and both live streams', async () => {
    // Two seconds of pictures on both streams (at 10 a second), however slowly the machine runs them.
    await expect.poll(() => link.fragments(1).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(20);
    await expect.poll(() => link.fragments(2).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(15);
    expect(camera.openSessions).toBe(1);
    expect(camera.sessionsOpened).toBe(1);
    expect(sessions.health(camera.url)).toMatchObject({ online: true, runs: 1 });
  });

  it('goes on after a camera restart: live resumes, the recorder starts a new noted segment', async () => {
    const [copied, transcoded] = [link.fragments(1).length, link.fragments(2).length];
    await camera.restart(1_000);
    await expect.poll(() => link.fragments(1).length - copied, { timeout: 15_000 }).toBeGreaterThanOrEqual(30);
    await expect.poll(() => link.fragments(2).length - transcoded, { timeout: 15_000 }).toBeGreaterThanOrEqual(30);
    // The copied stream's decode times never step back or stand still across the restart.
    const times = link.fragments(1).map((f) => Number(f.baseMediaDecodeTime));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1] as number);
    expect(link.json.filter((m) => m.type === 'live.failed' || m.type === 'live.ended')).toEqual([]);
    // The recorder: recording again, its new segment noted.
    await expect.poll(() => recorder.recording(CAMERA_ID) instanceof SegmentRecording && recordedNotes().length > 0, { timeout: 20_000 }).toBe(true);
    expect(sessions.health(camera.url)?.discontinuities).toBeGreaterThanOrEqual(1);
  });

  function recordedNotes(): string[] {
    const source = recorder.recording(CAMERA_ID);
    if (!(source instanceof SegmentRecording)) return [];
    return source.recorder.index.all.flatMap((s) => (s.note ? [s.note] : []));
  }

  it('leaves no unplayable segment: each decodes cleanly, its frames 100 ms apart, as long as the index says', async () => {
    await streams.stopAll();
    await recorder.stop();
    const source = recorder.recording(CAMERA_ID);
    if (!(source instanceof SegmentRecording)) throw new Error('not a segment recorder');
    const segments = source.recorder.index.all;
    expect(segments.length).toBeGreaterThanOrEqual(3);
    const index = JSON.parse(readFileSync(join(source.recorder.index.dir, 'index.json'), 'utf8')) as { segments: { note?: string }[] };
    expect(index.segments.some((s) => typeof s.note === 'string')).toBe(true);
    for (const s of segments) {
      const file = join(source.recorder.index.dir, s.file);
      const decoded = await run('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-']);
      expect(decoded.stderr).toBe('');
      const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=dts_time', '-of', 'csv=p=0', file]);
      const dts = stdout.trim().split('\n').map(Number);
      expect(dts.length).toBeGreaterThan(0);
      // No frames one tick apart (backwards-stamped frames written as +1), no gaps.
      for (let i = 1; i < dts.length; i++) {
        const step = (dts[i] as number) - (dts[i - 1] as number);
        expect(step).toBeGreaterThan(0.05);
        expect(step).toBeLessThan(0.3);
      }
      const seconds = (dts.at(-1) as number) - (dts[0] as number) + 0.1;
      expect(Math.abs(seconds * 1000 - (s.end - s.start))).toBeLessThan(1_000);
    }
  });
});

describe('a camera nobody reads yet', () => {
  let camera: RtspCamera;
  const sessions = new CameraSessions();
  let streams: LiveStreams;
  const link = new FakeLink();
  beforeAll(async () => {
    camera = await startRtspCamera({ port: 18558, slices: 2, width: 320, height: 240, fps: 10 });
    streams = new LiveStreams(new CameraSources([{ cameraId: CAMERA_ID, source: camera.url }], { sessions }));
    streams.attach(link);
  });
  afterAll(async () => {
    await streams?.stopAll();
    await sessions.stopAll();
    await camera?.stop();
  });

  it('starts live within 3 s: the session opens without analysing the stream, the first keyframe goes up at once', async () => {
    const asked = Date.now();
    streams.handle({ type: 'live.start', streamId: 1, cameraId: CAMERA_ID, encode: spec(320, 240, 10, 5_000) });
    await expect.poll(() => link.fragments(1).length > 0, { timeout: 5_000 }).toBe(true);
    const first = (link.binary.get(1)?.[0]?.at ?? Infinity) - asked;
    // Session start (~0.2 s) + at most one GOP (1 s) to the camera's next keyframe.
    expect(first).toBeLessThan(3_000);
    expect(link.fragments(1)[0]?.keyframe).toBe(true);
    expect(camera.sessionsOpened).toBe(1);
  });
});

describe('an H.265 camera', () => {
  let camera: RtspCamera;
  const sessions = new CameraSessions({ minRetryMs: 300 });
  let streams: LiveStreams;
  const link = new FakeLink();
  beforeAll(async () => {
    camera = await startRtspCamera({ port: 18559, codec: 'h265', slices: 2, width: 320, height: 240, fps: 10 });
    streams = new LiveStreams(new CameraSources([{ cameraId: CAMERA_ID, source: camera.url }], { sessions }));
    streams.attach(link);
  });
  afterAll(async () => {
    await streams?.stopAll();
    await sessions.stopAll();
    await camera?.stop();
  });

  it('is shared by its session: a viewer without H.265 gets H.264 transcoded from the session, the ship holds one RTSP session', async () => {
    streams.handle({ type: 'live.start', streamId: 1, cameraId: CAMERA_ID, encode: spec(320, 240, 10, 400) });
    await expect.poll(() => link.fragments(1).length, { timeout: 20_000 }).toBeGreaterThan(5);
    expect(sessions.get(camera.url).unsupported).toBeUndefined();
    expect(link.fragments(1)[0]?.keyframe).toBe(true);
    expect(link.json.filter((m) => m.type === 'live.failed')).toEqual([]);
    expect(link.json.find((m) => m.type === 'live.started')).toMatchObject({ cameraCodec: 'h265', transcoded: true });
    expect(camera.sessionsOpened).toBe(1);
  });
});
