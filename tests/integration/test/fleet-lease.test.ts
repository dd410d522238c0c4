import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@ship-cctv/server/db';
import { LightFleet, LightShip } from '@ship-cctv/simulator';
import { RedisOwnership } from '../../../apps/server/src/core/ship-link/redis-ownership.ts';
import { CLOSE_OWNED_ELSEWHERE } from '../../../apps/server/src/core/ship-link/ship-claims.ts';
import { freshDatabase } from '../../../apps/server/test/helpers/database.ts';
import { DedicatedRedis } from '../../../apps/server/test/cluster/dedicated-redis.ts';
import { type LightShipIdentity, addLightShips } from './helpers/light-fleet.ts';
import { type Shore, startShore } from './helpers/shore.ts';

const SHIPS = 120;
/** The instances' lease: renewed every 400 ms, so a few seconds hold many renewals. */
const LEASE_MS = 1_200;
const WINDOW_MS = 4_000;

/**
 * One lease per instance: two shore instances on a redis-server of the test's own hold a fleet of
 * light ships that ping and report their (unchanged) link several times a second. Over a steady
 * window Redis sees the instances' lease renewals and their relay heartbeats — a few commands a
 * period per instance, none per ship: no ship's claim is renewed and no ship's status rewritten.
 * Fencing still holds: a ship's newer link elsewhere takes it (a higher epoch) and the old owner
 * closes its link, without writing the ship offline (it is online at its new owner); an owner that missed the news finds the newer claim when it reads its claims
 * back; a dead instance's ships have no owner, and read offline, once its lease lapses.
 */
