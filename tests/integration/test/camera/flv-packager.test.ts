import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RelaySplitter, type InitSegment, type MediaFragment } from '../../../../apps/server/src/core/media/fmp4.ts';
import { parseAvcConfig, spsPictureSize } from '../../../../apps/agent/src/media/avc.ts';
import { syntheticCameraArgs } from '@ship-cctv/simulator';
import { readProducerTime } from '@ship-cctv/media';
import { FlvReader } from '../../../../apps/agent/src/media/flv.ts';
import { FlvToFmp4, TIMESCALE } from '../../../../apps/agent/src/media/flv-packager.ts';
import { Fmp4Reader, type Fmp4Unit } from '../../../../apps/agent/src/media/fmp4.ts';
import { ffmpegToFile, probeFile, run, spec, tempDir, topLevelBoxes } from '../../../../apps/agent/test/media/helpers.ts';

/** Feeds `bytes` in pseudo-random slices of 1…3000 bytes (a pipe delivers any chunking). */
function pushChunked(target: { push(chunk: Uint8Array): Fmp4Unit[] }, bytes: Buffer, seed = 7): Fmp4Unit[] {
  const units: Fmp4Unit[] = [];
  for (let at = 0; at < bytes.length; ) {
    const n = 1 + ((seed = (seed * 1103515245 + 12345) >>> 0) % 3000);
    units.push(...target.push(bytes.subarray(at, at + n)));
    at += n;
  }
  return units;
}

function split(bytes: Buffer): { init: InitSegment; fragments: MediaFragment[] } {
  const units = new RelaySplitter().push(bytes);
  const init = units.find((u): u is InitSegment => u.kind === 'init');
  if (!init) throw new Error('no init segment');
  return { init, fragments: units.filter((u): u is MediaFragment => u.kind === 'fragment') };
}

/** MD5 per frame: of the decoded picture, or with `copy` of the coded packet as it is stored. */
const framemd5 = async (file: string, copy = false) =>
  (await run('ffmpeg', ['-v', 'error', '-i', file, ...(copy ? ['-c', 'copy'] : []), '-f', 'framemd5', '-']))
    .stdout.split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split(',').at(-1)?.trim());

