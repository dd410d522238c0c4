import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type AgentStreamMessage, BINARY_KIND, decodeStreamFrame } from '@ship-cctv/protocol';
import { RelaySplitter, type InitSegment, type MediaFragment } from '../../../../apps/server/src/core/media/fmp4.ts';
import { type CameraConfig, CameraSources, type InputProbe, type LiveLink, LiveStreams, type LiveStreamsOptions, type UrlCameraOptions } from '@ship-cctv/agent';
import { isSyncSample, readFirstSampleFlags, readProducerTime } from '@ship-cctv/media';
import { syntheticCameras } from '@ship-cctv/simulator';
import { failureMessage } from '../../../../apps/agent/src/media/live-streams.ts';
import { makeClip, processGone, spec, tempDir, topLevelBoxes } from '../../../../apps/agent/test/media/helpers.ts';

/** A socket stand-in: records what is sent, in order, and lets the test set the queue. */
class FakeLink implements LiveLink {
  readonly log: ({ json: AgentStreamMessage } | { binary: { kind: number; streamId: number; payload: Uint8Array } })[] = [];
  buffered = 0;
  sendJson(json: AgentStreamMessage): void {
    this.log.push({ json });
  }
  sendBinary(frame: Uint8Array): void {
    const decoded = decodeStreamFrame(frame);
    if (!decoded) throw new Error('short frame');
    this.log.push({ binary: decoded });
  }
  bufferedAmount(): number {
    return this.buffered;
  }
  get json(): AgentStreamMessage[] {
    return this.log.flatMap((e) => ('json' in e ? [e.json] : []));
  }
  get payloads(): Uint8Array[] {
    return this.log.flatMap((e) => ('binary' in e ? [e.binary.payload] : []));
  }
  of<T extends AgentStreamMessage['type']>(type: T): Extract<AgentStreamMessage, { type: T }>[] {
    return this.json.filter((m): m is Extract<AgentStreamMessage, { type: T }> => m.type === type);
  }
}

const CAMERAS: CameraConfig[] = [
  { cameraId: 'S1-C01-1', source: 'synthetic', name: 'Bridge' },
  { cameraId: 'S1-C02-1', source: '/nonexistent/deck.mp4' },
  { cameraId: 'S1-C03-1', source: 'rtsp://admin:secret@127.0.0.1:9/stream' },
];
const ENCODE = spec(320, 180, 10, 400);
const FITS: InputProbe = { codec: 'h264', width: 320, height: 180, frameRate: 10 };

/** A fragment payload (moof+mdat) whose first sample is a sync sample. */
function isKeyframe(payload: Uint8Array): boolean {
  const flags = readFirstSampleFlags(payload);
  return flags !== undefined && isSyncSample(flags);
}

/** The cameras as the agent reads them: the synthetic one by the simulator, the others as URL cameras (ffprobe replaceable). */
const sourcesOf = (cameras: CameraConfig[], probe?: UrlCameraOptions['probe']) => new CameraSources(cameras, { kinds: [syntheticCameras()], ...(probe ? { url: { probe } } : {}) });

const made: LiveStreams[] = [];
function setup({ probe, ...opts }: LiveStreamsOptions & { probe?: UrlCameraOptions['probe'] } = {}): { streams: LiveStreams; link: FakeLink } {
  const streams = new LiveStreams(sourcesOf(CAMERAS, probe), { reportEveryMs: 100, ...opts });
  const link = new FakeLink();
  streams.attach(link);
  made.push(streams);
  return { streams, link };
}
afterEach(async () => {
  await Promise.all(made.splice(0).map((s) => s.stopAll()));
});

