import { Readable } from 'node:stream';
import { connect } from '@nats-io/transport-node';
import { type JetStreamManager, jetstreamManager } from '@nats-io/jetstream';
import { type ObjectInfo, type ObjectStore as NatsBucket, Objm, StorageType } from '@nats-io/obj';
import { checkKey, clampRange, ObjectNotFoundError, type ObjectStat, type ObjectStore } from './object-store.ts';

type NatsConnection = Awaited<ReturnType<typeof connect>>;

export interface NatsObjectStoreOptions {
  /** NATS server(s), e.g. `nats://127.0.0.1:4222` (NATS_URL). */
  url: string;
  /** Object store bucket (NATS_BUCKET, default `shipcctv`). */
  bucket: string;
  /** Replicas of the bucket's stream in a JetStream cluster (default 1). */
  replicas?: number;
}

/**
 * NATS JetStream's object store: every instance connected to the same NATS (cluster) sees the same
 * objects, and they outlive the instance that wrote them. Objects are kept as chunks of 128 KiB
 * (the client's default) on a file-backed stream. The client reads an object only from its first
 * chunk on; a range read instead fetches just the chunks it needs by JetStream direct get when the
 * object's chunks lie back to back in the stream (one writer at a time), and otherwise streams from
 * the first chunk, drops what lies before `start` and stops after `end`. Whole reads go through the
 * client, which checks the object's SHA-256; range reads cannot. apps/server/bench/object-store.bench.ts
 * measures both backends.
 */
export class NatsObjectStore implements ObjectStore {
  readonly kind = 'nats';

  private constructor(
    private readonly nc: NatsConnection,
    private readonly bucket: NatsBucket,
    private readonly jsm: JetStreamManager,
    private readonly bucketName: string,
  ) {}

  static async open(options: NatsObjectStoreOptions): Promise<NatsObjectStore> {
    const nc = await connect({ servers: options.url.split(','), name: 'ship-cctv-storage', maxReconnectAttempts: -1 });
    try {
      const bucket = await new Objm(nc).create(options.bucket, { storage: StorageType.File, replicas: options.replicas ?? 1 });
      return new NatsObjectStore(nc, bucket, await jetstreamManager(nc), options.bucket);
    } catch (err) {
      await nc.close();
      throw err;
    }
  }

  async put(key: string, data: Uint8Array | Readable | AsyncIterable<Uint8Array>): Promise<ObjectStat> {
    checkKey(key);
    const info =
      data instanceof Uint8Array
        ? await this.bucket.putBlob({ name: key }, data)
        : await this.bucket.put({ name: key }, webStreamOf(bytesOf(data)));
    return toStat(info);
  }

  async get(key: string): Promise<Buffer> {
    const bytes = await this.bucket.getBlob(checkKey(key));
    if (bytes === null) throw new ObjectNotFoundError(key);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  async read(key: string, range?: { start: number; end?: number }): Promise<Readable> {
    if (range) {
      // Only the object's description first: when its chunks lie back to back, fetch just those the range needs.
      const info = await this.bucket.info(checkKey(key));
      if (!info || info.deleted) throw new ObjectNotFoundError(key);
      const bounds = clampRange(key, info.size, range);
      const chunks = await this.chunkSeqs(info);
      if (chunks) return Readable.from(this.readChunks(info, chunks, bounds.start, bounds.end));
    }
    const result = await this.bucket.get(checkKey(key));
    if (result === null) throw new ObjectNotFoundError(key);
    let bounds: { start: number; end: number };
    try {
      bounds = clampRange(key, result.info.size, range);
    } catch (err) {
      await result.data.cancel();
      throw err;
    }
    return Readable.from(slice(result.data, bounds.start, bounds.end));
  }

  /**
   * Stream sequence of the object's first chunk when its chunks lie back to back in the stream (one
   * writer at a time: the usual case), so chunk k is at first + k and a range read fetches only the
   * chunks it needs by direct get. Undefined when other messages lie between them.
   */
  private async chunkSeqs(info: ObjectInfo): Promise<{ first: number; size: number } | undefined> {
    if (info.chunks === 0) return undefined;
    const subject = `$O.${this.bucketName}.C.${info.nuid}`;
    const stream = `OBJ_${this.bucketName}`;
    const [first, last] = await Promise.all([
      this.jsm.direct.getMessage(stream, { next_by_subj: subject, seq: 0 }),
      this.jsm.direct.getMessage(stream, { last_by_subj: subject }),
    ]);
    if (!first || !last || last.seq - first.seq !== info.chunks - 1) return undefined;
    return { first: first.seq, size: info.options?.max_chunk_size ?? first.data.length };
  }

  private async *readChunks(info: ObjectInfo, chunks: { first: number; size: number }, start: number, end: number): AsyncGenerator<Buffer> {
    const subject = `$O.${this.bucketName}.C.${info.nuid}`;
    const stream = `OBJ_${this.bucketName}`;
    const from = Math.floor(start / chunks.size);
    const to = Math.floor(end / chunks.size);
    const fetch = async (k: number) => {
      const m = await this.jsm.direct.getMessage(stream, { seq: chunks.first + k });
      if (!m || m.subject !== subject) throw new Error(`object "${info.name}" changed while it was read`);
      return m.data;
    };
    // A few chunks in flight at once: direct gets are request/reply, so this hides the round trips.
    const ahead: Array<Promise<Uint8Array>> = [];
    let next = from;
    for (let k = from; k <= to; k++) {
      while (next <= to && ahead.length < 4) {
        const p = fetch(next++);
        p.catch(() => undefined); // awaited in turn below; not an unhandled rejection if the reader stops first
        ahead.push(p);
      }
      const data = await ahead.shift()!;
      const at = k * chunks.size;
      const lo = Math.max(start - at, 0);
      const hi = Math.min(end + 1 - at, data.length);
      if (hi > lo) yield Buffer.from(data.buffer, data.byteOffset + lo, hi - lo);
    }
  }

  async stat(key: string): Promise<ObjectStat | undefined> {
    const info = await this.bucket.info(checkKey(key));
    return info && !info.deleted ? toStat(info) : undefined;
  }

  async list(prefix: string): Promise<ObjectStat[]> {
    const all = await this.bucket.list();
    return all
      .filter((i) => !i.deleted && i.name.startsWith(prefix))
      .map(toStat)
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async delete(key: string): Promise<boolean> {
    const info = await this.bucket.info(checkKey(key));
    if (!info || info.deleted) return false;
    await this.bucket.delete(key);
    return true;
  }

  async close(): Promise<void> {
    await this.nc.drain();
  }
}

function toStat(info: ObjectInfo): ObjectStat {
  return { key: info.name, size: info.size, mtimeMs: Date.parse(info.mtime) };
}

async function* bytesOf(data: Readable | AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for await (const chunk of data) yield typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Uint8Array);
}

/** Bytes `start`..`end` (inclusive) of a stream of chunks; stops reading (and cancels) after `end`. */
async function* slice(stream: ReadableStream<Uint8Array>, start: number, end: number): AsyncGenerator<Buffer> {
  const reader = stream.getReader();
  let at = 0;
  try {
    while (at <= end) {
      const { done, value } = await reader.read();
      if (done) break;
      const from = Math.max(start - at, 0);
      const to = Math.min(end + 1 - at, value.length);
      if (to > from) yield Buffer.from(value.buffer, value.byteOffset + from, to - from);
      at += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** A web stream of chunks (what the object store's put takes); ReadableStream.from is not typed for every workspace. */
function webStreamOf(source: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const it = source[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await it.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel(reason) {
      await it.return?.(reason);
    },
  });
}
