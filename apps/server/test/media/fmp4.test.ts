import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Fmp4Error,
  RelaySplitter,
  type Fmp4Unit,
  type InitSegment,
  type MediaFragment,
  mimeFor,
} from '../../src/core/media/fmp4.ts';
import { isCompleteInitSegment, parseInitSegment } from '@ship-cctv/media';
import {
  type ClipSpec,
  NON_SYNC,
  type ProbedStream,
  SYNC,
  box,
  concatBytes,
  fullBox,
  makeClip,
  probe,
  randomChunks,
  seededRandom,
  syntheticFragment,
  syntheticInit,
  topLevelBoxes,
  u32,
  u64,
} from './helpers.ts';

const CLIPS: ClipSpec[] = [
  { name: 'base-320', width: 320, height: 180, profile: 'baseline' },
  { name: 'base-640', width: 640, height: 360, profile: 'baseline' },
  { name: 'high-640', width: 640, height: 360, profile: 'high' },
];

/** profile_idc by ffprobe's profile name. */
const PROFILE_IDC: Record<string, number> = { 'Constrained Baseline': 0x42, Baseline: 0x42, Main: 0x4d, High: 0x64 };

let dir: string;
const clips = new Map<string, { bytes: Uint8Array; probed: ProbedStream }>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fmp4-test-'));
  await Promise.all(
    CLIPS.map(async (spec) => {
      const file = await makeClip(dir, spec);
      clips.set(spec.name, { bytes: new Uint8Array(await readFile(file)), probed: await probe(file) });
    }),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function clip(name: string) {
  const c = clips.get(name);
  if (!c) throw new Error(`no clip ${name}`);
  return c;
}

function split(chunks: Uint8Array[], splitter = new RelaySplitter()): Fmp4Unit[] {
  const units: Fmp4Unit[] = [];
  for (const c of chunks) units.push(...splitter.push(c));
  splitter.end();
  return units;
}

function inits(units: Fmp4Unit[]): InitSegment[] {
  return units.filter((u): u is InitSegment => u.kind === 'init');
}
function fragments(units: Fmp4Unit[]): MediaFragment[] {
  return units.filter((u): u is MediaFragment => u.kind === 'fragment');
}

function expectError(fn: () => unknown, code: Fmp4Error['code']): Fmp4Error {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(Fmp4Error);
    expect((err as Fmp4Error).code).toBe(code);
    return err as Fmp4Error;
  }
  throw new Error(`expected Fmp4Error ${code}`);
}

