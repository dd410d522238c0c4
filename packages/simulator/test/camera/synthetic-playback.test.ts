import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EncodeSpec, PlaybackSpeed } from '@ship-cctv/protocol';
import { CameraSources, PlaybackStreams, type PlaybackStreamsOptions, ShipRecorder } from '@ship-cctv/agent';
import { MAX_FRAME_PAYLOAD_BYTES } from '../../../../apps/agent/src/playback/playback-streams.ts';
import { probeFile, processGone, spec, tempDir, topLevelBoxes } from '../../../../apps/agent/test/media/helpers.ts';
import { FakeLink, decodedFrames, pickRanges, writeStream } from '../../../../apps/agent/test/playback/helpers.ts';
import { syntheticCameras } from '../../src/camera/synthetic-camera.ts';

const CAMERA = 'S1-C01-1';
const ENCODE: EncodeSpec = spec(320, 180, 10, 300);
const WEEK = 7 * 24 * 3_600_000;
const tmp = tempDir('synthetic-playback-');

let recorder: ShipRecorder;
let recorded: number;
let gap: { start: number; end: number };
beforeAll(() => {
  recorder = new ShipRecorder(new CameraSources([{ cameraId: CAMERA, source: 'synthetic', name: 'Bridge' }], { kinds: [syntheticCameras()] }));
  recorder.start();
  const now = Date.now();
  ({ recorded, gap } = pickRanges(recorder.spans(CAMERA, now - WEEK, now) ?? [], 10 * 60_000));
});
afterAll(async () => {
  await recorder.stop();
  tmp.remove();
});

const made: PlaybackStreams[] = [];
function setup(opts: PlaybackStreamsOptions = {}): { playback: PlaybackStreams; link: FakeLink } {
  const playback = new PlaybackStreams(recorder, opts);
  const link = new FakeLink();
  playback.attach(link);
  made.push(playback);
  return { playback, link };
}
afterEach(async () => {
  await Promise.all(made.splice(0).map((p) => p.stopAll()));
});

const play = (p: PlaybackStreams, streamId: number, start: number, end: number, speed: PlaybackSpeed, from = start) =>
  p.handle({ type: 'playback.start', streamId, cameraId: CAMERA, encode: ENCODE, start, end, from, speed });