describe('FlvToFmp4 on the encoder’s own output', () => {
  const tmp = tempDir('flv-packager-');
  const encode = spec(320, 180, 10, 300);
  const base = { cameraName: 'Deck', encode, startEpochMs: Date.UTC(2026, 0, 1), realtime: false, durationSeconds: 2 };
  let flv: Buffer;
  let units: Fmp4Unit[];
  let packaged: Buffer;
  let ffmpegMp4: string;
  beforeAll(async () => {
    flv = readFileSync(await ffmpegToFile(syntheticCameraArgs({ ...base, output: 'flv' }), join(tmp.dir, 'camera.flv')));
    ffmpegMp4 = await ffmpegToFile(syntheticCameraArgs(base), join(tmp.dir, 'camera.mp4'));
    units = pushChunked(new FlvToFmp4({ frameRate: encode.frameRate }), flv);
    packaged = Buffer.concat(units.map((u) => u.bytes));
    writeFileSync(join(tmp.dir, 'packaged.mp4'), packaged);
  });
  afterAll(() => tmp.remove());

  it('makes an init segment, then one moof+mdat per frame with keyframes flagged', () => {
    expect(units.map((u) => u.kind)).toEqual(['init', ...Array<string>(20).fill('fragment')]);
    expect(units.flatMap((u, i) => (u.kind === 'fragment' && u.keyframe ? [i - 1] : []))).toEqual([0, 10]);
    expect(topLevelBoxes(units[0]!.bytes)).toEqual(['ftyp', 'moov']);
    for (const u of units.slice(1)) expect(topLevelBoxes(u.bytes)).toEqual(['moof', 'mdat']);
    // The agent's own reader (which the queue bound relies on) sees the same units and flags.
    const again = new Fmp4Reader().push(packaged);
    expect(again.map((u) => (u.kind === 'fragment' ? u.keyframe : 'init'))).toEqual(units.map((u) => (u.kind === 'fragment' ? u.keyframe : 'init')));
  });

  it('is read by shore like ffmpeg’s own MP4: same codec string and size, decode times on the frame grid', () => {
    const ours = split(packaged);
    const theirs = split(readFileSync(ffmpegMp4));
    expect(ours.init.codec).toMatch(/^avc1\.42c0[0-9a-f]{2}$/);
    expect(ours.init).toMatchObject({ codec: theirs.init.codec, width: 320, height: 180, timescale: TIMESCALE, trackId: 1 });
    expect(ours.fragments).toHaveLength(theirs.fragments.length);
    ours.fragments.forEach((f, i) => {
      expect(f).toMatchObject({ sequenceNumber: i + 1, baseMediaDecodeTime: i * 9000, duration: 9000, sampleCount: 1, keyframe: theirs.fragments[i]!.keyframe });
    });
  });

  it('parses with ffprobe as the same H.264 stream, every frame carried unchanged and decodable', async () => {
    const file = join(tmp.dir, 'packaged.mp4');
    expect(await probeFile(file)).toMatchObject({ codec: 'h264', profile: 'Constrained Baseline', width: 320, height: 180, frameRate: '10/1', packets: 20, keyframes: [0, 10] });
    const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=dts,duration', '-of', 'csv=p=0', file]);
    const rows = stdout.trim().split('\n').map((l) => l.split(',').map(Number));
    expect(rows.map((r) => r[0])).toEqual(rows.map((_, i) => i * 9000));
    expect(new Set(rows.map((r) => r[1]))).toEqual(new Set([9000]));
    // The coded frames are the FLV's, byte for byte; all of them decode.
    const [packets, flvPackets, pictures] = await Promise.all([framemd5(file, true), framemd5(join(tmp.dir, 'camera.flv'), true), framemd5(file)]);
    expect(packets).toHaveLength(20);
    expect(packets).toEqual(flvPackets);
    expect(pictures).toHaveLength(20);
  });

  it('reads the picture size from the SPS, cropping included', async () => {
    for (const [w, h, profile] of [[640, 360, 'baseline'], [1280, 720, 'high'], [176, 144, 'main'], [1920, 1080, 'high']] as const) {
      const { stdout } = await run(
        'ffmpeg',
        ['-v', 'error', '-f', 'lavfi', '-i', `color=c=gray:s=${w}x${h}:r=5`, '-frames:v', '1', '-c:v', 'libx264', '-profile:v', profile, '-pix_fmt', 'yuv420p', '-f', 'flv', 'pipe:1'],
        { encoding: 'buffer', maxBuffer: 16 * 1024 * 1024 },
      );
      const config = new FlvReader().push(stdout).find((i) => i.kind === 'config');
      if (config?.kind !== 'config') throw new Error('no sequence header');
      const avc = parseAvcConfig(config.record);
      expect({ width: avc.width, height: avc.height, nal: avc.nalLengthSize }).toEqual({ width: w, height: h, nal: 4 });
      expect(avc.codec).toBe(`avc1.${config.record.subarray(1, 4).toString('hex')}`);
    }
    expect(() => spsPictureSize(Buffer.from([0x68, 0xce, 0x3c, 0x80]))).toThrow(/not a sequence parameter set/);
  });
});

// ── hand-made FLV: timestamps and stream structure ──────────────────────────────────────────────

/** A real AVCDecoderConfigurationRecord (320×180 Constrained Baseline) for the hand-made streams. */
let RECORD: Buffer;
beforeAll(async () => {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=gray:s=320x180:r=5', '-frames:v', '1', '-c:v', 'libx264', '-profile:v', 'baseline', '-f', 'flv', 'pipe:1'],
    { encoding: 'buffer', maxBuffer: 16 * 1024 * 1024 },
  );
  const config = new FlvReader().push(stdout).find((i) => i.kind === 'config');
  if (config?.kind !== 'config') throw new Error('no sequence header');
  RECORD = config.record;
});

const FLV_HEADER = Buffer.from([0x46, 0x4c, 0x56, 1, 0x01, 0, 0, 0, 9, 0, 0, 0, 0]);