describe('ship ownership with one lease per instance', () => {
  let redis: DedicatedRedis;
  let database: Database;
  const shores: Shore[] = [];
  let fleet: LightFleet | undefined;
  let ships: LightShipIdentity[];
  const others: LightShip[] = [];
  const redisPrefix = `shipcctv-test-${randomBytes(4).toString('hex')}:`;

  beforeAll(async () => {
    redis = await DedicatedRedis.start();
    database = await freshDatabase('postgres', { seeded: true });
    ships = await addLightShips(database, SHIPS);
    for (let i = 0; i < 2; i++) shores.push(await startShore({ database, redisUrl: redis.url, redisPrefix, ownershipLeaseMs: LEASE_MS, liveness: { pingMs: 5_000, timeoutMs: 12_000 } }));
  }, 120_000);
  afterAll(async () => {
    for (const s of others) await s.stop();
    await fleet?.stop();
    for (const shore of shores) await shore.close();
    await database?.close();
    await redis?.stop();
  });

  it('at steady state Redis sees each instance renew its lease, and nothing per ship', async () => {
    let turn = 0;
    fleet = new LightFleet({ ships, shoreUrl: () => shores[turn++ % shores.length]!.url, pingEveryMs: 250, reportEveryMs: 500, capabilities: [] });
    fleet.start();
    // A loaded machine takes a while to connect the fleet; the figures are of the steady state after.
    await expect.poll(() => fleet?.online, { timeout: 60_000, interval: 100 }).toBe(SHIPS);
    await expect.poll(async () => (await redis.client.keys(`${redisPrefix}owner:*`)).length, { timeout: 10_000 }).toBe(SHIPS);

    const monitor = await redis.client.duplicate().monitor();
    const seen: string[][] = [];
    monitor.on('monitor', (_time: string, args: string[]) => seen.push(args));
    // MONITOR shows what is already on its way too: the window starts once it shows a command of ours.
    await new Promise((r) => setTimeout(r, 500));
    seen.length = 0;
    await new Promise((r) => setTimeout(r, WINDOW_MS));
    monitor.disconnect();
    const window = [...seen];

    const touching = (part: string) => window.filter((args) => args.some((a) => a.startsWith(`${redisPrefix}${part}`)));
    // Nothing per ship: no claim renewed, no status written again, though each ship pinged and reported its link 8 times.
    expect(touching('owner:')).toEqual([]);
    expect(touching('owner-epoch:')).toEqual([]);
    expect(touching('ship:')).toEqual([]);
    // Each instance renewed its lease every third of it (an EVAL, and the GET and SET it runs).
    const renewals = touching('instance:').filter((args) => args[0]?.toLowerCase() === 'evalsha' || args[0]?.toLowerCase() === 'eval');
    const periods = WINDOW_MS / (LEASE_MS / 3);
    expect(renewals.length).toBeGreaterThanOrEqual(2 * (periods - 2));
    expect(renewals.length).toBeLessThanOrEqual(2 * (periods + 2));
    // Everything else is per instance (the relay's heartbeats), whatever the fleet's size.
    const byCommand = new Map<string, number>();
    for (const args of window) byCommand.set(args[0]?.toLowerCase() ?? '', (byCommand.get(args[0]?.toLowerCase() ?? '') ?? 0) + 1);
    console.log(
      `[one lease per instance] ${SHIPS} ships pinging every 250 ms and reporting every 500 ms, 2 instances, ${WINDOW_MS} ms: ${window.length} Redis commands ` +
        `(${[...byCommand].map(([k, n]) => `${k} ${n}`).join(', ')}), ${renewals.length} lease renewals`,
    );
    const perInstanceOnly = window.filter((args) => !args.some((a) => a.startsWith(`${redisPrefix}instance:`)) && !(args[0]?.toLowerCase() === 'publish' && args[1]?.startsWith(`${redisPrefix}link-relay:`)));
    expect(perInstanceOnly).toEqual([]);
  }, 120_000);

  it('a newer link elsewhere fences the old owner; a claim an owner did not hear fences it when it reads its claims back', async () => {
    const ship = ships[0]!;
    const before = await shores[0]!.app.ownership.ownerOf(ship.shipId);
    expect(before).toBeDefined();
    const oldShore = shores.find((s) => s.app.ownership.instanceId === before!.instanceId)!;
    const newShore = shores.find((s) => s !== oldShore)!;
    const held = fleet!.ships.find((s) => s.shipId === ship.shipId)!;
    // Every status message published on any instance, as the old owner hears it.
    const heard: string[] = [];
    oldShore.app.bus.store.onEvent((e) => heard.push(`${e.destination} ${e.body}`));
    const closedWith = new Promise<number>((resolve) =>
      held.once('closed', (code) => {
        void held.stop();
        resolve(code);
      }),
    );
    const moved = new LightShip({ shoreUrl: newShore.url, shipId: ship.shipId, key: ship.key, capabilities: [] });
    others.push(moved);
    moved.start();
    expect(await closedWith).toBe(CLOSE_OWNED_ELSEWHERE);
    await expect.poll(() => oldShore.app.ownership.ownerOf(ship.shipId)).toEqual({ instanceId: newShore.app.ownership.instanceId, epoch: before!.epoch + 1 });
    expect(oldShore.app.agents.get(ship.shipId)).toBeUndefined();
    expect(moved.online).toBe(true);
    // The fenced owner's closing of its old link does not take the ship offline: it is online on the
    // new owner. Two marks published by the old owner after its link closed: anything it published
    // for the ship on closing it went out before the second.
    for (const mark of ['/test/mark-1', '/test/mark-2']) {
      await oldShore.app.bus.publish(mark, '{}');
      await expect.poll(() => heard.some((h) => h.startsWith(`${mark} `))).toBe(true);
    }
    expect(heard.filter((h) => h.startsWith(`/shipStatus/${ship.name} `) && h.includes('OFFLINE'))).toEqual([]);
    for (const shore of shores) expect((await shore.app.status.shipStatuses([{ id: ship.shipId, name: ship.name }]))[0]?.online).toBe(true);

    // An owner whose news of a newer claim was lost (its subscriber away): the claim is written
    // behind its back, with no word published.
    const deaf = await RedisOwnership.connect(redis.url, redisPrefix, { leaseMs: LEASE_MS });
    try {
      const lost: [string, number][] = [];
      deaf.events.on('lost', (shipId, epoch) => lost.push([shipId, epoch]));
      const mine = await deaf.claim('S9999');
      await redis.client.set(`${redisPrefix}owner:S9999`, `${newShore.app.ownership.instanceId} ${mine.epoch + 1}`);
      expect(deaf.ownedCount).toBe(1);
      await deaf.verify();
      expect(lost).toEqual([['S9999', mine.epoch]]);
      expect(deaf.ownedCount).toBe(0);
    } finally {
      await deaf.close();
    }
  });

  it("a dead instance's ships have no owner, and read offline, once its lease lapses", async () => {
    const [a, b] = shores as [Shore, Shore];
    const onA = a.app.agents.connectedShips();
    expect(onA.length).toBeGreaterThan(SHIPS / 4);
    const names = onA.map((id) => ({ id, name: ships.find((s) => s.shipId === id)?.name ?? id }));
    expect((await b.app.status.shipStatuses(names)).every((s) => s.online)).toBe(true);
    // A stops renewing its lease as a crashed instance would (its links stay up, its agents keep quiet).
    (a.app.ownership as RedisOwnership).abandon();
    const stopped = Date.now();
    await expect.poll(async () => (await b.app.status.shipStatuses(names)).filter((s) => s.online).length, { timeout: LEASE_MS * 4, interval: 50 }).toBe(0);
    const offlineAfter = Date.now() - stopped;
    for (const id of onA.slice(0, 5)) expect(await b.app.ownership.ownerOf(id)).toBeUndefined();
    console.log(`[one lease per instance] ${onA.length} ships of a dead instance read offline ${offlineAfter} ms after its lease stopped (lease ${LEASE_MS} ms)`);
    expect(offlineAfter).toBeGreaterThanOrEqual(LEASE_MS * 0.5);
  });
});
