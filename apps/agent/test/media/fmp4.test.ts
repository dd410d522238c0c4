import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticCameraArgs } from '../../src/media/ffmpeg-args.ts';
import { Fmp4Reader, type Fmp4Unit, MAX_BOX_BYTES, firstSampleFlags } from '../../src/media/fmp4.ts';
import { ffmpegToFile, spec, tempDir, topLevelBoxes } from './helpers.ts';

const box = (type: string, ...payload: Buffer[]): Buffer => {
  const body = Buffer.concat(payload);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
};
const u32 = (...values: number[]) => Buffer.concat(values.map((v) => Buffer.from([v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255])));

const NON_SYNC = 0x0101_0000;
const SYNC = 0x0200_0000;

describe('Fmp4Reader on real encoder output', () => {
  const tmp = tempDir('fmp4-');
  let bytes: Buffer;
  beforeAll(async () => {
    const args = syntheticCameraArgs({ cameraName: 'Deck', encode: spec(320, 180, 5, 200), startEpochMs: Date.UTC(2026, 0, 1), realtime: false, durationSeconds: 2 });
    bytes = readFileSync(await ffmpegToFile(args, join(tmp.dir, 'clip.mp4')));
  });
  afterAll(() => tmp.remove());

  it('cuts any chunking into the init segment and one fragment per frame, keyframes marked', () => {
    let seed = 7;
    const reader = new Fmp4Reader();
    const units: Fmp4Unit[] = [];
    for (let at = 0; at < bytes.length; ) {
      const n = 1 + ((seed = (seed * 1103515245 + 12345) >>> 0) % 3000);
      units.push(...reader.push(bytes.subarray(at, at + n)));
      at += n;
    }
    expect(units.map((u) => u.kind)).toEqual(['init', ...Array<string>(10).fill('fragment')]);
    expect(units.flatMap((u, i) => (u.kind === 'fragment' && u.keyframe ? [i - 1] : []))).toEqual([0, 5]);
    expect(topLevelBoxes(units[0]!.bytes)).toEqual(['ftyp', 'moov']);
    expect(topLevelBoxes(units[1]!.bytes)).toEqual(['moof', 'mdat']);
    // Nothing lost or reordered: everything but ffmpeg's closing index (mfra), which stays pending.
    const joined = Buffer.concat(units.map((u) => u.bytes));
    expect(Buffer.compare(joined, bytes.subarray(0, joined.length))).toBe(0);
    expect(topLevelBoxes(bytes.subarray(joined.length))).toEqual(['mfra']);
    expect(reader.pendingBytes).toBe(bytes.length - joined.length);
  });
});

describe('Fmp4Reader edge cases', () => {
  it('reads 64-bit box sizes', () => {
    const large = Buffer.concat([u32(1), Buffer.from('free'), u32(0, 24), Buffer.alloc(8)]);
    const r = new Fmp4Reader();
    expect(r.push(Buffer.concat([large, box('moov')]))).toEqual([{ kind: 'init', bytes: Buffer.concat([large, box('moov')]) }]);
  });

  it('refuses a box size below its header and a box beyond the bound', () => {
    expect(() => new Fmp4Reader().push(u32(4, 0))).toThrow(/box size 4/);
    const huge = Buffer.concat([u32(MAX_BOX_BYTES + 1), Buffer.from('mdat')]);
    expect(() => new Fmp4Reader().push(huge)).toThrow(/exceeds/);
  });

  it('finds the first sample flags in trun, then tfhd, then trex', () => {
    const tfhd = (flags: number, defaultFlags?: number) =>
      box('tfhd', u32(flags, 1), ...(flags & 0x8 ? [u32(1024)] : []), ...(defaultFlags === undefined ? [] : [u32(defaultFlags)]));
    const moof = (...traf: Buffer[]) => box('moof', box('mfhd', u32(0, 1)), box('traf', ...traf));
    // trun with first-sample-flags (0x4) after the data offset (0x1)
    expect(firstSampleFlags(moof(tfhd(0x20020, NON_SYNC), box('trun', u32(0x5, 1, 100, SYNC))))).toBe(SYNC);
    // trun with per-sample duration, size, flags
    expect(firstSampleFlags(moof(tfhd(0x20000), box('trun', u32(0x701, 1, 100, 512, 900, NON_SYNC))))).toBe(NON_SYNC);
    // tfhd default after its default duration
    expect(firstSampleFlags(moof(tfhd(0x20028, NON_SYNC), box('trun', u32(0x1, 1, 100))))).toBe(NON_SYNC);
    // only trex knows
    expect(firstSampleFlags(moof(tfhd(0x20000), box('trun', u32(0x1, 1, 100))), SYNC)).toBe(SYNC);
    expect(firstSampleFlags(moof(tfhd(0x20000), box('trun', u32(0x1, 1, 100))))).toBeUndefined();
  });

  it('takes trex defaults from the init segment', () => {
    const trex = box('trex', u32(0, 1, 1, 0, 0, NON_SYNC));
    const init = Buffer.concat([box('ftyp', Buffer.from('isom')), box('moov', box('mvex', trex))]);
    const frag = Buffer.concat([box('moof', box('traf', box('tfhd', u32(0x20000, 1)), box('trun', u32(0x1, 1, 8)))), box('mdat', Buffer.alloc(4))]);
    const units = new Fmp4Reader().push(Buffer.concat([init, frag]));
    expect(units).toEqual([
      { kind: 'init', bytes: init },
      { kind: 'fragment', bytes: frag, keyframe: false },
    ]);
  });
});
