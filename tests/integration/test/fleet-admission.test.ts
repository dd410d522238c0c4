import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@ship-cctv/server/db';
import { LightFleet } from '@ship-cctv/simulator';
import { freshDatabase } from '../../../apps/server/test/helpers/database.ts';
import { type LightShipIdentity, addLightShips } from './helpers/light-fleet.ts';
import { type Shore, startShore } from './helpers/shore.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SHIPS = 200;
/**
 * Well below what an instance takes on a loaded machine, so the rate, not the machine, decides. Both
 * instances and the fleet share this test's one event loop: at 20 a second, while the rest of the
 * suite loaded both cores, an instance once took its hellos no faster than the rate and refused none.
 */
const ADMISSION = { perSecond: 10, burst: 5 };
/** Loopback ports from here when set (a machine shared with others); ports the system picks otherwise. */
const PORT_BASE = Number(process.env.TEST_PORT_BASE ?? 0);

/**
 * A few hundred light ships (the agent link without video) dial two shore instances sharing the
 * database and Redis all at once, as after a shore restart, through a balancer that sends each dial
 * to the next instance in turn. Each instance takes a burst of hellos and then a bounded rate; the
 * rest are refused with a time to come back, spread so they return at the rate the instance takes
 * them; the ships come back no sooner; no refused ship goes offline; every ship ends online, owned
 * by one of the instances, about half each.
 */
describe('a fleet reconnecting at once to two instances', () => {
  let database: Database;
  const shores: Shore[] = [];
  let fleet: LightFleet | undefined;
  let ships: LightShipIdentity[];
  const redisPrefix = `shipcctv-test-${randomBytes(4).toString('hex')}:`;

  beforeAll(async () => {
    database = await freshDatabase('postgres', { seeded: true });
    ships = await addLightShips(database, SHIPS);
    for (let i = 0; i < 2; i++) {
      shores.push(
        await startShore(
          { database, redisUrl: REDIS_URL, redisPrefix, admission: ADMISSION, liveness: { pingMs: 5_000, timeoutMs: 12_000 } },
          PORT_BASE ? PORT_BASE + i : 0,
        ),
      );
    }
  });
  afterAll(async () => {
    await fleet?.stop();
    for (const shore of shores) await shore.close();
    await database?.close();
  });

  it('takes a burst, then a bounded rate; the refused come back when told, spread out; none flaps; ownership is shared', async () => {
    const offline = [0, 0];
    shores.forEach((shore, i) => shore.app.agents.events.on('offline', () => (offline[i] = (offline[i] ?? 0) + 1)));
    let turn = 0;
    fleet = new LightFleet({
      ships,
      shoreUrl: () => shores[turn++ % shores.length]!.url,
      backoff: { minMs: 200, maxMs: 2_000 },
      pingEveryMs: 0,
      reportEveryMs: 0,
      // No pictures inbox: the ships' hellos cost the shore only their link and status.
      capabilities: [],
    });
    // Each refusal, and the moment its ship dialled again.
    const refusals: { shipId: string; retryAfterMs: number; closedAt?: number; redialAt?: number }[] = [];
    for (const ship of fleet.ships) {
      let last: (typeof refusals)[number] | undefined;
      ship.on('retryLater', (retryAfterMs) => refusals.push((last = { shipId: ship.shipId, retryAfterMs })));
      ship.on('closed', () => {
        if (last && last.closedAt === undefined) last.closedAt = performance.now();
      });
      ship.on('dialing', () => {
        if (last && last.redialAt === undefined) last.redialAt = performance.now();
      });
    }
    const started = performance.now();
    fleet.start();
    await expect.poll(() => fleet?.online, { timeout: 30_000, interval: 100 }).toBe(SHIPS);
    const allOnlineMs = performance.now() - started;

    // Every ship was taken exactly once; the refusals are what the ships heard.
    const admitted = shores.map((s) => s.app.agents.admission.counts.admitted);
    const refused = shores.map((s) => s.app.agents.admission.counts.refused);
    expect(admitted[0]! + admitted[1]!).toBe(SHIPS);
    expect(refused[0]! + refused[1]!).toBe(refusals.length);
    expect(fleet.totals().welcomes).toBe(SHIPS);
    // Half the fleet arrived at each instance at once: past its burst, each refused some.
    for (const n of refused) expect(n).toBeGreaterThan(0);
    // Bounded rate: an instance takes its burst and then perSecond; the fleet cannot be all online sooner.
    const perInstance = Math.max(...admitted);
    expect(allOnlineMs).toBeGreaterThanOrEqual(((perInstance - ADMISSION.burst) / ADMISSION.perSecond) * 1000 * 0.9);

    // The refused were told different times, spread at the rate (not one time for all), and came back no sooner.
    const told = refusals.map((r) => r.retryAfterMs);
    expect(new Set(told).size).toBeGreaterThan(refusals.length / 2);
    for (const r of refusals) {
      expect(r.closedAt).toBeDefined();
      expect(r.redialAt).toBeDefined();
      expect((r.redialAt ?? 0) - (r.closedAt ?? 0)).toBeGreaterThanOrEqual(r.retryAfterMs - 5);
    }

    // A refused link did not take its ship offline (no offline-online flapping), and every ship reads online.
    expect(offline).toEqual([0, 0]);
    const statuses = await shores[1]!.app.status.shipStatuses(ships.map((s) => ({ id: s.shipId, name: s.name })));
    expect(statuses.filter((s) => s.online)).toHaveLength(SHIPS);

    // Ownership: each ship owned by the instance holding its link; the two share the fleet within ±15 %.
    const owners = new Map<string, number>();
    for (const s of ships) {
      const owner = await shores[0]!.app.ownership.ownerOf(s.shipId);
      expect(owner).toBeDefined();
      owners.set(owner!.instanceId, (owners.get(owner!.instanceId) ?? 0) + 1);
    }
    expect([...owners.keys()].sort()).toEqual(shores.map((s) => s.app.ownership.instanceId).sort());
    for (const n of owners.values()) expect(Math.abs(n - SHIPS / 2)).toBeLessThanOrEqual(SHIPS * 0.15);
    for (const shore of shores) expect(shore.app.agents.connectedShips()).toHaveLength(owners.get(shore.app.ownership.instanceId) ?? -1);
    expect(admitted[0]).toBe(owners.get(shores[0]!.app.ownership.instanceId));
  }, 60_000);
});