describe('playback of the synthetic camera’s recording', () => {
  it('at 1×: fMP4 (init first) whose frames show the recorded times of the range, with positions, then ended', async () => {
    const { playback, link } = setup();
    const start = recorded;
    const end = start + 3_000;
    const t0 = Date.now();
    play(playback, 1, start, end, 1);
    await expect.poll(() => link.of('playback.ended').length, { timeout: 15_000 }).toBe(1);
    const took = Date.now() - t0;
    // Paced in played time: 3 s of recording take about 3 s.
    expect(took).toBeGreaterThan(2_500);
    expect(link.json[0]).toEqual({ type: 'playback.started', streamId: 1 });
    expect(link.json.at(-1)).toEqual({ type: 'playback.ended', streamId: 1 });
    const payloads = link.payloads(1);
    expect(topLevelBoxes(payloads[0]!)).toEqual(['ftyp', 'moov']);
    expect(payloads.slice(1).every((p) => topLevelBoxes(p).join() === 'moof,mdat')).toBe(true);

    const file = writeStream(link, 1, join(tmp.dir, 'one.mp4'));
    const probe = await probeFile(file);
    expect(probe).toMatchObject({ codec: 'h264', width: 320, height: 180, packets: 30 });
    const frames = await decodedFrames(file, 320, 180);
    expect(frames).toHaveLength(30);
    for (const [i, f] of frames.entries()) {
      expect(f.code).toBe(start + i * 100);
      expect(f.pts).toBeCloseTo(i * 0.1, 3);
    }
    const positions = link.of('playback.position').map((m) => m.time);
    expect(positions.length).toBeGreaterThanOrEqual(3);
    expect(positions.every((t) => t >= start && t < end)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(positions.at(-1)).toBe(start + 2_900);
    expect(playback.activeStreamIds).toEqual([]);
  });

  it('at 16×: the clock runs 16× faster, frames are keyframes at a decimated rate, far fewer bytes than 16 × bitrate', async () => {
    const { link, playback } = setup();
    const start = recorded;
    const end = start + 64_000; // 4 s of playing
    const t0 = Date.now();
    play(playback, 2, start, end, 16);
    await expect.poll(() => link.of('playback.ended').length, { timeout: 20_000 }).toBe(1);
    const playedSeconds = (Date.now() - t0) / 1000;
    expect(playedSeconds).toBeGreaterThan(3);
    const file = writeStream(link, 2, join(tmp.dir, 'sixteen.mp4'));
    const probe = await probeFile(file);
    expect(probe.keyframes).toHaveLength(probe.packets);
    const frames = await decodedFrames(file, 320, 180);
    // 10 fps × 4 ÷ 16 → 3 frames a played second, each 16/3 s of recording apart.
    expect(frames).toHaveLength(12);
    for (const [i, f] of frames.entries()) {
      expect(f.code).toBeGreaterThanOrEqual(start);
      expect(f.code).toBeLessThan(end);
      expect(Math.abs(f.code! - (start + (i * 16_000) / 3))).toBeLessThanOrEqual(1);
    }
    const bytesPerPlayedSecond = link.bytes(2) / 4;
    const naive = (16 * ENCODE.bitrateKbps * 1000) / 8;
    expect(bytesPerPlayedSecond).toBeLessThan(naive / 10);
  });

  it('skips a gap: the frames jump from before it to after it, and the played time runs on without a jump', async () => {
    const { link, playback } = setup();
    const start = gap.start - 2_000;
    const end = gap.end + 2_000;
    play(playback, 3, start, end, 1);
    await expect.poll(() => link.of('playback.ended').length, { timeout: 20_000 }).toBe(1);
    expect(link.of('playback.failed')).toEqual([]);
    // One init segment for the whole playback.
    expect(link.payloads(3).filter((p) => topLevelBoxes(p)[0] === 'ftyp')).toHaveLength(1);
    const frames = await decodedFrames(writeStream(link, 3, join(tmp.dir, 'gap.mp4')), 320, 180);
    expect(frames).toHaveLength(40);
    const codes = frames.map((f) => f.code!);
    expect(codes.filter((c) => c >= gap.start && c < gap.end)).toEqual([]);
    expect(codes.slice(0, 20)).toEqual(Array.from({ length: 20 }, (_, i) => start + i * 100));
    expect(codes.slice(20)).toEqual(Array.from({ length: 20 }, (_, i) => gap.end + i * 100));
    frames.forEach((f, i) => expect(f.pts).toBeCloseTo(i * 0.1, 3));
    expect(link.of('playback.position').some((m) => m.time >= gap.end)).toBe(true);
  });

  it('pauses without sending and resumes where it left off', async () => {
    const { link, playback } = setup();
    const start = recorded;
    play(playback, 4, start, start + 60_000, 1);
    await expect.poll(() => link.payloads(4).length, { timeout: 10_000 }).toBeGreaterThan(10);
    const [pid] = playback.pids();
    playback.handle({ type: 'playback.pause', streamId: 4 });
    const sent = link.payloads(4).length;
    const messages = link.json.length;
    await new Promise((r) => setTimeout(r, 1_500));
    expect(link.payloads(4).length).toBe(sent);
    expect(link.json.length).toBe(messages);
    expect(processGone(pid!)).toBe(true);
    expect(playback.stats()).toEqual([expect.objectContaining({ streamId: 4, paused: true })]);

    playback.handle({ type: 'playback.resume', streamId: 4 });
    await expect.poll(() => link.payloads(4).length, { timeout: 10_000 }).toBeGreaterThan(sent + 10);
    playback.handle({ type: 'playback.stop', streamId: 4 });
    const frames = await decodedFrames(writeStream(link, 4, join(tmp.dir, 'pause.mp4')), 320, 180);
    // No frame lost or repeated across the pause, and played time runs on.
    frames.forEach((f, i) => {
      expect(f.code).toBe(start + i * 100);
      expect(f.pts).toBeCloseTo(i * 0.1, 3);
    });
    expect(link.payloads(4).filter((p) => topLevelBoxes(p)[0] === 'ftyp')).toHaveLength(1);
  });

  it('stops on request: the process ends and nothing more is sent', async () => {
    const { link, playback } = setup();
    play(playback, 5, recorded, recorded + 60_000, 4);
    await expect.poll(() => link.payloads(5).length, { timeout: 10_000 }).toBeGreaterThan(3);
    const [pid] = playback.pids();
    playback.handle({ type: 'playback.stop', streamId: 5 });
    expect(playback.activeStreamIds).toEqual([]);
    const sent = link.log.length;
    await expect.poll(() => processGone(pid!), { timeout: 5_000 }).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(link.log.length).toBe(sent);
  });

  it('says noRecording for a range inside a gap or outside the window, and playbackFailed for bad requests', async () => {
    const { link, playback } = setup();
    play(playback, 6, gap.start + 1_000, gap.end - 1_000, 1);
    play(playback, 7, Date.now() - 2 * WEEK, Date.now() - WEEK - 60_000, 16);
    play(playback, 8, recorded, recorded + 1_000, 3 as PlaybackSpeed);
    playback.handle({ type: 'playback.start', streamId: 9, cameraId: 'S9-C99-9', encode: ENCODE, start: recorded, end: recorded + 1_000, from: recorded, speed: 1 });
    playback.handle({ type: 'playback.start', streamId: 10, cameraId: CAMERA, encode: { ...ENCODE, width: 321 }, start: recorded, end: recorded + 1_000, from: recorded, speed: 1 });
    const failed = link.of('playback.failed');
    expect(failed.map((f) => [f.streamId, f.code])).toEqual([
      [6, 'noRecording'],
      [7, 'noRecording'],
      [8, 'playbackFailed'],
      [9, 'playbackFailed'],
      [10, 'playbackFailed'],
    ]);
    expect(failed[2]!.message).toMatch(/speed 3/);
    expect(failed[3]!.message).toMatch(/S9-C99-9/);
    expect(playback.pids()).toEqual([]);
  });

  it('says playbackFailed when ffmpeg fails, with its reason', async () => {
    const { link, playback } = setup({ ffmpegCommand: 'false' });
    play(playback, 11, recorded, recorded + 5_000, 1);
    await expect.poll(() => link.of('playback.failed').length, { timeout: 10_000 }).toBe(1);
    expect(link.of('playback.failed')[0]).toMatchObject({ streamId: 11, code: 'playbackFailed', message: expect.stringMatching(/exited with code 1/) as string });
    expect(playback.activeStreamIds).toEqual([]);
  });

  it('sends a fragment larger than one link frame as slices that join back into the whole stream', async () => {
    expect(MAX_FRAME_PAYLOAD_BYTES).toBeLessThanOrEqual(64 * 1024);
    // A small frame limit stands in for big keyframes: the 320×180 keyframes do not fit 2 KiB.
    const max = 2 * 1024;
    const { link, playback } = setup({ maxFramePayloadBytes: max });
    const start = recorded;
    play(playback, 14, start, start + 2_000, 1);
    await expect.poll(() => link.of('playback.ended').length, { timeout: 15_000 }).toBe(1);
    const payloads = link.payloads(14);
    expect(payloads.every((p) => p.length > 0 && p.length <= max)).toBe(true);
    const stream = Buffer.concat(payloads);
    const boxes = boxSizes(stream);
    expect(boxes.reduce((n, b) => n + b.size, 0)).toBe(stream.length);
    expect(Math.max(...boxes.filter((b) => b.type === 'mdat').map((b) => b.size))).toBeGreaterThan(max);
    // Every recorded frame of the range, in order.
    const frames = await decodedFrames(writeStream(link, 14, join(tmp.dir, 'sliced.mp4')), 320, 180);
    expect(frames.map((f) => f.code)).toEqual(Array.from({ length: 20 }, (_, i) => start + i * 100));
  });

  it('drops whole fragments while the uplink queue is over its bound and resumes at a keyframe', async () => {
    const { link, playback } = setup({ queueLimitBytes: () => 50_000 });
    play(playback, 12, recorded, recorded + 60_000, 1);
    await expect.poll(() => link.payloads(12).length, { timeout: 10_000 }).toBeGreaterThan(3);
    link.buffered = 80_000;
    await new Promise((r) => setTimeout(r, 300));
    const sent = link.payloads(12).length;
    await new Promise((r) => setTimeout(r, 1_000));
    expect(link.payloads(12).length).toBe(sent);
    expect(playback.stats()[0]!.droppedFragments).toBeGreaterThan(5);
    link.buffered = 0;
    await expect.poll(() => link.payloads(12).length, { timeout: 5_000 }).toBeGreaterThan(sent + 2);
    playback.handle({ type: 'playback.stop', streamId: 12 });
    const file = writeStream(link, 12, join(tmp.dir, 'drop.mp4'));
    const frames = await decodedFrames(file, 320, 180);
    // Decodable throughout; after the hole the codes jump ahead by the dropped time.
    expect(frames.every((f) => f.code !== undefined)).toBe(true);
    const jumps = frames.slice(1).filter((f, i) => f.code! - frames[i]!.code! > 100);
    expect(jumps.length).toBe(1);
  });
});

/** Top-level MP4 boxes of a byte stream: type and size. */
function boxSizes(buf: Buffer): { type: string; size: number }[] {
  const boxes: { type: string; size: number }[] = [];
  for (let off = 0; off + 8 <= buf.length; ) {
    const size = buf.readUInt32BE(off);
    if (size < 8) break;
    boxes.push({ type: buf.toString('latin1', off + 4, off + 8), size });
    off += size;
  }
  return boxes;
}
