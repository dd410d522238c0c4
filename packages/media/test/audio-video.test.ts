import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Fmp4Error,
  Fmp4Splitter,
  type Fmp4Unit,
  type InitSegment,
  type MediaFragment,
  mimeFor,
  parseInitSegment,
  readBaseDecodeTime,
  readVideoDecoderSetup,
  shiftDecodeTimes,
} from '../src/index.ts';

const run = promisify(execFile);
let dir: string;
const files: Record<string, Uint8Array> = {};

/** A test pattern with a 440 Hz tone, fragmented as the agent's encoders fragment: video + AAC or Opus. */
async function encode(name: string, audio: string[], video = ['-c:v', 'libx264', '-profile:v', 'baseline']): Promise<Uint8Array> {
  const file = join(dir, `${name}.mp4`);
  await run('ffmpeg', [
    '-v', 'error', '-y',
    '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=10',
    '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000',
    '-t', '2',
    // x264 and x265 at their fastest; SVT-AV1 numbers its presets (the args given pick one).
    ...video, '-pix_fmt', 'yuv420p', '-g', '10', ...(video.includes('libsvtav1') ? [] : ['-preset', 'ultrafast']), '-flags:v', '+global_header',
    ...audio,
    '-movflags', '+frag_keyframe+empty_moov+default_base_moof', '-frag_duration', '200000',
    '-f', 'mp4', file,
  ]);
  return new Uint8Array(await readFile(file));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'media-av-'));
  files.aac = await encode('aac', ['-c:a', 'aac', '-b:a', '64k', '-ac', '2']);
  files.opus = await encode('opus', ['-c:a', 'libopus', '-b:a', '32k', '-ac', '1']);
  files.hevc = await encode('hevc', ['-an'], ['-c:v', 'libx265', '-tag:v', 'hvc1', '-x265-params', 'log-level=none']);
  files.av1 = await encode('av1', ['-an'], ['-c:v', 'libsvtav1', '-preset', '12', '-svtav1-params', 'pred-struct=1:rc=2:lp=1', '-b:v', '32k']);
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function split(bytes: Uint8Array, splitter = new Fmp4Splitter()): Fmp4Unit[] {
  const out: Fmp4Unit[] = [];
  for (let at = 0; at < bytes.length; at += 1000) out.push(...splitter.push(bytes.subarray(at, at + 1000)));
  return out;
}
const inits = (units: Fmp4Unit[]) => units.filter((u): u is InitSegment => u.kind === 'init');
const fragments = (units: Fmp4Unit[]) => units.filter((u): u is MediaFragment => u.kind === 'fragment');

describe('a stream with sound', () => {
  it('keeps the audio track: both tracks, both codecs in the MIME type, video first', () => {
    const [init] = inits(split(files.aac ?? new Uint8Array()));
    expect(init?.tracks.map((t) => [t.kind, t.sampleEntry])).toEqual([
      ['video', 'avc1'],
      ['audio', 'mp4a'],
    ]);
    expect(init?.codecs).toEqual([init?.codec, 'mp4a.40.2']);
    expect(init?.codec).toMatch(/^avc1\.42c0[0-9a-f]{2}$/);
    expect(mimeFor(init ?? { codecs: [] })).toBe(`video/mp4; codecs="${init?.codec},mp4a.40.2"`);
    const audio = init?.tracks.find((t) => t.kind === 'audio');
    expect(audio).toMatchObject({ sampleRate: 48_000, channels: 2, timescale: 48_000 });
    expect(init).toMatchObject({ width: 320, height: 180, timescale: 10_240 });
  });

  it('reads Opus as opus', () => {
    const [init] = inits(split(files.opus ?? new Uint8Array()));
    expect(init?.codecs).toEqual([init?.codec, 'opus']);
    expect(init?.tracks.find((t) => t.kind === 'audio')).toMatchObject({ sampleEntry: 'Opus', channels: 1 });
  });

  it('describes each fragment by its video and lists every track run, sound covering the same time', () => {
    const units = split(files.aac ?? new Uint8Array());
    const [init] = inits(units);
    const frags = fragments(units);
    expect(frags.length).toBeGreaterThan(3);
    const audioId = init?.tracks.find((t) => t.kind === 'audio')?.trackId;
    let videoSeconds = 0;
    let audioSeconds = 0;
    for (const f of frags) {
      const video = f.tracks.find((t) => t.trackId === init?.trackId);
      expect(video).toBeDefined();
      expect(f.baseMediaDecodeTime).toBe(video?.baseMediaDecodeTime);
      expect(f.duration).toBe(video?.duration);
      videoSeconds += (video?.duration ?? 0) / (init?.timescale ?? 1);
      audioSeconds += (f.tracks.find((t) => t.trackId === audioId)?.duration ?? 0) / 48_000;
    }
    expect(frags.filter((f) => f.tracks.length === 2).length).toBeGreaterThan(frags.length / 2);
    expect(frags[0]?.keyframe).toBe(true);
    expect(videoSeconds).toBeCloseTo(2, 1);
    expect(Math.abs(audioSeconds - videoSeconds)).toBeLessThan(0.1);
  });

  it('moves every track of a fragment by the same time, each in its own timescale', () => {
    const units = split(files.aac ?? new Uint8Array());
    const [init] = inits(units);
    const frag = fragments(units)[2];
    if (!init || !frag) throw new Error('no fragment');
    const audioId = init.tracks.find((t) => t.kind === 'audio')?.trackId ?? 0;
    const before = [readBaseDecodeTime(frag.data, init.trackId) ?? 0, readBaseDecodeTime(frag.data, audioId) ?? 0];
    const scales = new Map(init.tracks.map((t) => [t.trackId, t.timescale]));
    shiftDecodeTimes(frag.data, (id) => 5 * (scales.get(id) ?? 0));
    expect(readBaseDecodeTime(frag.data, init.trackId)).toBe((before[0] ?? 0) + 5 * 10_240);
    expect(readBaseDecodeTime(frag.data, audioId)).toBe((before[1] ?? 0) + 5 * 48_000);
  });
});