describe('RelaySplitter on ffmpeg output', () => {
  describe.each(CLIPS)('$name', (spec) => {
    it.each([1, 2, 3])('splits random chunks (seed %i) into one init and one fragment per frame', (seed) => {
      const { bytes, probed } = clip(spec.name);
      const chunks = randomChunks(bytes, seed);
      expect(chunks.some((c) => c.length === 1)).toBe(true);
      const units = split(chunks);

      const [init, ...moreInits] = inits(units);
      expect(init).toBeDefined();
      expect(moreInits).toHaveLength(0);
      expect(units[0]).toBe(init);
      if (!init) return;

      // Codec string agrees with ffprobe's profile and level.
      const idc = PROFILE_IDC[probed.profile];
      expect(idc, `unknown profile ${probed.profile}`).toBeDefined();
      expect(init.codec).toMatch(/^avc1\.[0-9a-f]{6}$/);
      expect(parseInt(init.codec.slice(5, 7), 16)).toBe(idc);
      expect(parseInt(init.codec.slice(9, 11), 16)).toBe(probed.level);
      if (spec.profile === 'baseline') expect(init.codec.startsWith('avc1.42')).toBe(true);
      if (probed.profile === 'Constrained Baseline') expect(parseInt(init.codec.slice(7, 9), 16) & 0x40).toBe(0x40);
      expect(mimeFor(init)).toBe(`video/mp4; codecs="${init.codec}"`);
      expect([init.width, init.height]).toEqual([spec.width, spec.height]);
      expect([probed.width, probed.height]).toEqual([spec.width, spec.height]);
      expect(`1/${init.timescale}`).toBe(probed.timeBase);

      // One fragment per frame, a keyframe every 10th, tfdt continuous.
      const frags = fragments(units);
      expect(frags).toHaveLength(probed.frames);
      expect(probed.frames).toBe(30);
      expect(frags.map((f) => f.keyframe)).toEqual(frags.map((_, i) => i % 10 === 0));
      const frameTicks = init.timescale / 10;
      for (const [i, f] of frags.entries()) {
        expect(f.sampleCount).toBe(1);
        expect(f.duration).toBe(frameTicks);
        expect(f.size).toBe(f.data.length);
        expect(f.sequenceNumber).toBe(i + 1);
        const next = frags[i + 1];
        if (next) expect(next.baseMediaDecodeTime).toBe(f.baseMediaDecodeTime + f.duration);
      }

      // Byte-for-byte: every unit in order is the input; init + fragments is the input without
      // the trailing mfra index ffmpeg appends (reported as an 'other' unit).
      expect(Buffer.from(concatBytes(units.map((u) => u.data))).equals(Buffer.from(bytes))).toBe(true);
      const others = units.filter((u) => u.kind === 'other');
      expect(others.map((u) => (u.kind === 'other' ? u.type : ''))).toEqual(['mfra']);
      const mfraSize = others[0]?.data.length ?? 0;
      const media = concatBytes([init.data, ...frags.map((f) => f.data)]);
      expect(Buffer.from(media).equals(Buffer.from(bytes.subarray(0, bytes.length - mfraSize)))).toBe(true);
    });

    it('gives the same units when fed one byte at a time', () => {
      const { bytes } = clip(spec.name);
      const splitter = new RelaySplitter();
      const units: Fmp4Unit[] = [];
      let maxBuffered = 0;
      for (let i = 0; i < bytes.length; i++) {
        units.push(...splitter.push(bytes.subarray(i, i + 1)));
        maxBuffered = Math.max(maxBuffered, splitter.bufferedBytes);
      }
      splitter.end();
      // Never more than the unit in progress: the largest fragment (or the init).
      expect(maxBuffered).toBeLessThanOrEqual(Math.max(...split([bytes]).map((u) => u.data.length)));
      const whole = split([bytes]);
      expect(units.map((u) => u.kind)).toEqual(whole.map((u) => u.kind));
      expect(units.map((u) => u.data.length)).toEqual(whole.map((u) => u.data.length));
      expect(fragments(units).map((f) => f.keyframe)).toEqual(fragments(whole).map((f) => f.keyframe));
    });
  });

  it('re-scans its init segment: complete, parseable, and nothing else passes', () => {
    const units = split([clip('base-320').bytes]);
    const init = inits(units)[0];
    const frag = fragments(units)[0];
    if (!init || !frag) throw new Error('no units');
    expect(isCompleteInitSegment(init.data)).toBe(true);
    const again = parseInitSegment(init.data);
    expect({ ...again, data: undefined }).toEqual({ ...init, data: undefined });
    expect(isCompleteInitSegment(init.data.subarray(0, init.data.length - 1))).toBe(false);
    expect(isCompleteInitSegment(frag.data)).toBe(false);
    expect(isCompleteInitSegment(concatBytes([init.data, frag.data]))).toBe(false);
    expect(isCompleteInitSegment(new Uint8Array(0))).toBe(false);
    // moov alone is still an init segment (ftyp is optional for MSE)
    const moov = topLevelBoxes(init.data).find((b) => b.type === 'moov');
    if (!moov) throw new Error('no moov');
    expect(isCompleteInitSegment(init.data.subarray(moov.start))).toBe(true);
  });

  it('does not alias the caller’s chunks in what it emits', () => {
    const bytes = clip('base-320').bytes.slice();
    const splitter = new RelaySplitter();
    const units = splitter.push(bytes);
    const before = units.map((u) => Buffer.from(u.data).toString('hex'));
    bytes.fill(0);
    expect(units.map((u) => Buffer.from(u.data).toString('hex'))).toEqual(before);
  });

  it('reads 64-bit box sizes like 32-bit ones', () => {
    const bytes = clip('base-320').bytes;
    // Rewrite moov and every mdat with size=1 + largesize (the splitter ignores trun data offsets).
    const parts = topLevelBoxes(bytes).map(({ type, start, size }) => {
      const b = bytes.subarray(start, start + size);
      if (type !== 'moov' && type !== 'mdat') return b;
      return concatBytes([u32(1), b.subarray(4, 8), u64(size + 8), b.subarray(8)]);
    });
    const rewritten = concatBytes(parts);
    const plain = split([bytes]);
    const large = split(randomChunks(rewritten, 7, 300));
    expect(large.map((u) => u.data.length)).toEqual(plain.map((u) => u.data.length + (u.kind === 'other' ? 0 : 8)));
    expect(Buffer.from(concatBytes(large.map((u) => u.data))).equals(Buffer.from(rewritten))).toBe(true);
    const strip = (us: Fmp4Unit[]) => us.map((u) => ({ ...u, data: undefined, size: undefined }));
    expect(strip(large)).toEqual(strip(plain));
  });
});

