import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type AgentStreamMessage, decodeStreamFrame } from '@ship-cctv/protocol';
import { RelaySplitter, type InitSegment, type MediaFragment } from '../../../../apps/server/src/core/media/fmp4.ts';
import { type CameraConfig, CameraSources, type LiveLink, LiveStreams } from '@ship-cctv/agent';
import { SPEAKER_SAMPLE_RATE, SyntheticCamera, syntheticCameras } from '@ship-cctv/simulator';
import { run, spec, tempDir } from '../../../../apps/agent/test/media/helpers.ts';

/** A socket stand-in that keeps the payloads in order. */
class FakeLink implements LiveLink {
  readonly json: AgentStreamMessage[] = [];
  readonly payloads: Uint8Array[] = [];
  sendJson(json: AgentStreamMessage): void {
    this.json.push(json);
  }
  sendBinary(frame: Uint8Array): void {
    const decoded = decodeStreamFrame(frame);
    if (!decoded) throw new Error('short frame');
    this.payloads.push(decoded.payload);
  }
  buffered = 0;
  bufferedAmount(): number {
    return this.buffered;
  }
}

const CAMERAS: CameraConfig[] = [{ cameraId: 'S1-C01-1', source: 'synthetic', name: 'Bridge' }];
const ENCODE = spec(320, 180, 10, 200);
const tmp = tempDir('live-audio-');
afterAll(() => tmp.remove());

const made: LiveStreams[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((s) => s.stopAll()));
});

/** The synthetic camera as the agent reads it, and the camera itself (its speaker feed). */
function syntheticSources(): { sources: CameraSources; camera: SyntheticCamera } {
  const sources = new CameraSources(CAMERAS, { kinds: [syntheticCameras()] });
  const camera = sources.get('S1-C01-1');
  if (!(camera instanceof SyntheticCamera)) throw new Error('not the synthetic camera');
  return { sources, camera };
}

/** Runs the synthetic camera live for `seconds` with sound on or off; what went up the link. */
async function liveFor(audio: boolean, seconds: number, during?: (camera: SyntheticCamera) => void) {
  const { sources, camera } = syntheticSources();
  const streams = new LiveStreams(sources);
  made.push(streams);
  const link = new FakeLink();
  streams.attach(link);
  streams.handle({ type: 'live.start', streamId: 1, cameraId: 'S1-C01-1', encode: ENCODE, audio });
  await expect.poll(() => link.payloads.length, { timeout: 15_000 }).toBeGreaterThan(2);
  during?.(camera);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const stats = streams.stats()[0];
  streams.handle({ type: 'live.stop', streamId: 1 });
  const units = new RelaySplitter().push(Buffer.concat(link.payloads));
  const init = units.find((u): u is InitSegment => u.kind === 'init');
  const fragments = units.filter((u): u is MediaFragment => u.kind === 'fragment');
  return { init, fragments, stats, sent: streams.audioBytesSent, bytes: Buffer.concat(link.payloads) };
}

/** The stream's sound, decoded by ffmpeg to s16 mono at 16 kHz. */
async function decodeSound(bytes: Buffer, name: string): Promise<Int16Array> {
  const file = join(tmp.dir, `${name}.mp4`);
  writeFileSync(file, bytes);
  const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', file, '-map', '0:a:0', '-f', 's16le', '-ac', '1', '-ar', String(SPEAKER_SAMPLE_RATE), 'pipe:1'], {
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
  });
  const pcm = stdout as unknown as Buffer;
  return new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.length));
}

