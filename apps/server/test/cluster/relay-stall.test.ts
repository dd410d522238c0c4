import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LinkKind } from '@ship-cctv/protocol';
import { LinkRelay } from '../../src/core/ship-link/link-relay.ts';
import { DedicatedRedis } from './dedicated-redis.ts';
import { OwnerLink, listener, opened, ownership } from './relay-doubles.ts';

const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
const HEARTBEAT_MS = 200;
const log = pino({ level: 'silent' });

/**
 * Relayed streams (PTZ, playback, talk on an instance that does not hold the ship's link, through
 * its owner) under a Redis stall (CLIENT PAUSE … ALL on a redis-server of the test's own): a stall
 * of many heartbeats but shorter than the ownership lease closes none of them on either side, and
 * they carry messages and bytes both ways after it; a stall longer than the lease plus five
 * heartbeats closes them on both sides.
 */
describe('relayed streams through a Redis stall', () => {
  let redis: DedicatedRedis;
  const owners = new Map<string, string>();
  const closers: (() => Promise<unknown>)[] = [];
  const pair = async (leaseMs: number) => {
    const prefix = `shipcctv-test-${randomBytes(4).toString('hex')}:`;
    const link = new OwnerLink();
    const opts = { heartbeatMs: HEARTBEAT_MS, leaseMs };
    const owner = await LinkRelay.connect(redis.url, prefix, link, ownership('owner', owners), log, opts);
    const requester = await LinkRelay.connect(redis.url, prefix, new OwnerLink(), ownership('requester', owners), log, opts);
    closers.push(
      () => owner.close(),
      () => requester.close(),
    );
    owners.set(SHIP, 'owner');
    const kinds = ['ptz', 'playback', 'talk'] as const satisfies readonly LinkKind[];
    const streams = [];
    for (const kind of kinds) {
      const { heard, handler } = listener();
      const stream = await opened(requester.openStream(SHIP, kind, handler));
      const side = link.streams.at(-1);
      if (!side) throw new Error(`the owner opened no ${kind} stream`);
      streams.push({ kind, heard, stream, side });
    }
    return { owner, requester, streams };
  };
  /** Pauses every client of the test's Redis for `ms`; answers once Redis answers again. */
  const stall = async (ms: number) => {
    const t0 = Date.now();
    await redis.pause(ms);
    await redis.client.ping();
    return Date.now() - t0;
  };

  beforeAll(async () => {
    redis = await DedicatedRedis.start();
  }, 30_000);
  afterEach(async () => {
    for (const close of closers.splice(0)) await close().catch(() => undefined);
    owners.clear();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('a stall of ten heartbeats, shorter than the lease: PTZ, playback and talk stay open on both sides and carry on after it', async () => {
    const { owner, requester, streams } = await pair(3_000);
    const [ptz, playback, talk] = streams;
    if (!ptz || !playback || !talk) throw new Error('streams missing');
    const stalled = await stall(HEARTBEAT_MS * 10);
    expect(stalled).toBeGreaterThanOrEqual(HEARTBEAT_MS * 10);

    // Five heartbeats after the stall, one exchange each way on every stream per heartbeat.
    for (let i = 0; i < 5; i++) {
      const sentAt = Date.now();
      ptz.stream.send({ type: 'ptz.stop', requestId: ptz.stream.id, cameraId: CAMERA });
      talk.stream.sendBinary(Buffer.from([i]));
      ptz.side.handler.message({ type: 'ptz.done', requestId: ptz.side.stream.id });
      playback.side.handler.data?.(Buffer.from([i, i]));
      await expect.poll(() => ptz.side.sent.length, { interval: 10 }).toBe(i + 1);
      await expect.poll(() => talk.side.bytes.length, { interval: 10 }).toBe(i + 1);
      await expect.poll(() => ptz.heard.messages.length, { interval: 10 }).toBe(i + 1);
      await expect.poll(() => playback.heard.bytes.length, { interval: 10 }).toBe(i + 1);
      await new Promise((r) => setTimeout(r, Math.max(0, sentAt + HEARTBEAT_MS - Date.now())));
    }
    for (const s of streams) {
      expect(s.heard.closed, `the requester's ${s.kind} stream`).toEqual([]);
      expect(s.stream.open, `the requester's ${s.kind} stream`).toBe(true);
      expect(s.side.open, `the ${s.kind} stream on the owner's link`).toBe(true);
    }
    expect(talk.side.bytes).toEqual([0, 1, 2, 3, 4].map((i) => Buffer.from([i])));
    expect(playback.heard.bytes).toEqual([0, 1, 2, 3, 4].map((i) => Buffer.from([i, i])));
    expect(requester.counts.requested).toBe(3);
    expect(owner.counts.served).toBe(3);
    console.log(`[relay through a Redis stall] ${stalled} ms stall (${Math.round(stalled / HEARTBEAT_MS)} heartbeats, lease 3000 ms): 3 of 3 relayed streams (ptz, playback, talk) kept on both sides`);
  });

  it('a stall longer than the lease plus five heartbeats closes them on both sides', async () => {
    const leaseMs = HEARTBEAT_MS * 2;
    const { owner, requester, streams } = await pair(leaseMs);
    const t0 = Date.now();
    // They close during the stall, some four heartbeats before it ends.
    await stall(leaseMs + HEARTBEAT_MS * 10);
    for (const s of streams) {
      await expect.poll(() => s.heard.closed, { timeout: 5_000, interval: 20 }).toEqual(['the instance holding the ship link stopped answering']);
      await expect.poll(() => s.side.open, { timeout: 5_000, interval: 20 }).toBe(false);
    }
    // Last heard at most a heartbeat before the stall began.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(leaseMs + HEARTBEAT_MS * 4);
    expect(requester.counts.requested).toBe(0);
    expect(owner.counts.served).toBe(0);
  });
});
