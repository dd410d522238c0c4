import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.ts';
import type { ShipOwner } from '../../src/core/ship-link/ownership.ts';
import { RedisOwnership } from '../../src/core/ship-link/redis-ownership.ts';
import { type Database } from '../../src/core/db/client.ts';
import { TEST_JWT_SECRET, logon } from '../helpers/build.ts';
import { freshDatabase } from '../helpers/database.ts';
import { MediaClient } from '../playback/helpers.ts';
import { DedicatedRedis } from './dedicated-redis.ts';
import { StreamingAgent } from './streaming-agent.ts';
import { RawAgent } from '../agent-link/raw-agent.ts';
import { Talker } from '../talk/talker.ts';

const LEASE_MS = 2_000;
const SHIPS = ['S1001', 'S1002'] as const;
const CAMERA = 'S1001-C01-1';

const portOf = (app: App) => {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
};

/** A viewer whose picture chunks are timed as they arrive. */
async function timedViewer(port: number, token: string) {
  const v = await MediaClient.open(port, token);
  const arrivals: number[] = [];
  v.ws.on('message', (_data, isBinary) => {
    if (isBinary) arrivals.push(Date.now());
  });
  v.send({ type: 'play', mode: 'live', cameraId: CAMERA });
  await v.until((c) => c.event('codec') !== undefined && c.chunks.length >= 4, 20_000, 'first video');
  /** The longest time without a picture between `from` and the first picture after `to`. */
  const longestGap = (from: number, to: number) => {
    let last = from;
    let gap = 0;
    for (const t of arrivals.filter((x) => x >= from)) {
      gap = Math.max(gap, t - last);
      last = t;
      if (t > to) break;
    }
    return gap;
  };
  const after = (t: number) => arrivals.filter((x) => x > t).length;
  return { v, longestGap, after };
}

/**
 * Ship ownership under a Redis stall (CLIENT PAUSE … ALL on a redis-server of the test's own): a
 * stall shorter than the lease drops no ship link and changes no epoch; a stall longer than the
 * lease drops none either, and hands over only the ship whose agent moved to another instance
 * meanwhile, when its claim lands; a talk relayed through the owner keeps its stream and its claim.
 */
