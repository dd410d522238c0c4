/**
 * Put/get throughput and range-read latency of the two ObjectStore backends, on this machine: the
 * local filesystem (a temp folder) and NATS JetStream's object store (NATS_URL, default the
 * machine's nats://127.0.0.1:4222, a throw-away bucket). Run from the repository root:
 *
 *   node --import tsx apps/server/bench/object-store.bench.ts [--mb=32] [--reads=40]
 *
 * Writes one object of `--mb` MB from a stream, reads it back whole, then `--reads` random 64 KiB
 * range reads near its start and near its end: on NATS a range read streams the chunks before the
 * range and drops them, so the figure near the end shows what that costs. Stops by itself.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Objm } from '@nats-io/obj';
import { connect } from '@nats-io/transport-node';
import { LocalObjectStore } from '../src/core/storage/local-object-store.ts';
import { NatsObjectStore } from '../src/core/storage/nats-object-store.ts';
import type { ObjectStore } from '../src/core/storage/object-store.ts';

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const MB = arg('mb', 32);
const READS = arg('reads', 40);
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const RANGE = 64 * 1024;

const data = randomBytes(MB * 1024 * 1024);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;

async function drain(stream: Readable): Promise<number> {
  let n = 0;
  for await (const part of stream) n += (part as Buffer).length;
  return n;
}

async function bench(name: string, store: ObjectStore): Promise<void> {
  const pieces = Array.from({ length: Math.ceil(data.length / 65_536) }, (_, i) => data.subarray(i * 65_536, (i + 1) * 65_536));
  let t = performance.now();
  await store.put('bench/big.bin', Readable.from(pieces));
  const putS = (performance.now() - t) / 1000;
  t = performance.now();
  const back = await store.get('bench/big.bin');
  const getS = (performance.now() - t) / 1000;
  if (!back.equals(data)) throw new Error(`${name}: the object came back different`);
  const latency = async (from: number, to: number) => {
    const ms: number[] = [];
    for (let i = 0; i < READS; i++) {
      const start = from + Math.floor(Math.random() * (to - from - RANGE));
      const t0 = performance.now();
      const n = await drain(await store.read('bench/big.bin', { start, end: start + RANGE - 1 }));
      ms.push(performance.now() - t0);
      if (n !== RANGE) throw new Error(`${name}: range read gave ${n} bytes`);
    }
    return ms;
  };
  const head = await latency(0, 1024 * 1024);
  const tail = await latency(data.length - 1024 * 1024, data.length);
  console.log(
    `${name.padEnd(6)} put ${(MB / putS).toFixed(0).padStart(5)} MB/s  get ${(MB / getS).toFixed(0).padStart(5)} MB/s  ` +
      `64 KiB range in the first MB: median ${median(head).toFixed(2)} ms p95 ${p95(head).toFixed(2)} ms  ` +
      `in the last MB: median ${median(tail).toFixed(2)} ms p95 ${p95(tail).toFixed(2)} ms`,
  );
  await store.delete('bench/big.bin');
}

const dir = mkdtempSync(join(tmpdir(), 'object-store-bench-'));
const bucket = `bench_${randomBytes(4).toString('hex')}`;
console.log(`object of ${MB} MB, ${READS} range reads of 64 KiB each near the start and near the end`);
try {
  await bench('local', new LocalObjectStore(dir));
  const nats = await NatsObjectStore.open({ url: NATS_URL, bucket });
  try {
    await bench('nats', nats);
  } finally {
    await nats.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  const nc = await connect({ servers: NATS_URL });
  await (await new Objm(nc).open(bucket)).destroy().catch(() => undefined);
  await nc.close();
}