describe('RelaySplitter on hand-built boxes', () => {
  const init = syntheticInit({ width: 1280, height: 720, avc: [0x4d, 0x40, 0x1f], timescale: 90000, trex: { duration: 3000, flags: NON_SYNC } });

  it('reads codec, size and timescale from the sample entry, falling back to tkhd', () => {
    const [unit] = new RelaySplitter().push(init);
    expect(unit).toMatchObject({ kind: 'init', codec: 'avc1.4d401f', width: 1280, height: 720, timescale: 90000, trackId: 1 });
    const fromTkhd = syntheticInit({ width: 0, height: 0, tkhdWidth: 704, tkhdHeight: 576, tkhdVersion: 1, avc: [0x64, 0, 0x28], entry: 'avc3' });
    expect(new RelaySplitter().push(fromTkhd)[0]).toMatchObject({ codec: 'avc3.640028', width: 704, height: 576 });
  });

  it('takes keyframe and duration from trun, then tfhd defaults, then trex', () => {
    const s = new RelaySplitter();
    s.push(init);
    const cases: Array<[Parameters<typeof syntheticFragment>[0], boolean, number]> = [
      // trex only: non-sync default, 3000 per sample
      [{ sequence: 1, decodeTime: 0, trun: { count: 2 } }, false, 6000],
      // tfhd default flags say sync; tfhd default duration wins over trex
      [{ sequence: 2, decodeTime: 6000, tfhd: { defaultFlags: SYNC, defaultDuration: 1500 }, trun: { count: 4 } }, true, 6000],
      // first_sample_flags wins over tfhd defaults
      [{ sequence: 3, decodeTime: 12000, tfhd: { defaultFlags: NON_SYNC }, trun: { count: 3, firstFlags: SYNC, durations: [1, 2, 3] } }, true, 6],
      // per-sample flags: the first sample's decide
      [{ sequence: 4, decodeTime: 2 ** 40, tfdt64: true, trun: { count: 2, flags: [NON_SYNC, SYNC], durations: [10, 20] } }, false, 30],
      [{ sequence: 5, decodeTime: 2 ** 40 + 30, tfdt64: true, trun: { count: 2, flags: [SYNC, NON_SYNC] } }, true, 6000],
      // sample_depends_on = 1 is never a keyframe, even without the non-sync bit
      [{ sequence: 6, decodeTime: 0, trun: { count: 1, firstFlags: 0x01000000 } }, false, 3000],
      // the non-sync bit alone (depends_on unknown) is not a keyframe; no flags at all is
      [{ sequence: 7, decodeTime: 0, trun: { count: 1, firstFlags: 0x00010000 } }, false, 3000],
      [{ sequence: 8, decodeTime: 0, trun: { count: 1, firstFlags: 0 } }, true, 3000],
      // every optional tfhd field present: the defaults are read at the right offsets
      [
        {
          sequence: 9,
          decodeTime: 0,
          tfhd: { baseDataOffset: 0xdeadbeef, sampleDescriptionIndex: 0x01010000, defaultDuration: 777, defaultSize: 0x01010000, defaultFlags: SYNC },
          trun: { count: 2 },
        },
        true,
        1554,
      ],
    ];
    for (const [f, keyframe, duration] of cases) {
      const [unit] = s.push(syntheticFragment(f));
      expect(unit, `fragment ${f.sequence}`).toMatchObject({
        kind: 'fragment',
        keyframe,
        duration,
        sampleCount: f.trun.count,
        baseMediaDecodeTime: f.decodeTime,
        sequenceNumber: f.sequence,
      });
    }
  });

  it('keeps styp/prft with the fragment they precede and reports stray boxes as other units', () => {
    const s = new RelaySplitter();
    s.push(init);
    const styp = box('styp', [new TextEncoder().encode('msdh'), u32(0)]);
    const prft = fullBox('prft', 1, 0, [u32(1), u64(123), u64(456)]);
    const frag = syntheticFragment({ sequence: 1, decodeTime: 0, prefix: [styp, prft], trun: { count: 1, firstFlags: SYNC } });
    const free = box('free', [new Uint8Array(5)]);
    const units = s.push(concatBytes([frag, free]));
    expect(units.map((u) => u.kind)).toEqual(['fragment', 'other']);
    expect(Buffer.from(units[0]?.data ?? []).equals(Buffer.from(frag))).toBe(true);
    expect(units[1]).toMatchObject({ kind: 'other', type: 'free' });
  });

  it('accepts a new init mid-stream (the encoder restarted with another definition)', () => {
    const s = new RelaySplitter();
    const other = syntheticInit({ width: 640, height: 360, avc: [0x42, 0xc0, 0x1e], trex: { duration: 3000, flags: NON_SYNC } });
    const units = s.push(
      concatBytes([init, syntheticFragment({ sequence: 1, decodeTime: 0, trun: { count: 1, firstFlags: SYNC } }), other, syntheticFragment({ sequence: 1, decodeTime: 0, trun: { count: 1 } })]),
    );
    expect(units.map((u) => (u.kind === 'init' ? u.codec : u.kind))).toEqual(['avc1.4d401f', 'fragment', 'avc1.42c01e', 'fragment']);
    expect(s.init?.codec).toBe('avc1.42c01e');
  });
});

