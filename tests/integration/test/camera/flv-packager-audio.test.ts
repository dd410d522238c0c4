import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RelaySplitter, type InitSegment, type MediaFragment } from '../../../../apps/server/src/core/media/fmp4.ts';
import { aacLcConfig, sameAacConfig } from '../../../../apps/agent/src/media/aac.ts';
import { LIVE_SOUND } from '../../../../apps/agent/src/media/ffmpeg-args.ts';
import { syntheticCameraArgs } from '@ship-cctv/simulator';
import { FlvToFmp4 } from '../../../../apps/agent/src/media/flv-packager.ts';
import type { Fmp4Unit } from '../../../../apps/agent/src/media/fmp4.ts';
import { run, spec, tempDir } from '../../../../apps/agent/test/media/helpers.ts';

const sh = promisify(execFile);

/**
 * The packager with sound, on the synthetic camera rendered at a chosen absolute time (not live):
 * the picture's FLV and the sound's FLV (fd 3) go through one FlvToFmp4, and what comes out is a
 * two-track fMP4 whose sound is where the picture says it is — the tick at each whole UTC second.
 */
describe('FlvToFmp4 with sound', () => {
  const tmp = tempDir('flv-packager-audio-');
  const encode = spec(320, 180, 10, 200);
  // 0.3 s past a whole second: the ticks fall at 0.7 s, 1.7 s, 2.7 s of the stream.
  const start = Date.UTC(2026, 0, 1, 12, 0, 0, 300);
  let units: Fmp4Unit[];
  let file: string;

  beforeAll(async () => {
    const args = syntheticCameraArgs({ cameraName: 'Deck', encode, startEpochMs: start, realtime: false, durationSeconds: 3, output: 'flv', audio: { spec: LIVE_SOUND } });
    const video = join(tmp.dir, 'v.flv');
    const sound = join(tmp.dir, 'a.flv');
    const quoted = args.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
    await sh('sh', ['-c', `ffmpeg ${quoted} > '${video}' 3> '${sound}'`]);
    const packager = new FlvToFmp4({ frameRate: encode.frameRate, audio: LIVE_SOUND });
    const v = readFileSync(video);
    const a = readFileSync(sound);
    // Interleaved as a live encoder would deliver them: a slice of pictures, a slice of sound.
    units = [];
    const slices = 12;
    for (let i = 0; i < slices; i++) {
      units.push(...packager.pushAudio(a.subarray(Math.floor((i * a.length) / slices), Math.floor(((i + 1) * a.length) / slices))));
      units.push(...packager.push(v.subarray(Math.floor((i * v.length) / slices), Math.floor(((i + 1) * v.length) / slices))));
    }
    file = join(tmp.dir, 'packaged.mp4');
    writeFileSync(file, Buffer.concat(units.map((u) => u.bytes)));
  }, 30_000);
  afterAll(() => tmp.remove());

  it('writes a sound track (mp4a, esds: AAC-LC 16 kHz mono) beside the picture, and fragments only at pictures', () => {
    const split = new RelaySplitter().push(Buffer.concat(units.map((u) => u.bytes)));
    const init = split.find((u): u is InitSegment => u.kind === 'init');
    expect(init?.codecs).toEqual(['avc1.42c00c', 'mp4a.40.2']);
    expect(init?.tracks[1]).toMatchObject({ kind: 'audio', sampleEntry: 'mp4a', sampleRate: 16_000, channels: 1, timescale: 16_000, trackId: 2 });
    const fragments = split.filter((u): u is MediaFragment => u.kind === 'fragment');
    expect(fragments).toHaveLength(30);
    expect(fragments.every((f) => f.sampleCount === 1 && f.tracks[0]?.trackId === 1)).toBe(true);
    // The counted sound bytes are the sound runs' samples.
    const counted = units.reduce((n, u) => n + (u.kind === 'fragment' ? (u.audioBytes ?? 0) : 0), 0);
    const runs = fragments.flatMap((f) => f.tracks.filter((t) => t.trackId === 2));
    expect(counted).toBe(runs.reduce((n, t) => n + t.bytes, 0));
    expect(counted).toBeGreaterThan(3 * 2000);
  });

  it("one init segment when the encoder's sound config comes after the first picture (its explicit no-SBR tail is the same sound)", () => {
    const packager = new FlvToFmp4({ frameRate: encode.frameRate, audio: LIVE_SOUND });
    const first = packager.push(readFileSync(join(tmp.dir, 'v.flv')));
    expect(first.filter((u) => u.kind === 'init')).toHaveLength(1);
    const later = packager.pushAudio(readFileSync(join(tmp.dir, 'a.flv')));
    expect(later.filter((u) => u.kind === 'init')).toHaveLength(0);
  });

  it('tells the same AAC-LC sound from other sound', () => {
    const expected = aacLcConfig(16_000, 1);
    expect(sameAacConfig(expected, Buffer.from([0x14, 0x08]))).toBe(true);
    // ffmpeg's own: sync extension 0x2B7, SBR (type 5) absent.
    expect(sameAacConfig(expected, Buffer.from([0x14, 0x08, 0x56, 0xe5, 0x00]))).toBe(true);
    // SBR present (HE-AAC), another rate, another channel count: other sound, a new init segment.
    expect(sameAacConfig(expected, Buffer.from([0x14, 0x08, 0x56, 0xe5, 0x80]))).toBe(false);
    expect(sameAacConfig(expected, aacLcConfig(48_000, 1))).toBe(false);
    expect(sameAacConfig(expected, aacLcConfig(16_000, 2))).toBe(false);
    expect(sameAacConfig(expected, Buffer.from([0x14]))).toBe(false);
  });

  it('ffmpeg reads both tracks back, and the tick sits at each whole UTC second of the picture', async () => {
    const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,sample_rate,channels,start_time', '-of', 'json', file]);
    const streams = (JSON.parse(stdout) as { streams: { codec_name: string; start_time: string }[] }).streams;
    expect(streams.map((s) => s.codec_name)).toEqual(['h264', 'aac']);
    const soundStart = Number(streams[1]?.start_time);
    expect(soundStart).toBeGreaterThanOrEqual(0);
    expect(soundStart).toBeLessThan(0.1);
    const pcm = (await run('ffmpeg', ['-v', 'error', '-i', file, '-map', '0:a', '-f', 's16le', '-ac', '1', '-ar', '16000', 'pipe:1'], { encoding: 'buffer', maxBuffer: 1 << 26 }))
      .stdout as unknown as Buffer;
    const samples = new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.length));
    // Onsets of the 2 kHz click: the first 5 ms block whose high-frequency energy jumps.
    const block = 80;
    const energy: number[] = [];
    for (let i = block; i + block <= samples.length; i += block) {
      let e = 0;
      for (let j = i; j < i + block; j++) e += ((samples[j] as number) - (samples[j - 1] as number)) ** 2;
      energy.push(e / block);
    }
    const peak = Math.max(...energy);
    const onsets = energy.flatMap((e, k) => (e > peak / 4 && (energy[k - 1] ?? 0) <= peak / 4 ? [soundStart + ((k + 1) * block) / 16_000] : []));
    expect(onsets.length).toBeGreaterThanOrEqual(2);
    for (const [i, t] of onsets.entries()) expect(Math.abs(t - (0.7 + i))).toBeLessThan(0.02);
  });
});