function tag(type: number, timestampMs: number, data: Buffer): Buffer {
  const head = Buffer.alloc(11);
  head[0] = type;
  head.writeUIntBE(data.length, 1, 3);
  head.writeUIntBE(timestampMs & 0xff_ffff, 4, 3);
  head[7] = (timestampMs >>> 24) & 0xff;
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(11 + data.length);
  return Buffer.concat([head, data, tail]);
}
const avc = (frameType: number, packetType: number, cts: number, payload: Buffer) => {
  const h = Buffer.alloc(5);
  h[0] = (frameType << 4) | 7;
  h[1] = packetType;
  h.writeIntBE(cts, 2, 3);
  return Buffer.concat([h, payload]);
};
const configTag = (record: Buffer = RECORD) => tag(9, 0, avc(1, 0, 0, record));
/** A "frame": one NAL unit behind a 4-byte length; the packager does not decode it. */
const frameTag = (ms: number, key = false, cts = 0) => tag(9, ms, avc(key ? 1 : 2, 1, cts, Buffer.from([0, 0, 0, 2, key ? 0x65 : 0x41, 0x88])));

function decodeTimes(frameRate: number, times: number[]): MediaFragment[] {
  const flv = Buffer.concat([FLV_HEADER, configTag(), ...times.map((t, i) => frameTag(t, i === 0))]);
  return split(Buffer.concat(new FlvToFmp4({ frameRate }).push(flv).map((u) => u.bytes))).fragments;
}

describe('FlvToFmp4 timestamps', () => {
  it('puts a constant-rate stream back on its frame grid, rebased to 0', () => {
    // 15 fps in whole ms: 1000/15 = 66.67 ms per frame; 90 kHz ticks: exactly 6000.
    const f = decodeTimes(15, [5000, 5067, 5133, 5200, 5267]);
    expect(f.map((x) => x.baseMediaDecodeTime)).toEqual([0, 6000, 12000, 18000, 24000]);
    expect(f.map((x) => x.duration)).toEqual([6000, 6000, 6000, 6000, 6000]);
  });

  it('keeps the ms of a stream off the grid, each sample as long as the gap before it', () => {
    const f = decodeTimes(10, [0, 125, 250, 380, 500]);
    expect(f.map((x) => x.baseMediaDecodeTime)).toEqual([0, 11_250, 22_500, 34_200, 45_000]);
    expect(f.map((x) => x.duration)).toEqual([9000, 11_250, 11_250, 11_700, 10_800]);
  });

  it('never lets a decode time stand still or go back, and reads the extended timestamp byte', () => {
    const f = decodeTimes(10, [0x0100_0000, 0x0100_0000 + 100, 0x0100_0000 + 100, 0x0100_0000 + 50, 0x0100_0000 + 300]);
    const t = f.map((x) => x.baseMediaDecodeTime);
    expect(t.slice(0, 2)).toEqual([0, 9000]);
    for (let i = 1; i < t.length; i++) expect(t[i]!).toBeGreaterThan(t[i - 1]!);
    expect(t.at(-1)).toBe(27_000);
  });

  it('writes a B-frame stream’s composition offset into a signed trun', () => {
    const flv = Buffer.concat([FLV_HEADER, configTag(), frameTag(0, true, 200), frameTag(100, false, 300), frameTag(200, false, -100), frameTag(300)]);
    const units = new FlvToFmp4({ frameRate: 10 }).push(flv);
    const trun = (u: Fmp4Unit) => {
      const at = u.bytes.indexOf('trun', 0, 'latin1') - 4;
      return u.bytes.subarray(at, at + u.bytes.readUInt32BE(at));
    };
    const first = trun(units[1]!);
    // version 1, flags: data offset, first-sample-flags, composition offset
    expect(first.readUInt32BE(8)).toBe(0x0100_0805);
    expect(first.readInt32BE(first.length - 4)).toBe(200 * 90);
    const negative = trun(units[3]!);
    expect(negative.readUInt32BE(8)).toBe(0x0100_0801);
    expect(negative.readInt32BE(negative.length - 4)).toBe(-100 * 90);
    // Without an offset: version 0, the data offset alone.
    expect(trun(units[4]!).readUInt32BE(8)).toBe(0x0000_0001);
    const { fragments } = split(Buffer.concat(units.map((u) => u.bytes)));
    expect(fragments.map((x) => x.keyframe)).toEqual([true, false, false, false]);
  });
});

