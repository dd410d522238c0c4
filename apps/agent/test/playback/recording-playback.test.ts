import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EncodeSpec, PlaybackSpeed, RecordedSpan } from '@ship-cctv/protocol';
import { PlaybackStreams } from '../../src/playback/playback-streams.ts';
import { CameraSources } from '../../src/camera-sources.ts';
import { ShipRecorder } from '../../src/recorder/ship-recorder.ts';
import { SegmentRecording } from '../../src/url-camera.ts';
import { probeFile, run, spec, tempDir, topLevelBoxes } from '../media/helpers.ts';
import { makeCameraFile } from '../recorder/helpers.ts';
import { FakeLink, decodedFrames, writeStream } from './helpers.ts';

const CAMERA = 'S1-C02-1';
const tmp = tempDir('recording-playback-');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let recorder: ShipRecorder;
let spans: RecordedSpan[];
beforeAll(async () => {
  const camera = await makeCameraFile(join(tmp.dir, 'deck.mp4'), { width: 320, height: 180, rate: 10 });
  const options = { dataDir: join(tmp.dir, 'data'), segments: { segmentSeconds: 1 } };
  // Two recording runs with the camera away in between.
  for (const [i, ms] of [4_500, 4_500].entries()) {
    recorder = new ShipRecorder(new CameraSources([{ cameraId: CAMERA, source: camera }]), options);
    recorder.start();
    await sleep(ms);
    await recorder.stop();
    if (i === 0) await sleep(2_000);
  }
  spans = recorder.spans(CAMERA, 0, Date.now()) ?? [];
}, 40_000);
afterAll(() => tmp.remove());

async function playToEnd(encode: EncodeSpec, speed: PlaybackSpeed, start: number, end: number, streamId: number) {
  const playback = new PlaybackStreams(recorder);
  const link = new FakeLink();
  playback.attach(link);
  playback.handle({ type: 'playback.start', streamId, cameraId: CAMERA, encode, start, end, from: start, speed });
  await expect.poll(() => link.of('playback.ended').length + link.of('playback.failed').length, { timeout: 20_000 }).toBe(1);
  expect(link.of('playback.failed')).toEqual([]);
  return { link, file: writeStream(link, streamId, join(tmp.dir, `play-${streamId}.mp4`)) };
}