/** Goertzel: the power of `hz` in a block of samples, normalised by its length. */
function powerAt(pcm: Int16Array, hz: number, from = 0, to = pcm.length): number {
  const k = (2 * Math.cos((2 * Math.PI * hz) / SPEAKER_SAMPLE_RATE));
  let s1 = 0;
  let s2 = 0;
  for (let i = from; i < to; i++) {
    const s0 = (pcm[i] as number) + k * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return (s1 * s1 + s2 * s2 - k * s1 * s2) / (to - from) ** 2;
}

describe('live sound of the synthetic camera', () => {
  it('with audio on: both tracks in one stream, the sound riding in the picture fragments, counted', async () => {
    const { init, fragments, stats, sent, bytes } = await liveFor(true, 3);
    expect(init?.codecs).toEqual([expect.stringMatching(/^avc1\./), 'mp4a.40.2']);
    expect(init?.tracks.find((t) => t.kind === 'audio')).toMatchObject({ sampleRate: 16_000, channels: 1, timescale: 16_000 });
    // Every fragment is a picture (one moof per picture), most carry sound frames as well.
    expect(fragments.every((f) => f.sampleCount === 1)).toBe(true);
    const soundRuns = fragments.flatMap((f) => f.tracks.filter((t) => t.trackId === 2));
    expect(soundRuns.length).toBeGreaterThan(fragments.length / 2);
    const soundBytes = soundRuns.reduce((n, r) => n + r.bytes, 0);
    expect(soundBytes).toBeGreaterThan(3 * 1000); // ~2.5 kB/s at 20 kbit/s
    expect(sent).toBe(soundBytes);
    expect(stats?.audioBytes).toBeLessThanOrEqual(soundBytes);
    // Continuous sound: each run starts where the previous one ended.
    for (let i = 1; i < soundRuns.length; i++) expect(soundRuns[i]!.baseMediaDecodeTime).toBe(soundRuns[i - 1]!.baseMediaDecodeTime + soundRuns[i - 1]!.duration);
    // Sound and picture share a time line: the sound ends within half a second of the pictures.
    const last = fragments.at(-1)!;
    const videoEnd = (last.baseMediaDecodeTime + last.duration) / 90_000;
    const soundEnd = (soundRuns.at(-1)!.baseMediaDecodeTime + soundRuns.at(-1)!.duration) / 16_000;
    expect(Math.abs(videoEnd - soundEnd)).toBeLessThan(0.5);

    // The hum is there (50 Hz), and the ticks come once a second.
    const pcm = await decodeSound(bytes, 'on');
    expect(powerAt(pcm, 50)).toBeGreaterThan(100 * powerAt(pcm, 1000));
    const block = 160;
    const tickAt: number[] = [];
    for (let i = 0; i + block <= pcm.length; i += block) if (powerAt(pcm, 2000, i, i + block) > 1e6) tickAt.push(i / SPEAKER_SAMPLE_RATE);
    const onsets = tickAt.filter((t, i) => i === 0 || t - (tickAt[i - 1] as number) > 0.5);
    expect(onsets.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < onsets.length; i++) expect((onsets[i] as number) - (onsets[i - 1] as number)).toBeCloseTo(1, 1);
  }, 40_000);

  it('with audio off: no sound track, no sound bytes', async () => {
    const { init, fragments, sent } = await liveFor(false, 1.5);
    expect(init?.codecs).toEqual([expect.stringMatching(/^avc1\./)]);
    expect(init?.tracks.map((t) => t.kind)).toEqual(['video']);
    expect(fragments.length).toBeGreaterThan(5);
    expect(fragments.every((f) => f.tracks.length === 1)).toBe(true);
    expect(sent).toBe(0);
  }, 30_000);

  it("mixes the camera's speaker feed in: a 1 kHz tone pushed on the ship comes out in the sound", async () => {
    const tone = new Int16Array(SPEAKER_SAMPLE_RATE * 1.5).map((_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 1000 * i) / SPEAKER_SAMPLE_RATE)));
    const withTone = await liveFor(true, 3, (camera) => camera.feed.push(tone));
    const pcm = await decodeSound(withTone.bytes, 'tone');
    const quiet = await liveFor(true, 3);
    const pcmQuiet = await decodeSound(quiet.bytes, 'quiet');
    // Over the whole stream the tone's 1.5 s dominate the quiet stream's 1 kHz by far.
    expect(powerAt(pcm, 1000)).toBeGreaterThan(100 * powerAt(pcmQuiet, 1000));
    // … and it is at least a second long somewhere (not a click).
    const block = 1600;
    let loud = 0;
    for (let i = 0; i + block <= pcm.length; i += block) if (powerAt(pcm, 1000, i, i + block) > 1e6) loud++;
    expect(loud).toBeGreaterThanOrEqual(10);
  }, 60_000);

  it('on a full uplink drops whole fragments with their sound and resumes at a keyframe, sound and picture on one time line', async () => {
    const streams = new LiveStreams(syntheticSources().sources, { minQueueBytes: 100_000, maxQueueSeconds: 0 });
    made.push(streams);
    const link = new FakeLink();
    streams.attach(link);
    streams.handle({ type: 'live.start', streamId: 1, cameraId: 'S1-C01-1', encode: ENCODE, audio: true });
    await expect.poll(() => link.payloads.length, { timeout: 15_000 }).toBeGreaterThan(10);
    link.buffered = 1_000_000; // the uplink is full: fragments are dropped …
    await new Promise((r) => setTimeout(r, 1_500));
    const sentWhileFull = link.payloads.length;
    link.buffered = 0; // … until a keyframe finds it drained
    await expect.poll(() => link.payloads.length, { timeout: 5_000 }).toBeGreaterThan(sentWhileFull + 15);
    expect(streams.stats()[0]?.droppedFragments).toBeGreaterThan(5);
    streams.handle({ type: 'live.stop', streamId: 1 });

    const units = new RelaySplitter().push(Buffer.concat(link.payloads));
    const fragments = units.filter((u): u is MediaFragment => u.kind === 'fragment');
    // The picture's time line has one gap (the dropped fragments); the first picture after it is a keyframe.
    const gapAt = fragments.findIndex((f, i) => i > 0 && f.baseMediaDecodeTime - fragments[i - 1]!.baseMediaDecodeTime > 2 * 9_000);
    expect(gapAt).toBeGreaterThan(0);
    expect(fragments[gapAt]?.keyframe).toBe(true);
    // The sound resumes with it: no sound from the dropped time, and where it resumes it is within
    // half a second of the picture (not squeezed back to where it stopped).
    const resumedPicture = fragments[gapAt]!.baseMediaDecodeTime / 90_000;
    const soundAfter = fragments.slice(gapAt).flatMap((f) => f.tracks.filter((t) => t.trackId === 2));
    const soundBefore = fragments.slice(0, gapAt).flatMap((f) => f.tracks.filter((t) => t.trackId === 2));
    expect(soundAfter.length).toBeGreaterThan(5);
    const resumedSound = soundAfter[0]!.baseMediaDecodeTime / 16_000;
    expect(Math.abs(resumedSound - resumedPicture)).toBeLessThan(0.5);
    const lastBefore = soundBefore.at(-1)!;
    expect(resumedSound - (lastBefore.baseMediaDecodeTime + lastBefore.duration) / 16_000).toBeGreaterThan(1);
  }, 40_000);
});
