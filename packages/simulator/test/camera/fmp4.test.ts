import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticCameraArgs } from '../../src/camera/synthetic-picture.ts';
import { Fmp4Reader, type Fmp4Unit, MAX_BOX_BYTES } from '../../../../apps/agent/src/media/fmp4.ts';
import { ffmpegToFile, spec, tempDir, topLevelBoxes } from '../../../../apps/agent/test/media/helpers.ts';

const box = (type: string, ...payload: Buffer[]): Buffer => {
  const body = Buffer.concat(payload);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
};
const u32 = (...values: number[]) => Buffer.concat(values.map((v) => Buffer.from([v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255])));


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
    // Nothing lost or reordered: everything but ffmpeg's closing index (mfra), which is not media.
    const joined = Buffer.concat(units.map((u) => u.bytes));
    expect(Buffer.compare(joined, bytes.subarray(0, joined.length))).toBe(0);
    expect(topLevelBoxes(bytes.subarray(joined.length))).toEqual(['mfra']);
    expect(reader.pendingBytes).toBe(0);
  });
});

describe('Fmp4Reader edge cases', () => {
  it('refuses a box size below its header and a box beyond the bound', () => {
    expect(() => new Fmp4Reader().push(Buffer.concat([u32(4), Buffer.from('free')]))).toThrow(/free box size 4 is smaller than its header/);
    const huge = Buffer.concat([u32(MAX_BOX_BYTES + 1), Buffer.from('mdat')]);
    expect(() => new Fmp4Reader().push(huge)).toThrow(/exceeds/);
  });

  it('refuses fragments before any init segment', () => {
    const frag = Buffer.concat([box('moof', box('traf', box('tfhd', u32(0x20000, 1)), box('trun', u32(0x1, 1, 8)))), box('mdat', Buffer.alloc(4))]);
    expect(() => new Fmp4Reader().push(frag)).toThrow(/before any init segment/);
  });
});