describe('RelaySplitter rejects what it cannot relay', () => {
  it('rejects an oversized box as soon as its header arrives, holding no body', () => {
    const s = new RelaySplitter();
    s.push(syntheticInit({ width: 2, height: 2, avc: [0x42, 0xc0, 0x1e] }));
    const header = concatBytes([u32(17 * 1024 * 1024), new TextEncoder().encode('mdat')]);
    const err = expectError(() => s.push(header), 'tooLarge');
    expect(err.message).toMatch(/exceeds/);
    expect(s.bufferedBytes).toBe(0);
    // 64-bit sizes too
    const s64 = new RelaySplitter();
    expectError(() => s64.push(concatBytes([u32(1), new TextEncoder().encode('free'), u64(2n ** 62n)])), 'tooLarge');
  });

  it('honours a configured limit on boxes and on the assembled unit', () => {
    const bytes = clip('base-320').bytes;
    const biggestMdat = Math.max(...topLevelBoxes(bytes).filter((b) => b.type === 'mdat').map((b) => b.size));
    expectError(() => split(randomChunks(bytes, 1), new RelaySplitter({ maxBoxBytes: biggestMdat - 1 })), 'tooLarge');
    // The mdat fits but moof + mdat does not.
    expectError(() => split([bytes], new RelaySplitter({ maxBoxBytes: biggestMdat })), 'tooLarge');
    expect(() => split([bytes], new RelaySplitter({ maxBoxBytes: biggestMdat + 4096 }))).not.toThrow();
  });

  it('rejects garbage with a typed error, and stays failed', () => {
    const rnd = seededRandom(42);
    for (let n = 0; n < 50; n++) {
      const junk = Uint8Array.from({ length: 64 + Math.floor(rnd() * 4096) }, () => Math.floor(rnd() * 256));
      const s = new RelaySplitter();
      let thrown: unknown;
      try {
        for (const c of randomChunks(junk, n, 100)) s.push(c);
        s.end();
      } catch (err) {
        thrown = err;
      }
      expect(thrown, `junk #${n}`).toBeInstanceOf(Fmp4Error);
      expect(() => s.push(Uint8Array.of(0))).toThrow(thrown as Error);
    }
    expectError(() => new RelaySplitter().push(new TextEncoder().encode('this is not an mp4 stream at all')), 'tooLarge');
    expectError(() => new RelaySplitter().push(Uint8Array.of(0, 0, 0, 4, 0x66, 0x74, 0x79, 0x70)), 'malformed');
    expectError(() => new RelaySplitter().push(Uint8Array.of(0, 0, 0, 16, 0, 1, 2, 3)), 'malformed');
    expectError(() => new RelaySplitter().push(concatBytes([u32(0), new TextEncoder().encode('mdat')])), 'unsupported');
  });

  it('rejects fragments without an init and boxes out of order', () => {
    const bytes = clip('base-320').bytes;
    const boxes = topLevelBoxes(bytes);
    const firstMoof = boxes.find((b) => b.type === 'moof');
    const moov = boxes.find((b) => b.type === 'moov');
    if (!firstMoof || !moov) throw new Error('clip without moof/moov');
    expect(expectError(() => split([bytes.subarray(firstMoof.start)]), 'malformed').message).toMatch(/before any init/);
    // mdat straight after the init
    const mdat = boxes.find((b) => b.type === 'mdat');
    if (!mdat) throw new Error('no mdat');
    const initBytes = bytes.subarray(0, moov.start + moov.size);
    expectError(() => split([initBytes, bytes.subarray(mdat.start, mdat.start + mdat.size)]), 'malformed');
    // moof, moof
    const moofBytes = bytes.subarray(firstMoof.start, firstMoof.start + firstMoof.size);
    expectError(() => split([initBytes, moofBytes, moofBytes]), 'malformed');
    // init segment inside a fragment
    expectError(() => split([initBytes, moofBytes, initBytes]), 'malformed');
  });

  it('rejects a trun whose sample table does not fit, and a track of a codec the relay does not carry (VP9)', () => {
    const s = new RelaySplitter();
    s.push(syntheticInit({ width: 2, height: 2, avc: [0x42, 0xc0, 0x1e] }));
    const forged = box('moof', [
      fullBox('mfhd', 0, 0, [u32(1)]),
      box('traf', [fullBox('tfhd', 0, 0x020008, [u32(1), u32(100)]), fullBox('trun', 0, 0x100, [u32(0xffffffff), u32(1)])]),
    ]);
    expectError(() => s.push(forged), 'malformed');
    expectError(() => new RelaySplitter().push(syntheticInit({ width: 2, height: 2, avc: [1, 1, 1], entry: 'vp09' })), 'unsupported');
  });

  it('reports a stream that ends inside a box as truncated', () => {
    const bytes = clip('base-320').bytes;
    const s = new RelaySplitter();
    s.push(bytes.subarray(0, 1000));
    expectError(() => s.end(), 'truncated');
  });
});
