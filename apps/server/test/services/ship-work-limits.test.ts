import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryBucketStore, RedisBucketStore, ShipWorkLimiter, type ShipWorkLimit, TooManyRequests } from '../../src/modules/ship-work/ship-work-limits.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMIT: ShipWorkLimit = { userBurst: 3, userPerSecond: 1, shipBurst: 4, shipPerSecond: 0.5, shipInFlight: 10 };

describe('ship work limits: token buckets per user and per ship', () => {
  it('gives a bucket its burst, then one token per refill; a refused take spends nothing', async () => {
    const clock = { now: 0 };
    const store = new MemoryBucketStore(() => clock.now);
    for (let i = 0; i < 3; i++) expect(await store.take('u:ann', 3, 1)).toEqual({ ok: true });
    expect(await store.take('u:ann', 3, 1)).toEqual({ ok: false, waitMs: 1000 });
    expect(await store.take('u:bob', 3, 1)).toEqual({ ok: true });
    clock.now = 1500;
    expect(await store.take('u:ann', 3, 1)).toEqual({ ok: true });
    expect(await store.take('u:ann', 3, 1)).toEqual({ ok: false, waitMs: 500 });
  });

  it("spends a user's allowance before the access check, and a ship's only after it; the ship's is shared by its users", async () => {
    const limiter = new ShipWorkLimiter(new MemoryBucketStore(() => 0), { snapshot: LIMIT, shipQuery: LIMIT, ptz: LIMIT, still: LIMIT });
    let checks = 0;
    const ship = async () => {
      checks += 1;
      return 'S1';
    };
    const refused = async () => {
      checks += 1;
      throw new Error('403');
    };
    // Another organisation's user: refused by the access check, the ship's bucket untouched.
    for (let i = 0; i < 3; i++) await expect(limiter.run('snapshot', 'eve', refused, async () => 1)).rejects.toThrow('403');
    const overUser = await limiter.run('snapshot', 'eve', refused, async () => 1).catch((e: unknown) => e);
    expect(overUser).toBeInstanceOf(TooManyRequests);
    expect(checks).toBe(3);
    for (let i = 0; i < 3; i++) await limiter.run('snapshot', 'ann', ship, async () => 1);
    const user = await limiter.run('snapshot', 'ann', ship, async () => 1).catch((e: unknown) => e);
    expect((user as TooManyRequests).headers).toEqual({ 'retry-after': '1', 'x-limit-scope': 'user' });
    expect((user as TooManyRequests).message).toMatch(/^抓拍\/取图请求过于频繁，请 1 秒后再试 \(too many snapshot requests from you; try again in 1 s\)$/);
    await limiter.run('snapshot', 'bob', ship, async () => 1);
    const full = await limiter.run('snapshot', 'bob', ship, async () => 1).catch((e: unknown) => e);
    expect((full as TooManyRequests).code).toBe(429);
    expect((full as TooManyRequests).headers).toEqual({ 'retry-after': '2', 'x-limit-scope': 'ship' });
    expect((full as TooManyRequests).message).toMatch(/^此船的抓拍\/取图请求已达上限，请 2 秒后再试 \(the ship has too many snapshot requests; try again in 2 s\)$/);
  });

  it('lets at most shipInFlight requests work on one ship at once', async () => {
    const limiter = new ShipWorkLimiter(new MemoryBucketStore(() => 0), { snapshot: LIMIT, shipQuery: LIMIT, ptz: { ...LIMIT, userBurst: 10, shipBurst: 10, shipInFlight: 2 }, still: LIMIT });
    let open = () => {};
    const held = new Promise<void>((r) => (open = r));
    const running = [limiter.run('ptz', 'ann', async () => 'S1', () => held), limiter.run('ptz', 'ann', async () => 'S1', () => held)];
    await expect(limiter.run('ptz', 'bob', async () => 'S1', async () => 1)).rejects.toMatchObject({ code: 429, scope: 'ship' });
    expect(await limiter.run('ptz', 'bob', async () => 'S2', async () => 2)).toBe(2);
    open();
    await Promise.all(running);
    expect(await limiter.run('ptz', 'bob', async () => 'S1', async () => 3)).toBe(3);
  });

  describe('with Redis, every instance counts together', () => {
    const prefix = `shipcctv-test-${randomBytes(4).toString('hex')}:`;
    const stores: RedisBucketStore[] = [];
    afterAll(async () => {
      for (const s of stores) await s.close();
    });

    it('shares a bucket between two instances', async () => {
      const errors: Error[] = [];
      const one = new RedisBucketStore(REDIS_URL, prefix, (e) => errors.push(e));
      const two = new RedisBucketStore(REDIS_URL, prefix, (e) => errors.push(e));
      stores.push(one, two);
      await Promise.all([one.connected(), two.connected()]);
      expect(await one.take('s:S1', 3, 0.001)).toEqual({ ok: true });
      expect(await two.take('s:S1', 3, 0.001)).toEqual({ ok: true });
      expect(await one.take('s:S1', 3, 0.001)).toEqual({ ok: true });
      const over = await two.take('s:S1', 3, 0.001);
      expect(over.ok).toBe(false);
      expect(over.ok === false && over.waitMs).toBeGreaterThan(900_000);
      expect(await two.take('s:S2', 3, 0.001)).toEqual({ ok: true });
      expect(errors).toEqual([]);
    });

    it("decides on the instance's own buckets while Redis does not answer, without waiting", async () => {
      const errors: Error[] = [];
      // Nothing listens on port 1.
      const away = new RedisBucketStore('redis://127.0.0.1:1', prefix, (e) => errors.push(e));
      stores.push(away);
      const started = Date.now();
      for (let i = 0; i < 3; i++) expect(await away.take('u:ann', 3, 0.001)).toEqual({ ok: true });
      expect((await away.take('u:ann', 3, 0.001)).ok).toBe(false);
      expect(Date.now() - started).toBeLessThan(500);
      expect(errors.length).toBeGreaterThan(0);
    });
  });
});
