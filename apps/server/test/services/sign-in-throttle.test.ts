import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryThrottleStore, RedisThrottleStore, SignInThrottle, type ThrottleStore } from '../../src/modules/sessions/sign-in-throttle.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMITS = { maxFailures: 3, windowMs: 60_000, lockMs: 1_000 };

describe('SignInThrottle', () => {
  it('makes one user at one address wait after maxFailures, doubling with each further failure', async () => {
    const clock = { now: 0 };
    const t = new SignInThrottle(LIMITS, new MemoryThrottleStore(() => clock.now), () => clock.now);
    for (let i = 0; i < 2; i++) await t.failure('ann', 'A');
    expect(await t.check('ann', 'A')).toBeNull();
    await t.failure('ann', 'A');
    expect(await t.check('ann', 'A')).toEqual({ by: 'user', untilMs: 1_000 });
    expect(await t.check('ann', 'B')).toBeNull();
    clock.now = 1_000;
    expect(await t.check('ann', 'A')).toBeNull();
    await t.failure('ann', 'A');
    expect(await t.check('ann', 'A')).toEqual({ by: 'user', untilMs: 3_000 });
    clock.now = 3_000;
    await t.failure('ann', 'A');
    expect(await t.check('ann', 'A')).toEqual({ by: 'user', untilMs: 7_000 });
  });

  it('holds back an address that sprays many users, and clears a pair on success', async () => {
    const clock = { now: 0 };
    const t = new SignInThrottle(LIMITS, new MemoryThrottleStore(() => clock.now), () => clock.now);
    for (let i = 0; i < 12; i++) await t.failure(`user-${i}`, 'X');
    expect(await t.check('someone-else', 'X')).toEqual({ by: 'address', untilMs: 1_000 });
    await t.failure('bob', 'B');
    await t.failure('bob', 'B');
    await t.success('bob', 'B');
    await t.failure('bob', 'B');
    expect(await t.check('bob', 'B')).toBeNull();
  });

  describe('with Redis, every instance counts together', () => {
    const prefix = `shipcctv-test-${randomBytes(4).toString('hex')}:`;
    const stores: ThrottleStore[] = [];
    afterAll(async () => {
      for (const s of stores) await s.close();
    });
    it('failures counted by one instance throttle the pair on another', async () => {
      const errors: Error[] = [];
      const one = new RedisThrottleStore(REDIS_URL, prefix, (e) => errors.push(e));
      const two = new RedisThrottleStore(REDIS_URL, prefix, (e) => errors.push(e));
      stores.push(one, two);
      const a = new SignInThrottle(LIMITS, one);
      const b = new SignInThrottle(LIMITS, two);
      await a.failure('cat', 'A');
      await b.failure('cat', 'A');
      expect(await a.check('cat', 'A')).toBeNull();
      await a.failure('cat', 'A');
      expect((await b.check('cat', 'A'))?.by).toBe('user');
      expect(await b.check('cat', 'B')).toBeNull();
      expect(errors).toEqual([]);
    });
  });
});
