import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fmp4Splitter } from '@ship-cctv/media';
import { type FilePart, filePart } from '../../src/backfill/file-part.ts';
import { run, tempDir } from '../media/helpers.ts';

const tmp = tempDir('file-part-');
/** 4 s at 10 fps, a keyframe each second, fragments of half a second: as the ship recorder writes its files. */
let file: Uint8Array;
let path: string;
const START = 1_800_000_000_000;

const units = (bytes: Uint8Array) => new Fmp4Splitter().push(bytes);
const bytesOf = (part: FilePart) => Buffer.concat(part.ranges.map((r) => file.subarray(r.from, r.to)));

describe('the part of a recorded file covering a span', () => {
  beforeAll(async () => {
    path = join(tmp.dir, 'segment.mp4');
    await run('ffmpeg', [
      '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=160x90:rate=10', '-t', '4',
      '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-g', '10', '-keyint_min', '10', '-sc_threshold', '0', '-bf', '0',
      '-movflags', '+frag_keyframe+empty_moov+default_base_moof', '-frag_duration', '500000', path,
    ]);
    file = new Uint8Array(readFileSync(path));
  });
  afterAll(() => tmp.remove());

  it('takes the init segment and the whole fragments from the keyframe before the span to its end, bytes as they are', async () => {
    const part = await filePart(path, START, START + 4_000, START + 1_200, START + 2_600);
    expect(part).toMatchObject({ start: START + 1_000, end: START + 3_000, whole: false });
    const bytes = bytesOf(part);
    expect(bytes.length).toBe(part.bytes);
    const all = units(file);
    const mine = units(bytes);
    expect(mine[0]?.kind).toBe('init');
    const fragments = mine.filter((u) => u.kind === 'fragment');
    expect(fragments).toHaveLength(4);
    expect(fragments[0]?.keyframe).toBe(true);
    // Each fragment is one of the file's, unchanged.
    const whole = Buffer.from(file);
    for (const f of fragments) expect(whole.indexOf(Buffer.from(f.data))).toBeGreaterThan(0);
    expect(part.bytes).toBeLessThan(file.length * 0.75);
    expect(all.filter((u) => u.kind === 'fragment')).toHaveLength(8);
    // What the part holds, measured from its headers: 160×90 at 10 pictures a second over 2 s.
    expect(part.definition).toMatchObject({ width: 160, height: 90, frameRate: 10, durationMs: 2_000 });
    expect(part.definition?.bitrateKbps).toBe(Math.round((part.bytes * 8) / 2_000));
  });

  it('sends the whole file when the span covers it, or when it is not fragmented MP4', async () => {
    const around = await filePart(path, START, START + 4_000, START - 10_000, START + 10_000);
    expect(around).toMatchObject({ whole: true, bytes: file.length, ranges: [{ from: 0, to: file.length }], definition: { width: 160, height: 90, frameRate: 10 } });
    expect((await filePart(path, START, START + 4_000, START, START + 3_900)).bytes).toBe(file.length);
    const junk = join(tmp.dir, 'junk.mp4');
    writeFileSync(junk, new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]));
    const part = await filePart(junk, START, START + 4_000, START + 1_000, START + 2_000);
    expect(part).toMatchObject({ whole: true, bytes: 9 });
    expect(part.definition).toBeUndefined();
  });

  it('leaves out a fragment cut short at the end of a file still being written', async () => {
    const cut = join(tmp.dir, 'cut.mp4');
    // Into the last fragment's pictures (ffmpeg ends a file with an mfra box after them).
    const lastMdat = Buffer.from(file).lastIndexOf(Buffer.from('mdat')) - 4;
    const mdatEnd = lastMdat + Buffer.from(file).readUInt32BE(lastMdat);
    writeFileSync(cut, file.subarray(0, mdatEnd - 100));
    const part = await filePart(cut, START, START + 4_000, START + 3_000, START + 4_000);
    const fragments = units(Buffer.concat(part.ranges.map((r) => file.subarray(r.from, r.to)))).filter((u) => u.kind === 'fragment');
    expect(part.whole).toBe(false);
    expect(fragments).toHaveLength(1);
    expect(part.end).toBe(START + 3_500);
  });
});