describe('FlvToFmp4 producer time', () => {
  it('stamps each live picture with the wall clock it left the encoder at (prft), which the relay keeps with it', () => {
    let now = 1_800_000_000_000;
    const flv = Buffer.concat([FLV_HEADER, configTag(), frameTag(0, true), frameTag(100), frameTag(200)]);
    const units = new FlvToFmp4({ frameRate: 10, outputClock: () => (now += 7) }).push(flv);
    const fragments = units.filter((u) => u.kind === 'fragment');
    expect(fragments.map((u) => readProducerTime(u.bytes))).toEqual([
      { trackId: 1, wallMs: 1_800_000_000_007, mediaTime: 0, flags: 1 },
      { trackId: 1, wallMs: 1_800_000_000_014, mediaTime: 9_000, flags: 1 },
      { trackId: 1, wallMs: 1_800_000_000_021, mediaTime: 18_000, flags: 1 },
    ]);
    // Through the shore's splitter: the same fragments, each with its stamp.
    const { fragments: relayed } = split(Buffer.concat(units.map((u) => u.bytes)));
    expect(relayed.map((f) => readProducerTime(f.data)?.wallMs)).toEqual([1_800_000_000_007, 1_800_000_000_014, 1_800_000_000_021]);
    expect(relayed.map((f) => f.keyframe)).toEqual([true, false, false]);
    // Without a clock (recordings, tests): no stamp.
    expect(new FlvToFmp4({ frameRate: 10 }).push(flv).filter((u) => u.kind === 'fragment').map((u) => readProducerTime(u.bytes))).toEqual([undefined, undefined, undefined]);
  });
});

describe('FlvToFmp4 stream structure', () => {
  it('skips script and audio tags, and gives one init segment for a repeated sequence header', () => {
    const flv = Buffer.concat([FLV_HEADER, tag(18, 0, Buffer.from('onMetaData')), configTag(), frameTag(0, true), tag(8, 10, Buffer.from([0xaf, 1, 0])), configTag(), frameTag(100)]);
    expect(new FlvToFmp4({ frameRate: 10 }).push(flv).map((u) => u.kind)).toEqual(['init', 'fragment', 'fragment']);
  });

  it('starts a new init segment when the camera changes its parameters', () => {
    const changed = Buffer.from(RECORD);
    changed[3] = 0x1f; // another level
    const units = new FlvToFmp4({ frameRate: 10 }).push(Buffer.concat([FLV_HEADER, configTag(), frameTag(0, true), configTag(changed), frameTag(100, true)]));
    expect(units.map((u) => u.kind)).toEqual(['init', 'fragment', 'init', 'fragment']);
    expect(split(Buffer.concat(units.slice(2).map((u) => u.bytes))).init.codec).toBe(`avc1.${changed.subarray(1, 4).toString('hex')}`);
  });

  it('holds an unfinished tag and nothing else', () => {
    const p = new FlvToFmp4({ frameRate: 10 });
    const flv = Buffer.concat([FLV_HEADER, configTag(), frameTag(0, true)]);
    expect(p.push(flv.subarray(0, flv.length - 3)).map((u) => u.kind)).toEqual(['init']);
    expect(p.pendingBytes).toBe(frameTag(0, true).length - 3);
    expect(p.push(flv.subarray(flv.length - 3)).map((u) => u.kind)).toEqual(['fragment']);
    expect(p.pendingBytes).toBe(0);
  });

  it('refuses what is not an H.264 FLV stream', () => {
    const push = (...parts: Buffer[]) => () => new FlvToFmp4({ frameRate: 10 }).push(Buffer.concat(parts));
    expect(push(Buffer.from('\0\0\0\x1cftypiso5\0\0\0\0'))).toThrow(/not an FLV stream/);
    expect(push(FLV_HEADER, frameTag(0, true))).toThrow(/before the sequence header/);
    expect(push(FLV_HEADER, tag(9, 0, Buffer.from([0x12, 0, 0, 0, 0, 1])))).toThrow(/codec 2 is not H.264/);
    const broken = configTag();
    broken.writeUInt32BE(3, broken.length - 4);
    expect(push(FLV_HEADER, broken)).toThrow(/previous tag size/);
    expect(push(FLV_HEADER, tag(7, 0, Buffer.alloc(4)))).toThrow(/tag type 7/);
    expect(() => new FlvToFmp4({ frameRate: 0 })).toThrow(/not positive/);
  });
});