describe('playback of a URL camera’s recorded segments', () => {
  it('has two spans, with the time the camera was away between them', () => {
    expect(spans).toHaveLength(2);
    expect(spans[1]!.start - spans[0]!.end).toBeGreaterThan(1_500);
  });

  it('at 1× copies the recording when it fits the template', async () => {
    const [first] = spans;
    const { link, file } = await playToEnd(spec(320, 180, 10, 8_000), 1, first!.start, first!.end, 1);
    expect(topLevelBoxes(link.payloads(1)[0]!)).toEqual(['ftyp', 'moov']);
    const probe = await probeFile(file);
    // Still the camera's own High-profile stream: nothing was re-encoded.
    expect(probe).toMatchObject({ codec: 'h264', profile: 'High', width: 320, height: 180 });
    const seconds = (first!.end - first!.start) / 1000;
    expect(probe.packets).toBeGreaterThanOrEqual(Math.floor(seconds * 10) - 10);
    expect(probe.packets).toBeLessThanOrEqual(Math.ceil(seconds * 10) + 10);
    const positions = link.of('playback.position').map((m) => m.time);
    expect(positions.length).toBeGreaterThanOrEqual(3);
    expect(positions.every((t) => t >= first!.start && t <= first!.end)).toBe(true);
  });

  it('at 4× transcodes to the template, skips the gap and keeps one timeline', async () => {
    const start = spans[0]!.start;
    const end = spans[1]!.end;
    const { link, file } = await playToEnd(spec(256, 144, 10, 300), 4, start, end, 2);
    expect(link.payloads(2).filter((p) => topLevelBoxes(p)[0] === 'ftyp')).toHaveLength(1);
    const probe = await probeFile(file);
    expect(probe).toMatchObject({ codec: 'h264', profile: 'Constrained Baseline', width: 256, height: 144 });
    const recordedSeconds = (spans[0]!.end - spans[0]!.start + spans[1]!.end - spans[1]!.start) / 1000;
    // 10 frames a played second, a played second = 4 recorded seconds; the gap plays as nothing.
    expect(probe.packets).toBeGreaterThanOrEqual(Math.floor((recordedSeconds / 4) * 10) - 6);
    expect(probe.packets).toBeLessThanOrEqual(Math.ceil((recordedSeconds / 4) * 10) + 6);
    const frames = await decodedFrames(file, 256, 144);
    const steps = frames.slice(1).map((f, i) => f.pts - frames[i]!.pts);
    expect(Math.max(...steps)).toBeLessThan(0.25);
    expect(Math.min(...steps)).toBeGreaterThan(0);
    const positions = link.of('playback.position').map((m) => m.time);
    expect(positions.some((t) => t >= spans[1]!.start)).toBe(true);
    // Never inside the gap. A span's last position may be its very end: the frame-rate filter can put
    // the last picture in a later output slot than the recording reaches, and the position is capped
    // at the span's end (as at 1×, where the end is a position like any other); the next run's first
    // is the second span's start. Under load the second ffmpeg starts late enough for the 1 s position
    // timer to send that capped end.
    const inGap = positions.filter((t) => t > spans[0]!.end && t < spans[1]!.start);
    expect(inGap).toEqual([]);
  });

  it('at 16× sends keyframes only', async () => {
    const { file } = await playToEnd(spec(320, 180, 10, 300), 16, spans[0]!.start, spans[1]!.end, 3);
    const probe = await probeFile(file);
    expect(probe.packets).toBeGreaterThan(0);
    expect(probe.keyframes).toHaveLength(probe.packets);
  });

  it('says noRecording for the time the camera was away', () => {
    const playback = new PlaybackStreams(recorder);
    const link = new FakeLink();
    playback.attach(link);
    playback.handle({ type: 'playback.start', streamId: 4, cameraId: CAMERA, encode: spec(320, 180, 10, 300), start: spans[0]!.end + 200, end: spans[1]!.start - 200, from: spans[0]!.end + 200, speed: 1 });
    expect(link.of('playback.failed')).toEqual([expect.objectContaining({ streamId: 4, code: 'noRecording' })]);
  });

  it('labels the frame it starts at with the time it was recorded: the keyframe at or before the requested time', async () => {
    const source = recorder.recording(CAMERA);
    if (!(source instanceof SegmentRecording)) throw new Error('not a segment recorder');
    // A whole segment inside the first span, asked for 0.6 s into it.
    const segment = source.recorder.index.all.find((s) => s.start > spans[0]!.start && s.end < spans[0]!.end && s.end - s.start >= 800);
    if (!segment) throw new Error('no whole segment');
    const requested = segment.start + 600;
    // What the file says: the last keyframe at or before 0.6 s.
    const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,flags', '-of', 'csv=p=0', join(source.recorder.index.dir, segment.file)]);
    // Times from the segment's first keyframe: where its start in the index lies.
    const stamps = stdout.trim().split('\n').filter((l) => l.includes('K')).map((l) => Number(l.split(',')[0]));
    const keyframes = stamps.map((t) => t - stamps[0]!);
    const truth = Math.max(...keyframes.filter((t) => t <= 0.6));
    const playback = new PlaybackStreams(recorder);
    const link = new FakeLink();
    playback.attach(link);
    playback.handle({ type: 'playback.start', streamId: 5, cameraId: CAMERA, encode: spec(256, 144, 10, 300), start: requested, end: segment.end, from: requested, speed: 1 });
    await expect.poll(() => link.of('playback.position').length, { timeout: 10_000 }).toBeGreaterThan(0);
    await playback.stopAll();
    const first = link.of('playback.position')[0]!.time;
    expect(first).toBeLessThan(requested);
    expect(Math.abs(first - (segment.start + truth * 1000))).toBeLessThanOrEqual(1);
  });
});