describe('ship ownership through a Redis stall', () => {
  const redisPrefix = `shipcctv-test-${randomBytes(4).toString('hex')}:`;
  let redis: DedicatedRedis;
  let database: Database;
  let a: App;
  let b: App;
  let token: string;
  const keys = new Map<string, string>();
  const agents = new Map<string, StreamingAgent>();
  const closers: (() => Promise<unknown>)[] = [];

  const ownerKey = (shipId: string) => `${redisPrefix}owner:${shipId}`;
  const ownerOf = async (shipId: string): Promise<ShipOwner | undefined> => {
    const [instanceId, epoch] = (await redis.client.get(ownerKey(shipId)))?.split(' ') ?? [];
    return instanceId && epoch ? { instanceId, epoch: Number(epoch) } : undefined;
  };
  const connect = async (app: App, shipId: string, waitClaim = true) => {
    const agent = await StreamingAgent.connect(portOf(app), shipId, keys.get(shipId) ?? '');
    closers.push(() => agent.close());
    agents.set(shipId, agent);
    if (waitClaim) await expect.poll(() => ownerOf(shipId), { timeout: 10_000 }).toMatchObject({ instanceId: app.ownership.instanceId });
    return agent;
  };
  /** Pauses Redis for `ms` just before the owner's next lease renewal, when its lease has least time left (below 3/4 of it). */
  const pauseLate = async (ms: number) => {
    const leaseKey = `${redisPrefix}instance:${a.ownership.instanceId}`;
    await expect.poll(async () => Number(await redis.client.pttl(leaseKey)), { timeout: 5_000, interval: 10 }).toBeLessThan(LEASE_MS * 0.75);
    const t0 = Date.now();
    await redis.pause(ms);
    return t0;
  };

  beforeAll(async () => {
    redis = await DedicatedRedis.start();
    database = await freshDatabase('pglite');
    const opts = { database, redisUrl: redis.url, redisPrefix, jwtSecret: TEST_JWT_SECRET, ownershipLeaseMs: LEASE_MS };
    a = await buildApp({ ...opts, seedDemo: true, instanceName: 'shore-a' });
    b = await buildApp({ ...opts, instanceName: 'shore-b' });
    for (const app of [a, b]) await app.listen({ port: 0, host: '127.0.0.1' });
    for (const ship of SHIPS) keys.set(ship, await a.agentKeys.issue(ship));
    token = (await logon(b, 'demo')).token;
  }, 120_000);
  afterAll(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    await a?.close();
    await b?.close();
    await database?.close();
    await redis?.stop();
  });

  it('a stall shorter than the lease: no link dropped, no epoch changed; viewers on the other instance get video again after it', async () => {
    for (const ship of SHIPS) await connect(a, ship);
    const viewer = await timedViewer(portOf(b), token);
    const before = new Map(await Promise.all(SHIPS.map(async (s) => [s, await ownerOf(s)] as const)));
    const bytesBefore = agents.get('S1001')?.sentBytes ?? 0;

    const pauseMs = LEASE_MS * 0.9;
    const t0 = await pauseLate(pauseMs);
    // Two renewals after the stall.
    await new Promise((r) => setTimeout(r, pauseMs + LEASE_MS));
    for (const ship of SHIPS) expect(agents.get(ship)?.closed, `${ship}'s link`).toBeUndefined();
    for (const ship of SHIPS) expect(await ownerOf(ship), `${ship}'s owner`).toEqual(before.get(ship));
    await viewer.v.until(() => viewer.after(t0 + pauseMs) >= 5, 10_000, 'video after the stall');
    expect(viewer.v.closed).toBeUndefined();
    const gap = viewer.longestGap(t0 - 1_000, t0 + pauseMs);
    console.log(
      `[redis stall ${pauseMs} ms < lease ${LEASE_MS} ms] links dropped: 0 of ${SHIPS.length}, epochs unchanged; a viewer on the non-owner waited ${gap} ms for pictures; ` +
        `${(agents.get('S1001')?.sentBytes ?? 0) - bytesBefore} bytes crossed S1001's link meanwhile`,
    );
  });

  it('a stall longer than the lease: only the ship whose agent moved meanwhile changes hands, the other keeps its link and epoch', async () => {
    const before = new Map(await Promise.all(SHIPS.map(async (s) => [s, await ownerOf(s)] as const)));
    const viewer = await timedViewer(portOf(b), token);
    const pauseMs = LEASE_MS * 2.5;
    const t0 = await pauseLate(pauseMs);
    // During the stall S1002's agent reconnects to B (its claim waits for Redis).
    await agents.get('S1002')?.close();
    const moved = await connect(b, 'S1002', false);
    await expect.poll(() => ownerOf('S1002'), { timeout: pauseMs + 10_000 }).toEqual({ instanceId: b.ownership.instanceId, epoch: (before.get('S1002')?.epoch ?? 0) + 1 });
    const handedOver = Date.now() - t0;
    await new Promise((r) => setTimeout(r, Math.max(0, t0 + pauseMs + LEASE_MS - Date.now())));
    expect(agents.get('S1001')?.closed).toBeUndefined();
    expect(await ownerOf('S1001')).toEqual(before.get('S1001'));
    expect(moved.closed).toBeUndefined();
    expect(a.agents.get('S1002')).toBeUndefined();
    await viewer.v.until(() => viewer.after(t0 + pauseMs) >= 5, 15_000, 'video after the stall');
    const gap = viewer.longestGap(t0 - 1_000, t0 + pauseMs);
    console.log(
      `[redis stall ${pauseMs} ms > lease ${LEASE_MS} ms] S1001 kept its link and epoch; S1002 (moved during the stall) owned by B ${handedOver} ms after the stall began; ` +
        `a viewer of S1001 on the non-owner waited ${gap} ms for pictures`,
    );
  });

  it('a talk on the non-owner (relayed through the owner) lives through a 5 s stall, and its voice reaches the ship after it', async () => {
    const ship = 'S2001';
    const agent = await RawAgent.connect(portOf(a), ship, await a.agentKeys.issue(ship), {
      hello: {},
      capabilities: ['live', 'talk'],
      onMessage: (msg, self) => {
        if (msg.type === 'talk.open') self.send({ type: 'talk.opened', streamId: msg.streamId });
      },
    });
    closers.push(() => agent.close());
    await expect.poll(() => ownerOf(ship), { timeout: 10_000 }).toMatchObject({ instanceId: a.ownership.instanceId });
    const talker = await Talker.start(portOf(b), token, `${ship}-C01-1`);
    closers.push(() => Promise.resolve(talker.ws.terminate()));
    await talker.next('talk.started');
    expect(b.linkRelay?.counts.requested).toBe(1);
    const voiceFrames = () => agent.frames.filter((f) => f.kind === 'talk').length;

    // The relay's heartbeat is 1 s: the stall is five of them (it gave up after three), shorter than the lease plus five.
    const pauseMs = 5_000;
    const t0 = Date.now();
    await redis.pause(pauseMs);
    await redis.client.ping();
    const stalled = Date.now() - t0;
    // A voice message every 300 ms for two relay heartbeats after the stall: each reaches the ship.
    for (let i = 1; i <= 7; i++) {
      talker.ws.send(Buffer.from([i, i, i]), { binary: true });
      await expect.poll(voiceFrames, { timeout: 5_000, interval: 20 }).toBe(i);
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(talker.messages.filter((m) => m.type === 'talk.ended')).toEqual([]);
    expect(talker.closed).toBe(false);
    expect(b.linkRelay?.counts.requested).toBe(1);
    expect((await b.talkOccupancy.claim(ship, { talkId: 'another', userId: 'u2', displayName: 'Another', cameraId: `${ship}-C01-1`, since: Date.now() }))?.displayName).toBeDefined();
    console.log(`[redis stall ${stalled} ms, relay heartbeat 1000 ms] a talk relayed through the owner kept its stream and its claim; 7 of 7 voice messages after the stall reached the ship`);
    talker.ws.send(JSON.stringify({ type: 'talk.stop' }));
    await talker.next('talk.ended');
  });

  it('Redis loses its data (restarted empty): the holder sets its claim back at its epoch; a later claim still fences it', async () => {
    const holder = await RedisOwnership.connect(redis.url, redisPrefix, { leaseMs: LEASE_MS });
    const usurper = await RedisOwnership.connect(redis.url, redisPrefix, { leaseMs: LEASE_MS });
    closers.push(() => holder.close(), () => usurper.close());
    const lost: number[] = [];
    holder.events.on('lost', (_ship, epoch) => lost.push(epoch));
    await holder.claim('S2001');
    const mine = await holder.claim('S2001');
    await redis.client.flushdb();
    await expect.poll(() => ownerOf('S2001'), { timeout: LEASE_MS * 2 }).toEqual({ instanceId: holder.instanceId, epoch: mine.epoch });
    expect(lost).toEqual([]);
    const theirs = await usurper.claim('S2001');
    expect(theirs.epoch).toBe(mine.epoch + 1);
    await expect.poll(() => lost).toEqual([mine.epoch]);
  });
});
