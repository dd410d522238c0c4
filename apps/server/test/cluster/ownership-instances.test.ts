import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.ts';
import { RedisOwnership } from '../../src/core/ship-link/redis-ownership.ts';
import { CLOSE_OWNED_ELSEWHERE } from '../../src/core/ship-link/ship-claims.ts';
import { type Database } from '../../src/core/db/client.ts';
import { RawAgent } from '../agent-link/raw-agent.ts';
import { TEST_JWT_SECRET } from '../helpers/build.ts';
import { freshDatabase } from '../helpers/database.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SHIP = 'S1001';
const LEASE_MS = 1_500;

/**
 * Ship ownership with two shore instances on one database and the machine's Redis: the instance
 * holding a ship's agent link owns it (with an epoch), a newer claim on the other instance fences
 * the first (its link is closed), a released ship has no owner, and a dead owner's lease runs out.
 */
describe('ship ownership across instances', () => {
  const redisPrefix = `shipcctv-test-${randomBytes(4).toString('hex')}:`;
  let database: Database;
  let a: App;
  let b: App;
  let key: string;
  const agents: RawAgent[] = [];

  const portOf = (app: App) => {
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    return address.port;
  };
  const connect = async (app: App) => {
    const agent = await RawAgent.connect(portOf(app), SHIP, key, { hello: {} });
    agents.push(agent);
    return agent;
  };
  const ownerOn = (app: App) => app.ownership.ownerOf(SHIP);

  beforeAll(async () => {
    database = await freshDatabase('pglite');
    const opts = { database, redisUrl: REDIS_URL, redisPrefix, jwtSecret: TEST_JWT_SECRET, ownershipLeaseMs: LEASE_MS };
    a = await buildApp({ ...opts, seedDemo: true });
    b = await buildApp(opts);
    for (const app of [a, b]) await app.listen({ port: 0, host: '127.0.0.1' });
    key = await a.agentKeys.issue(SHIP);
  }, 60_000);
  afterAll(async () => {
    for (const agent of agents) await agent.close();
    await a?.close();
    await b?.close();
    await database?.close();
  });

  it('the instance holding the link owns the ship; a newer link elsewhere fences it off; leaving frees the ship', async () => {
    expect(await ownerOn(b)).toBeUndefined();
    const first = await connect(a);
    await expect.poll(() => ownerOn(b)).toEqual({ instanceId: a.ownership.instanceId, epoch: expect.any(Number) as number });
    const firstEpoch = (await ownerOn(a))?.epoch ?? 0;

    // Kept past several leases while the link lives.
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS * 2));
    expect(await ownerOn(b)).toEqual({ instanceId: a.ownership.instanceId, epoch: firstEpoch });

    // The ship's agent turns up on B (as after a network change): B owns it with a newer epoch, A lets it go.
    const second = await connect(b);
    await expect.poll(() => ownerOn(a)).toEqual({ instanceId: b.ownership.instanceId, epoch: firstEpoch + 1 });
    await first.until(() => first.closed !== undefined, 'close from the fenced owner');
    expect(first.closed?.code).toBe(CLOSE_OWNED_ELSEWHERE);
    expect(a.agents.get(SHIP)).toBeUndefined();
    expect(b.agents.get(SHIP)?.isOpen).toBe(true);
    // A's late release must not free B's claim.
    expect(await ownerOn(a)).toEqual({ instanceId: b.ownership.instanceId, epoch: firstEpoch + 1 });
    expect(second.closed).toBeUndefined();

    await second.close();
    await expect.poll(() => ownerOn(a)).toBeUndefined();
  });

  it('a dead owner (no renewal, no release) loses the ship when its lease runs out', async () => {
    const dead = await RedisOwnership.connect(REDIS_URL, redisPrefix, { leaseMs: LEASE_MS });
    const claimed = await dead.claim('S1002');
    expect(await a.ownership.ownerOf('S1002')).toEqual({ instanceId: dead.instanceId, epoch: claimed.epoch });
    dead.abandon();
    await expect.poll(() => a.ownership.ownerOf('S1002'), { timeout: LEASE_MS * 4 }).toBeUndefined();
  });

  it('an owner whose key was taken over hears it and gives the ship up (fencing by epoch)', async () => {
    const old = await RedisOwnership.connect(REDIS_URL, redisPrefix, { leaseMs: LEASE_MS });
    const usurper = await RedisOwnership.connect(REDIS_URL, redisPrefix, { leaseMs: LEASE_MS });
    try {
      const lost: [string, number][] = [];
      old.events.on('lost', (shipId, epoch) => lost.push([shipId, epoch]));
      const mine = await old.claim('S1003');
      const theirs = await usurper.claim('S1003');
      expect(theirs.epoch).toBeGreaterThan(mine.epoch);
      await expect.poll(() => lost).toEqual([['S1003', mine.epoch]]);
      expect(old.ownedCount).toBe(0);
      await old.release('S1003');
      expect(await a.ownership.ownerOf('S1003')).toEqual({ instanceId: usurper.instanceId, epoch: theirs.epoch });
    } finally {
      await old.close();
      await usurper.close();
    }
  });
});
