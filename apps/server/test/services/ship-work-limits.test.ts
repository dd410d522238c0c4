import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryBucketStore, RedisBucketStore, ShipWorkLimiter, type ShipWorkLimit, TooManyRequests } from '../../src/services/ship-work-limits.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMIT: ShipWorkLimit = { userBurst: 3, userPerSecond: 1, shipBurst: 4, shipPerSecond: 0.5, shipInFlight: 10 };

describe('ship work limits: token buckets per user and per ship', () => {
  it('gives a user their burst, then one per refill; a ship its own, shared by its users', async () => {
    const clock = { now: 0 };
    const store = new MemoryBucketStore(() => clock.now);
    for (let i = 0; i < 3; i++) expect(await store.take('u:ann', 's:S1', LIMIT)).toEqual({ ok: true });
    expect(await store.take('u:ann', 's:S1', LIMIT)).toEqual({ ok: false, scope: 'user', waitMs: 1000 });
    // Bob has his own bucket, but the ship has one token left.
    expect(await store.take('u:bob', 's:S1', LIMIT)).toEqual({ ok: true });
    expect(await store.take('u:bob', 's:S1', LIMIT)).toEqual({ ok: false, scope: 'ship', waitMs: 2000 });
    // A refused request spends no token: Bob's bucket still holds two.
    clock.now = 2000;
    expect(await store.take('u:bob', 's:S1', LIMIT)).toEqual({ ok: true });
    expect(await store.take('u:bob', 's:S1', LIMIT)).toEqual({ ok: false, scope: 'ship', waitMs: 2000 });
  });

  it('answers 429 with the wait in whole seconds, in both languages', async () => {
    const limiter = new ShipWorkLimiter(new MemoryBucketStore(() => 0), { snapshot: LIMIT, shipQuery: LIMIT, ptz: LIMIT, still: LIMIT });
    for (let i = 0; i < 3; i++) await limiter.run('snapshot', 'ann', 'S1', async () => 1);
    const err = await limiter.run('snapshot', 'ann', 'S1', async () => 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TooManyRequests);
    expect((err as TooManyRequests).code).toBe(429);
    expect((err as TooManyRequests).headers).toEqual({ 'retry-after': '1', 'x-limit-scope': 'user' });
    expect((err as TooManyRequests).message).toMatch(/^抓拍\/取图请求过于频繁，请 1 秒后再试 \(too many snapshot requests from you; try again in 1 s\)$/);
  });

  describe('with Redis, every instance counts together', () => {
    const prefix = `shipcctv-test-${randomBytes(4).toString('hex')}:`;
    const stores: RedisBucketStore[] = [];
    afterAll(async () => {
      for (const s of stores) await s.close();
    });

    it("shares a ship's and a user's buckets between two instances", async () => {
      const errors: Error[] = [];
      const one = new RedisBucketStore(REDIS_URL, prefix, (e) => errors.push(e));
      const two = new RedisBucketStore(REDIS_URL, prefix, (e) => errors.push(e));
      stores.push(one, two);
      await Promise.all([one.connected(), two.connected()]);
      const slow = { ...LIMIT, userPerSecond: 0.001, shipPerSecond: 0.001 };
      expect(await one.take('u:ann', 's:S1', slow)).toEqual({ ok: true });
      expect(await two.take('u:ann', 's:S1', slow)).toEqual({ ok: true });
      expect(await one.take('u:ann', 's:S1', slow)).toEqual({ ok: true });
      const user = await two.take('u:ann', 's:S1', slow);
      expect(user).toMatchObject({ ok: false, scope: 'user' });
      expect(await two.take('u:bob', 's:S1', slow)).toEqual({ ok: true });
      expect(await one.take('u:bob', 's:S1', slow)).toMatchObject({ ok: false, scope: 'ship' });
      expect(errors).toEqual([]);
    });

    it("decides on the instance's own buckets while Redis does not answer", async () => {
      const errors: Error[] = [];
      // Nothing listens on port 1.
      const away = new RedisBucketStore('redis://127.0.0.1:1', prefix, (e) => errors.push(e));
      stores.push(away);
      const slow = { ...LIMIT, userPerSecond: 0.001 };
      const started = Date.now();
      for (let i = 0; i < 3; i++) expect(await away.take('u:ann', 's:S1', slow)).toEqual({ ok: true });
      expect(await away.take('u:ann', 's:S1', slow)).toMatchObject({ ok: false, scope: 'user' });
      // No request waits for Redis to come back.
      expect(Date.now() - started).toBeLessThan(500);
      expect(errors.length).toBeGreaterThan(0);
    });
  });
});
