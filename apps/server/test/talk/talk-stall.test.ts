import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisTalkOccupancy } from '../../src/modules/talk/redis-talk-occupancy.ts';
import type { TalkHolder } from '../../src/modules/talk/talk-occupancy.ts';
import { DedicatedRedis } from '../cluster/dedicated-redis.ts';

const LEASE_MS = 600;
const SHIP = 'S1001';

const holder = (talkId: string, displayName: string): TalkHolder => ({ talkId, userId: `u-${talkId}`, displayName, cameraId: 'S1001-C01-1', since: Date.now() });

/**
 * Talkback occupancy under a Redis stall (CLIENT PAUSE … ALL on a redis-server of the test's own):
 * a talk keeps its claim through a stall longer than its lease — the key that lapsed meanwhile is
 * set again at the same talk, since nobody could claim while Redis was away — and still loses it
 * to a claim that came meanwhile (the ship's claim counter moved on).
 */
describe('talkback occupancy through a Redis stall', () => {
  let redis: DedicatedRedis;
  const closers: (() => Promise<unknown>)[] = [];
  const occupancy = async () => {
    const prefix = `shipcctv-test-${randomBytes(4).toString('hex')}:`;
    const o = await RedisTalkOccupancy.connect(redis.url, prefix, { leaseMs: LEASE_MS });
    closers.push(() => o.close());
    const lost: string[] = [];
    o.onLost((shipId, talkId) => lost.push(`${shipId} ${talkId}`));
    return { o, prefix, lost };
  };

  beforeAll(async () => {
    redis = await DedicatedRedis.start();
  }, 30_000);
  afterEach(async () => {
    for (const close of closers.splice(0)) await close().catch(() => undefined);
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('a stall of 2.5 leases ends no talk: the lapsed claim is set again at the same talk, and a second talker still hears it is occupied', async () => {
    const { o, prefix, lost } = await occupancy();
    expect(await o.claim(SHIP, holder('t1', 'Demo Operator'))).toBeUndefined();
    const key = `${prefix}talk:${SHIP}`;
    // Pause when the key has least time left, so it surely lapses during the stall.
    await expect.poll(async () => Number(await redis.client.pttl(key)), { interval: 10 }).toBeLessThan(LEASE_MS * 0.75);
    await redis.pause(LEASE_MS * 2.5);
    await redis.client.ping();
    // The key lapsed in the stall; the first renewal after it sets it again, at the same talk.
    await expect.poll(async () => (await o.holderOf(SHIP))?.talkId, { interval: 10 }).toBe('t1');
    // Renewals go on: the key's time to live is extended twice more.
    let last = Number(await redis.client.pttl(key));
    let extended = 0;
    await expect
      .poll(
        async () => {
          const ttl = Number(await redis.client.pttl(key));
          if (ttl > last) extended += 1;
          last = ttl;
          return extended;
        },
        { timeout: LEASE_MS * 3, interval: 20 },
      )
      .toBeGreaterThanOrEqual(2);
    expect((await o.holderOf(SHIP))?.talkId).toBe('t1');
    expect(lost).toEqual([]);
    expect(await o.claim(SHIP, holder('t2', 'Duty Officer'))).toMatchObject({ talkId: 't1', displayName: 'Demo Operator' });
  });

  it('a claim that came while the key had lapsed wins: the holder hears its talk is lost; Redis losing its data sets the claim back', async () => {
    const { o, prefix, lost } = await occupancy();
    const key = `${prefix}talk:${SHIP}`;
    expect(await o.claim(SHIP, holder('t1', 'Demo Operator'))).toBeUndefined();
    // Redis restarted empty: the holder's next renewal sets its claim and the claim counter back.
    await redis.client.del(key, `${prefix}talk-claims:${SHIP}`);
    await expect.poll(async () => (await o.holderOf(SHIP))?.talkId, { interval: 10 }).toBe('t1');
    expect(await redis.client.get(`${prefix}talk-claims:${SHIP}`)).toBe('1');
    expect(lost).toEqual([]);
    // As if the key lapsed while this instance could not reach Redis, and another talk claimed the
    // ship and ended meanwhile: the key is free again, but the claim counter moved on.
    await redis.client.del(key);
    await redis.client.incr(`${prefix}talk-claims:${SHIP}`);
    await expect.poll(() => lost, { interval: 10 }).toEqual([`${SHIP} t1`]);
    expect(await o.holderOf(SHIP)).toBeUndefined();
  });
});