describe('video codecs', () => {
  it('names H.265 by its hvcC (RFC 6381), and a relay that takes H.264 only refuses it', () => {
    const bytes = files.hevc ?? new Uint8Array();
    const [init] = inits(split(bytes));
    // Main profile (1), compatible with 1 and 2 (bit-reversed 0x6), Main tier, some level.
    expect(init?.codec).toMatch(/^hvc1\.1\.6\.L\d+(\.[0-9A-F]+)*$/);
    try {
      split(bytes, new Fmp4Splitter({ videoEntries: new Set(['avc1', 'avc3']) }));
      expect.unreachable('an H.265 stream passed an H.264-only splitter');
    } catch (err) {
      expect(err).toBeInstanceOf(Fmp4Error);
      expect((err as Fmp4Error).code).toBe('unsupported');
      expect((err as Fmp4Error).message).toMatch(/hvc1 is not avc1 or avc3/);
    }
  });

  it('names AV1 by its av1C (av01.profile.levelTier.depth) and gives WebCodecs its setup', () => {
    const bytes = files.av1 ?? new Uint8Array();
    const [init] = inits(split(bytes));
    // Main profile (0), a level for 320×180, Main tier, 8 bits.
    expect(init?.codec).toMatch(/^av01\.0\.\d\dM\.08$/);
    expect(init && mimeFor(init)).toBe(`video/mp4; codecs="${init?.codec}"`);
    const setup = readVideoDecoderSetup(init?.data ?? new Uint8Array());
    expect(setup).toMatchObject({ codec: init?.codec, codedWidth: 320, codedHeight: 180 });
    // The av1C's body: marker and version 1, then the profile and level byte.
    expect(setup?.description[0]).toBe(0x81);
    expect(fragments(split(bytes)).filter((f) => f.keyframe).length).toBeGreaterThan(0);
    // A relay that takes H.264 only refuses it, clearly.
    expect(() => split(bytes, new Fmp4Splitter({ videoEntries: new Set(['avc1', 'avc3']) }))).toThrow(/av01 is not avc1 or avc3/);
  });

  it('parses a complete init segment on its own as the splitter does', () => {
    const [init] = inits(split(files.aac ?? new Uint8Array()));
    const again = parseInitSegment(init?.data ?? new Uint8Array());
    expect(again.codecs).toEqual(init?.codecs);
    expect(again.tracks).toEqual(init?.tracks);
  });
});

describe('a muxer that cuts at every frame of every track', () => {
  it('marks sound-only fragments as no place to start, adding no video time', async () => {
    const file = join(dir, 'every-frame.mp4');
    await run('ffmpeg', [
      '-v', 'error', '-y',
      '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=15', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', '2',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-profile:v', 'baseline', '-pix_fmt', 'yuv420p', '-g', '15', '-flags:v', '+global_header',
      '-c:a', 'aac', '-b:a', '64k',
      '-movflags', '+frag_every_frame+empty_moov+default_base_moof', '-f', 'mp4', file,
    ]);
    const units = split(new Uint8Array(await readFile(file)));
    const [init] = inits(units);
    const frags = fragments(units);
    const videoOnly = frags.filter((f) => f.tracks.every((t) => t.trackId === init?.trackId));
    const soundOnly = frags.filter((f) => f.tracks.every((t) => t.trackId !== init?.trackId));
    expect(videoOnly.length).toBe(30);
    expect(soundOnly.length).toBeGreaterThan(80); // 1024 samples per AAC frame at 48 kHz: ~94 in 2 s
    expect(soundOnly.every((f) => !f.keyframe && f.duration === 0)).toBe(true);
    expect(videoOnly.filter((f) => f.keyframe).length).toBe(2);
    // Sound times, in the video's ticks, interleave with the video's.
    const times = frags.map((f) => f.baseMediaDecodeTime);
    expect(Math.max(...times)).toBeLessThan(2.1 * (init?.timescale ?? 0));
  });
});
