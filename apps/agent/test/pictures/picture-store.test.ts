import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Outbox } from '../../src/pictures/outbox.ts';
import { PictureStore } from '../../src/pictures/picture-store.ts';
import { jpegSize } from '../../src/pictures/capture.ts';
import { tempDir } from '../media/helpers.ts';

const dirs: { remove(): void }[] = [];
const temp = () => {
  const d = tempDir('picture-store-');
  dirs.push(d);
  return d.dir;
};
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

const DAY = 86_400_000;
const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill);
const add = (store: PictureStore, id: string, time: number, size = 1_000, cameraId = 'C1') =>
  store.add({ meta: { pictureId: id, cameraId, time, width: 320, height: 180, origin: 'manual' }, jpeg: bytes(size, time % 251), thumb: bytes(100, 7) });

describe('the ship picture store', () => {
  it('keeps pictures across a restart, lists a camera’s newest first, and refuses a second picture with an id', () => {
    const dir = temp();
    const now = 10 * DAY;
    const store = new PictureStore(dir, { now: () => now });
    add(store, 'picture-a', now - 3_000);
    add(store, 'picture-b', now - 2_000);
    add(store, 'picture-c', now - 1_000, 1_000, 'C2');
    expect(() => add(store, 'picture-a', now)).toThrow(/exists already/);
    // A write a crash cut short leaves a .tmp behind: the store ignores it and cleans it up.
    writeFileSync(join(dir, 'C1', 'picture-z.jpg.tmp'), 'half');

    const again = new PictureStore(dir, { now: () => now });
    expect(again.size).toBe(3);
    expect(again.totalBytes).toBe(3 * 1_100);
    expect(again.list('C1', 0, now).pictures.map((p) => p.pictureId)).toEqual(['picture-b', 'picture-a']);
    expect(again.list('C1', 0, now, 1)).toMatchObject({ truncated: true });
    expect(again.list('C1', now - 2_500, now).pictures.map((p) => p.pictureId)).toEqual(['picture-b']);
    expect(existsSync(join(dir, 'C1', 'picture-z.jpg.tmp'))).toBe(false);
    expect(again.read('picture-a')?.length).toBe(1_000);
    expect(again.readThumb('picture-a')?.length).toBe(100);
  });

  it('does not hand out a picture whose file no longer matches its checksum', () => {
    const dir = temp();
    const store = new PictureStore(dir);
    add(store, 'picture-a', Date.now());
    writeFileSync(join(dir, 'C1', 'picture-a.jpg'), bytes(1_000, 99));
    expect(store.read('picture-a')).toBeUndefined();
  });

  it('deletes by age, then the oldest until under the size limit, files and all', () => {
    const dir = temp();
    let now = 100 * DAY;
    const store = new PictureStore(dir, { now: () => now, maxAgeMs: 30 * DAY, maxBytes: 3 * 1_100 });
    add(store, 'old-one', now - 40 * DAY);
    expect(store.size).toBe(0);
    for (const [i, id] of ['p1', 'p2', 'p3', 'p4'].entries()) add(store, id, now - (10 - i) * 1_000);
    expect(store.list('C1', 0, now).pictures.map((p) => p.pictureId)).toEqual(['p4', 'p3', 'p2']);
    expect(readdirSync(join(dir, 'C1')).filter((f) => f.startsWith('p1'))).toEqual([]);
    now += 31 * DAY;
    expect(store.applyRetention()).toEqual(['p2', 'p3', 'p4']);
    expect(store.totalBytes).toBe(0);
  });
});

describe('the outbox', () => {
  it('sends pictures operators wait for first, survives a restart, and forgets only what is removed', () => {
    const file = join(temp(), 'outbox.json');
    const urgent = new Set(['m1', 'm2']);
    const box = new Outbox(file);
    box.add('t1', false);
    box.add('t2', false);
    box.add('m1', true, (id) => urgent.has(id));
    box.add('m2', true, (id) => urgent.has(id));
    box.add('t1', false);
    expect(box.all).toEqual(['m1', 'm2', 't1', 't2']);
    expect(box.promote('t2')).toBe(3);
    expect(new Outbox(file).all).toEqual(['t2', 'm1', 'm2', 't1']);
    expect(box.remove('m1')).toBe(true);
    expect(box.remove('m1')).toBe(false);
    expect(new Outbox(file).all).toEqual(['t2', 'm2', 't1']);
  });

  it('starts empty from a missing or unreadable file', () => {
    const dir = temp();
    expect(new Outbox(join(dir, 'none.json')).length).toBe(0);
    writeFileSync(join(dir, 'bad.json'), '{');
    expect(new Outbox(join(dir, 'bad.json')).length).toBe(0);
  });
});

describe('jpegSize', () => {
  it('reads the size from the start-of-frame marker and refuses what is not a JPEG', () => {
    // SOI, APP0 (length 16), SOF0 with height 180 and width 320.
    const app0 = [0xff, 0xe0, 0x00, 0x10, ...new Array<number>(14).fill(0)];
    const sof0 = [0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0xb4, 0x01, 0x40, 0x03, ...new Array<number>(9).fill(0)];
    expect(jpegSize(Uint8Array.from([0xff, 0xd8, ...app0, ...sof0]))).toEqual({ width: 320, height: 180 });
    expect(jpegSize(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 0, 0, 0, 0]))).toBeUndefined();
    expect(jpegSize(Uint8Array.from([0xff, 0xd8, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]))).toBeUndefined();
  });
});