describe('LiveStreams', () => {
  it('starts a synthetic camera: live.started, then the init segment and fragments tagged with the stream id', async () => {
    const { streams, link } = setup();
    streams.handle({ type: 'live.start', streamId: 7, cameraId: 'S1-C01-1', encode: ENCODE });
    await expect.poll(() => link.payloads.length, { timeout: 10_000 }).toBeGreaterThan(5);
    expect(link.log[0]).toEqual({ json: { type: 'live.started', streamId: 7 } });
    const binaries = link.log.flatMap((e) => ('binary' in e ? [e.binary] : []));
    expect(binaries.every((b) => b.kind === BINARY_KIND.live && b.streamId === 7)).toBe(true);
    expect(topLevelBoxes(binaries[0]!.payload)).toEqual(['ftyp', 'moov']);
    // Each picture says when it left the encoder (prft) before its moof + mdat.
    expect(topLevelBoxes(binaries[1]!.payload)).toEqual(['prft', 'moof', 'mdat']);
    expect(Math.abs(Date.now() - (readProducerTime(binaries[1]!.payload)?.wallMs ?? 0))).toBeLessThan(10_000);
    expect(streams.activeStreamIds).toEqual([7]);

    const [pid] = streams.pids();
    streams.handle({ type: 'live.stop', streamId: 7 });
    expect(streams.activeStreamIds).toEqual([]);
    await expect.poll(() => link.of('live.ended')).toEqual([{ type: 'live.ended', streamId: 7, reason: 'stopped' }]);
    expect(processGone(pid!)).toBe(true);
    expect(streams.pids()).toEqual([]);
  });

  it('fails an unknown camera and a definition it cannot encode', () => {
    const { streams, link } = setup();
    streams.handle({ type: 'live.start', streamId: 1, cameraId: 'S9-C99-9', encode: ENCODE });
    streams.handle({ type: 'live.start', streamId: 2, cameraId: 'S1-C01-1', encode: { ...ENCODE, width: 321 } });
    expect(link.json).toEqual([
      { type: 'live.failed', streamId: 1, message: 'unknown camera S9-C99-9' },
      { type: 'live.failed', streamId: 2, message: 'bad encoding request: size 321×180 is not an even size within 16–4096' },
    ]);
    expect(streams.activeStreamIds).toEqual([]);
  });

  it('fails a URL camera that does not answer its probe, with ffprobe’s words', async () => {
    const { streams, link } = setup();
    streams.handle({ type: 'live.start', streamId: 3, cameraId: 'S1-C02-1', encode: ENCODE });
    await expect.poll(() => link.of('live.failed').length, { timeout: 10_000 }).toBe(1);
    expect(link.of('live.failed')[0]!.message).toMatch(/^camera S1-C02-1 did not answer: .*No such file or directory/);
  });

  it('fails with ffmpeg’s stderr tail when the camera breaks after the probe, without leaking its password', async () => {
    const { streams, link } = setup({ probe: async () => FITS });
    streams.handle({ type: 'live.start', streamId: 4, cameraId: 'S1-C03-1', encode: ENCODE });
    await expect.poll(() => link.of('live.failed').length, { timeout: 10_000 }).toBe(1);
    const { message } = link.of('live.failed')[0]!;
    expect(message).toMatch(/^ffmpeg exited with code \d+: .*Connection refused/s);
    expect(message).not.toContain('secret');
    expect(streams.activeStreamIds).toEqual([]);
  });

  it('reports the uplink queue every interval while a stream runs, in ms of the stream’s bitrate', async () => {
    const { streams, link } = setup();
    link.buffered = 50_000;
    streams.handle({ type: 'live.start', streamId: 5, cameraId: 'S1-C01-1', encode: ENCODE });
    await expect.poll(() => link.of('link.queue').length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    // 50 000 bytes at 400 kbit/s
    expect(link.of('link.queue')[0]).toEqual({ type: 'link.queue', bufferedBytes: 50_000, queuedMs: 1_000 });
    streams.handle({ type: 'live.stop', streamId: 5 });
    await expect.poll(() => link.of('live.ended').length).toBe(1);
    const reports = link.of('link.queue').length;
    await new Promise((r) => setTimeout(r, 300));
    expect(link.of('link.queue').length).toBe(reports);
  });

  it('drops whole fragments past the queue bound and resumes at a keyframe once it drains', async () => {
    const { streams, link } = setup({ minQueueBytes: 100_000, maxQueueSeconds: 1 });
    streams.handle({ type: 'live.start', streamId: 6, cameraId: 'S1-C01-1', encode: ENCODE });
    await expect.poll(() => link.payloads.length, { timeout: 10_000 }).toBeGreaterThan(3);
    link.buffered = 150_000; // over max(100 000 B, 1 s × 50 000 B/s)
    const sentBefore = link.payloads.length;
    const reportsBefore = link.of('link.queue').length;
    // The next fragment is dropped and shore hears at once how far behind the ship is.
    await expect.poll(() => link.of('link.queue').length).toBeGreaterThan(reportsBefore);
    await new Promise((r) => setTimeout(r, 500));
    expect(link.payloads.length).toBe(sentBefore);
    expect(streams.stats()).toEqual([expect.objectContaining({ streamId: 6, dropping: true, droppedFragments: expect.any(Number) as number })]);
    expect(streams.stats()[0]!.droppedFragments).toBeGreaterThan(3);
    link.buffered = 0;
    await expect.poll(() => link.payloads.length, { timeout: 5_000 }).toBeGreaterThan(sentBefore + 2);
    const resumed = link.payloads.slice(sentBefore);
    expect(resumed.map((p) => topLevelBoxes(p).join('+'))).toEqual(resumed.map(() => 'prft+moof+mdat'));
    expect(resumed.map(isKeyframe).slice(0, 2)).toEqual([true, false]);
  });

  it('answers a stop for a stream it does not have, and a stop while the camera is still being probed', async () => {
    let release!: () => void;
    const { streams, link } = setup({ probe: () => new Promise<InputProbe>((resolve) => (release = () => resolve(FITS))) });
    streams.handle({ type: 'live.stop', streamId: 40 });
    streams.handle({ type: 'live.start', streamId: 41, cameraId: 'S1-C02-1', encode: ENCODE });
    streams.handle({ type: 'live.stop', streamId: 41 });
    release();
    await new Promise((r) => setTimeout(r, 200));
    expect(link.json).toEqual([
      { type: 'live.ended', streamId: 40, reason: 'not running' },
      { type: 'live.ended', streamId: 41, reason: 'stopped' },
    ]);
    expect(streams.pids()).toEqual([]);
  });

  it('ends every stream without a word when the link goes, and ignores requests until a new one', async () => {
    const { streams, link } = setup();
    streams.handle({ type: 'live.start', streamId: 8, cameraId: 'S1-C01-1', encode: ENCODE });
    streams.handle({ type: 'live.start', streamId: 9, cameraId: 'S1-C01-1', encode: spec(640, 360, 15, 400) });
    await expect.poll(() => link.of('live.started').length, { timeout: 10_000 }).toBe(2);
    const pids = streams.pids();
    expect(pids).toHaveLength(2);
    const before = link.json.length;
    streams.detach();
    await expect.poll(() => pids.every(processGone), { timeout: 5_000 }).toBe(true);
    expect(streams.activeStreamIds).toEqual([]);
    expect(link.json.length).toBe(before);
    streams.handle({ type: 'live.start', streamId: 10, cameraId: 'S1-C01-1', encode: ENCODE });
    expect(streams.activeStreamIds).toEqual([]);
  });

  it('replaces a stream when shore starts the same id again', async () => {
    const { streams, link } = setup();
    streams.handle({ type: 'live.start', streamId: 11, cameraId: 'S1-C01-1', encode: ENCODE });
    await expect.poll(() => link.of('live.started').length, { timeout: 10_000 }).toBe(1);
    const [first] = streams.pids();
    streams.handle({ type: 'live.start', streamId: 11, cameraId: 'S1-C01-1', encode: spec(640, 360, 15, 400) });
    await expect.poll(() => link.of('live.started').length, { timeout: 10_000 }).toBe(2);
    await expect.poll(() => processGone(first!)).toBe(true);
    expect(streams.pids()).toHaveLength(1);
    expect(link.of('live.ended')).toEqual([]);
  });
});

describe('LiveStreams output as shore reads it', () => {
  const tmp = tempDir('live-streams-');
  afterAll(() => tmp.remove());

  /** Runs one stream until `count` payloads came, stops it, and splits them as the relay does. */
  async function capture(cameras: CameraConfig[], cameraId: string, count: number, opts: LiveStreamsOptions = {}): Promise<{ init: InitSegment; fragments: MediaFragment[] }> {
    const streams = new LiveStreams(sourcesOf(cameras), { reportEveryMs: 100, ...opts });
    made.push(streams);
    const link = new FakeLink();
    streams.attach(link);
    streams.handle({ type: 'live.start', streamId: 1, cameraId, encode: ENCODE });
    await expect.poll(() => link.payloads.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(count);
    streams.handle({ type: 'live.stop', streamId: 1 });
    const units = new RelaySplitter().push(Buffer.concat(link.payloads));
    const init = units.find((u): u is InitSegment => u.kind === 'init');
    if (!init) throw new Error('no init segment');
    return { init, fragments: units.filter((u): u is MediaFragment => u.kind === 'fragment') };
  }

  const expectSteadyDecodeTimes = (fragments: MediaFragment[]) => {
    for (let i = 1; i < fragments.length; i++) {
      expect(fragments[i]!.baseMediaDecodeTime).toBeGreaterThan(fragments[i - 1]!.baseMediaDecodeTime);
      expect(fragments[i]!.sequenceNumber).toBe(fragments[i - 1]!.sequenceNumber + 1);
    }
  };

  it('a synthetic camera: Constrained Baseline at the template’s size, 1/fps per frame, starting at a keyframe', async () => {
    const { init, fragments } = await capture(CAMERAS, 'S1-C01-1', 6);
    expect(init).toMatchObject({ width: 320, height: 180 });
    expect(init.codec).toMatch(/^avc1\.42c0[0-9a-f]{2}$/);
    expect(fragments[0]!.keyframe).toBe(true);
    expect(fragments.map((f) => f.baseMediaDecodeTime / init.timescale)).toEqual(fragments.map((_, i) => i / ENCODE.frameRate));
    expect(fragments.every((f) => f.duration === init.timescale / ENCODE.frameRate && f.sampleCount === 1)).toBe(true);
  });

  it('the same from ffmpeg’s own MP4 muxer when asked (output fmp4)', async () => {
    const { init, fragments } = await capture(CAMERAS, 'S1-C01-1', 4, { output: 'fmp4' });
    expect(init).toMatchObject({ width: 320, height: 180 });
    expect(init.codec).toMatch(/^avc1\.42c0[0-9a-f]{2}$/);
    expect(fragments[0]!.keyframe).toBe(true);
    expectSteadyDecodeTimes(fragments);
  });

  it('a URL camera that fits the template: its own H.264 (High, B-frames) copied and repackaged', async () => {
    const clip = await makeClip(join(tmp.dir, 'deck.mp4'), { width: 320, height: 180, rate: 10, seconds: 3 });
    const { init, fragments } = await capture([{ cameraId: 'S1-C04-1', source: clip }], 'S1-C04-1', 8);
    // The clip's High profile: nothing was re-encoded.
    expect(init.codec).toMatch(/^avc1\.64/);
    expect(init).toMatchObject({ width: 320, height: 180 });
    expect(fragments[0]!.keyframe).toBe(true);
    expectSteadyDecodeTimes(fragments);
  });
});

describe('failureMessage', () => {
  it('blanks URL credentials and caps the length', () => {
    expect(failureMessage('x', 'rtsp://user:pw@10.0.0.1/s: refused')).toBe('x: rtsp://***@10.0.0.1/s: refused');
    const long = failureMessage('boom', 'y'.repeat(10_000));
    expect(long.length).toBeLessThanOrEqual(2_400);
    expect(long.startsWith('boom: yyy')).toBe(true);
  });
});
