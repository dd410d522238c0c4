import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SegmentIndex } from '../../src/recorder/segment-index.ts';
import { tempDir } from '../media/helpers.ts';

const tmp = tempDir('segment-index-find-');

describe('finding a closed segment of the index', () => {
  afterAll(() => tmp.remove());

  it('by its start (the files of the same start told apart by name), or by name alone', () => {
    const index = new SegmentIndex(tmp.dir);
    const add = (file: string, start: number, end: number) => {
      writeFileSync(join(tmp.dir, file), 'x');
      index.add({ file, start, end, bytes: 1 });
    };
    for (let i = 0; i < 500; i++) add(`r-${String(i).padStart(5, '0')}.mp4`, 1_000 + i * 2_000, 3_000 + i * 2_000);
    // A second run starting at the same moment as one of the first.
    add('s-00000.mp4', 1_000 + 250 * 2_000, 2_000 + 250 * 2_000);
    expect(index.find('r-00250.mp4', 1_000 + 250 * 2_000)).toMatchObject({ file: 'r-00250.mp4', start: 501_000 });
    expect(index.find('s-00000.mp4', 501_000)).toMatchObject({ file: 's-00000.mp4', end: 502_000 });
    expect(index.find('r-00499.mp4', 999_000)).toMatchObject({ file: 'r-00499.mp4' });
    expect(index.find('r-00000.mp4', 1_000)).toMatchObject({ file: 'r-00000.mp4' });
    // A start that is not the file's: not found (shore asks for what it was told).
    expect(index.find('r-00250.mp4', 501_001)).toBeUndefined();
    expect(index.find('r-00250.mp4')).toMatchObject({ start: 501_000 });
    expect(index.find('index.json')).toBeUndefined();
  });
});
