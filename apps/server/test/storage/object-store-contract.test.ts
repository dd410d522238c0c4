import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalObjectStore } from '../../src/core/storage/local-object-store.ts';
import { NatsObjectStore } from '../../src/core/storage/nats-object-store.ts';
import { ObjectNotFoundError, type ObjectStore } from '../../src/core/storage/object-store.ts';

/** The machine's NATS with JetStream. Override with TEST_NATS_URL. */
const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
/** The NATS object store keeps objects in chunks of this many bytes (the client's default). */
const CHUNK = 128 * 1024;

async function collect(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

interface Backend {
  name: string;
  open(): Promise<ObjectStore>;
  cleanup(): Promise<void>;
}

const folders: string[] = [];
const buckets: string[] = [];
const backends: Backend[] = [
  {
    name: 'local',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'store-contract-'));
      folders.push(dir);
      return new LocalObjectStore(join(dir, 'objects'));
    },
    async cleanup() {
      for (const dir of folders) rmSync(dir, { recursive: true, force: true });
    },
  },
  {
    name: 'nats',
    async open() {
      const bucket = `contract_${randomBytes(5).toString('hex')}`;
      buckets.push(bucket);
      return NatsObjectStore.open({ url: NATS_URL, bucket });
    },
    async cleanup() {
      // Each test file gets throw-away buckets; remove them from the server.
      const { connect } = await import('@nats-io/transport-node');
      const { Objm } = await import('@nats-io/obj');
      const nc = await connect({ servers: NATS_URL });
      const objm = new Objm(nc);
      for (const b of buckets) await (await objm.open(b)).destroy();
      await nc.close();
    },
  },
];

describe.each(backends)('ObjectStore contract: $name', (backend) => {
  let store: ObjectStore;
  // 3 MB and a bit: 24 full chunks and a partial one on NATS.
  const big = randomBytes(3 * 1024 * 1024 + 12_345);

  beforeAll(async () => {
    store = await backend.open();
  });
  afterAll(async () => {
    await store.close();
    await backend.cleanup();
  });

  it('puts a few MB from a stream and gets them back whole and by stream', async () => {
    const pieces = Readable.from(Array.from({ length: Math.ceil(big.length / 50_000) }, (_, i) => big.subarray(i * 50_000, (i + 1) * 50_000)));
    const stat = await store.put('recordings/cam-1/000001.mp4', pieces);
    expect(stat).toMatchObject({ key: 'recordings/cam-1/000001.mp4', size: big.length });
    expect((await store.get('recordings/cam-1/000001.mp4')).equals(big)).toBe(true);
    expect((await collect(await store.read('recordings/cam-1/000001.mp4'))).equals(big)).toBe(true);
  });

  it('reads byte ranges across chunk boundaries, clamped at the end', async () => {
    await store.put('ranges/big.bin', big);
    const cases: Array<[number, number | undefined]> = [
      [0, 0],
      [CHUNK - 1, CHUNK],
      [CHUNK, 2 * CHUNK - 1],
      [5 * CHUNK - 3, 7 * CHUNK + 2],
      [big.length - 10, undefined],
      [big.length - 10, big.length + 1000],
      [1234, 1234 + 100],
    ];
    for (const [start, end] of cases) {
      const got = await collect(await store.read('ranges/big.bin', { start, end }));
      const want = big.subarray(start, end === undefined ? big.length : Math.min(end, big.length - 1) + 1);
      expect(got.length, `${start}-${end}`).toBe(want.length);
      expect(got.equals(want), `${start}-${end}`).toBe(true);
    }
    await expect(store.read('ranges/big.bin', { start: big.length })).rejects.toThrow(RangeError);
  });

  it('stats an object and replaces it on a second put', async () => {
    const before = Date.now();
    await store.put('pictures/p1.jpg', Buffer.from('first version'));
    await store.put('pictures/p1.jpg', Buffer.from('second'));
    const stat = await store.stat('pictures/p1.jpg');
    expect(stat?.size).toBe(6);
    expect(stat?.mtimeMs).toBeGreaterThan(before - 2000);
    expect((await store.get('pictures/p1.jpg')).toString()).toBe('second');
    expect(await store.stat('pictures/none.jpg')).toBeUndefined();
  });

  it('lists by prefix, sorted, and not beyond it', async () => {
    await Promise.all(['list/a/2.mp4', 'list/a/1.mp4', 'list/ab/3.mp4', 'list/b/4.mp4'].map((k) => store.put(k, Buffer.from(k))));
    expect((await store.list('list/a/')).map((o) => o.key)).toEqual(['list/a/1.mp4', 'list/a/2.mp4']);
    expect((await store.list('list/a')).map((o) => o.key)).toEqual(['list/a/1.mp4', 'list/a/2.mp4', 'list/ab/3.mp4']);
    expect((await store.list('list/')).map((o) => [o.key, o.size])).toEqual([
      ['list/a/1.mp4', 12],
      ['list/a/2.mp4', 12],
      ['list/ab/3.mp4', 13],
      ['list/b/4.mp4', 12],
    ]);
    expect(await store.list('nothing/here/')).toEqual([]);
  });

  it('deletes: the object is gone from get, stat and list', async () => {
    await store.put('del/x.bin', Buffer.from('x'));
    expect(await store.delete('del/x.bin')).toBe(true);
    expect(await store.delete('del/x.bin')).toBe(false);
    expect(await store.stat('del/x.bin')).toBeUndefined();
    expect(await store.list('del/')).toEqual([]);
    await expect(store.get('del/x.bin')).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it('a missing key is a clear not-found error', async () => {
    await expect(store.get('recordings/nope/000001.mp4')).rejects.toThrow('no object "recordings/nope/000001.mp4" in the store');
    await expect(store.read('recordings/nope/000001.mp4', { start: 0 })).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses keys that could leave the store', async () => {
    await expect(store.put('../escape.bin', Buffer.from('x'))).rejects.toThrow('invalid object key');
    await expect(store.get('/abs/path')).rejects.toThrow('invalid object key');
  });

  it('concurrent puts of different keys all land intact', async () => {
    const blobs = Array.from({ length: 8 }, (_, i) => randomBytes(200_000 + i * 7_919));
    await Promise.all(blobs.map((b, i) => store.put(`concurrent/${i}.bin`, Readable.from([b.subarray(0, 1000), b.subarray(1000)]))));
    const listed = await store.list('concurrent/');
    expect(listed.map((o) => o.size)).toEqual(blobs.map((b) => b.length));
    for (const [i, b] of blobs.entries()) {
      expect((await store.get(`concurrent/${i}.bin`)).equals(b)).toBe(true);
      // Chunks of objects put at once may lie interleaved in a NATS stream: ranges still come right.
      const start = CHUNK - 100 + i;
      expect((await collect(await store.read(`concurrent/${i}.bin`, { start, end: start + 150_000 }))).equals(b.subarray(start, start + 150_001))).toBe(true);
    }
  });

});

describe('LocalObjectStore on disk', () => {
  it('keeps files private (0600 in 0700 folders) and leaves no temp files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-local-'));
    try {
      const store = new LocalObjectStore(join(dir, 'objects'));
      await store.put('private/deep/file.bin', Readable.from([Buffer.from('sec'), Buffer.from('ret')]));
      expect(statSync(join(store.root, 'private/deep/file.bin')).mode & 0o777).toBe(0o600);
      expect(statSync(join(store.root, 'private/deep')).mode & 0o777).toBe(0o700);
      expect(readdirSync(join(store.root, 'private/deep'))).toEqual(['file.bin']);
      expect((await store.get('private/deep/file.bin')).toString()).toBe('secret');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
