import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fmp4Splitter } from '@ship-cctv/media';
import { filePart } from '../../src/backfill/file-part.ts';
import { run, tempDir } from '../media/helpers.ts';

const tmp = tempDir('file-part-');
/** 4 s at 10 fps, a keyframe each second, fragments of half a second: as the ship recorder writes its files. */
let file: Uint8Array;
const START = 1_800_000_000_000;

const units = (bytes: Uint8Array) => new Fmp4Splitter().push(bytes);

describe('the part of a recorded file covering a span', () => {
  beforeAll(async () => {
    const path = join(tmp.dir, 'segment.mp4');
    await run('ffmpeg', [
      '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=160x90:rate=10', '-t', '4',
      '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-g', '10', '-keyint_min', '10', '-sc_threshold', '0', '-bf', '0',
      '-movflags', '+frag_keyframe+empty_moov+default_base_moof', '-frag_duration', '500000', path,
    ]);
    file = new Uint8Array(readFileSync(path));
  });
  afterAll(() => tmp.remove());

  it('takes the init segment and the whole fragments from the keyframe before the span to its end, bytes as they are', () => {
    const part = filePart(file, START, START + 4_000, START + 1_200, START + 2_600);
    expect(part).toMatchObject({ start: START + 1_000, end: START + 3_000 });
    const all = units(file);
    const mine = units(part.bytes);
    expect(mine[0]?.kind).toBe('init');
    const fragments = mine.filter((u) => u.kind === 'fragment');
    expect(fragments).toHaveLength(4);
    expect(fragments[0]?.keyframe).toBe(true);
    // Each fragment is one of the file's, unchanged.
    const whole = Buffer.from(file);
    for (const f of fragments) expect(whole.indexOf(Buffer.from(f.data))).toBeGreaterThan(0);
    expect(part.bytes.length).toBeLessThan(file.length * 0.75);
    expect(all.filter((u) => u.kind === 'fragment')).toHaveLength(8);
  });

  it('sends the whole file when the span covers it, or when it is not fragmented MP4', () => {
    expect(filePart(file, START, START + 4_000, START - 10_000, START + 10_000).bytes).toBe(file);
    expect(filePart(file, START, START + 4_000, START, START + 3_900).bytes.length).toBe(file.length);
    const junk = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(filePart(junk, START, START + 4_000, START + 1_000, START + 2_000).bytes).toBe(junk);
  });
});
