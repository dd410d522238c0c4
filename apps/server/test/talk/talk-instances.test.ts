import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ShoreMessage } from '@ship-cctv/protocol';
import { type App, buildApp } from '../../src/app.ts';
import { type Database } from '../../src/core/db/client.ts';
import { RedisTalkOccupancy } from '../../src/modules/talk/redis-talk-occupancy.ts';
import { RawAgent } from '../agent-link/raw-agent.ts';
import { TEST_JWT_SECRET, logon } from '../helpers/build.ts';
import { freshDatabase } from '../helpers/database.ts';
import { Talker } from './talker.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SHIP = 'S1001';
const TALK_LEASE_MS = 1_500;

/**
 * Talkback occupancy with two shore instances on the machine's PostgreSQL and Redis: a talk held
 * on one instance makes the other answer "occupied" with the talker's name; when the talk ends —
 * or its instance dies without a word — the ship is free for a talker on the other instance.
 */
describe('talkback occupancy across instances', () => {
  const redisPrefix = `shipcctv-test-${randomBytes(4).toString('hex')}:`;
  let database: Database;
  let a: App;
  let b: App;
  let demo: string;
  let duty: string;
  const agents: RawAgent[] = [];
  const talkers: Talker[] = [];

  const portOf = (app: App) => {
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    return address.port;
  };
  /** The ship's agent on `app`'s link, answering every talk.open. */
  const linkShip = async (app: App) => {
    const key = await app.agentKeys.issue(SHIP);
    const agent = await RawAgent.connect(portOf(app), SHIP, key, {
      hello: {},
      capabilities: ['live', 'talk'],
      onMessage: (msg: ShoreMessage, self: RawAgent) => {
        if (msg.type === 'talk.open') self.send({ type: 'talk.opened', streamId: msg.streamId });
      },
    });
    agents.push(agent);
    await expect.poll(() => app.agents.get(SHIP)?.ready ?? false).toBe(true);
    return agent;
  };
  const talk = async (app: App, token: string) => {
    const talker = await Talker.start(portOf(app), token);
    talkers.push(talker);
    return talker;
  };

  beforeAll(async () => {
    database = await freshDatabase('postgres');
    const opts = { database, redisUrl: REDIS_URL, redisPrefix, jwtSecret: TEST_JWT_SECRET, ownershipLeaseMs: 1_500, talk: { leaseMs: TALK_LEASE_MS } };
    a = await buildApp({ ...opts, seedDemo: true });
    b = await buildApp(opts);
    for (const app of [a, b]) await app.listen({ port: 0, host: '127.0.0.1' });
    demo = (await logon(a, 'demo')).token;
    duty = (await logon(b, 'duty')).token;
  }, 60_000);
  afterEach(async () => {
    for (const t of talkers.splice(0)) t.ws.terminate();
    for (const agent of agents.splice(0)) await agent.close();
    await expect.poll(() => !a.agents.get(SHIP) && !b.agents.get(SHIP)).toBe(true);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.close();
  });

  it('a talker on A makes B answer occupied with who holds it; when A’s talk ends and the ship’s link moves to B, B can talk', async () => {
    await linkShip(a);
    const first = await talk(a, demo);
    expect((await first.next('talk.started')).talker).toBe('Demo Operator');

    // B does not hold the ship's link, yet its operator hears who talks rather than "offline".
    const second = await talk(b, duty);
    expect(await second.next('talk.error')).toMatchObject({ code: 'occupied', holder: 'Demo Operator' });

    first.ws.send(JSON.stringify({ type: 'talk.stop' }));
    expect((await first.next('talk.ended')).reason).toBe('stopped');
    await expect.poll(() => (b.talkOccupancy as RedisTalkOccupancy).holderOf(SHIP)).toBeUndefined();

    // The ship reconnects through the balancer to B: B owns it now and its operator talks.
    await linkShip(b);
    await expect.poll(() => a.agents.get(SHIP)).toBeUndefined();
    const third = await talk(b, duty);
    expect((await third.next('talk.started')).talker).toBe('Duty Officer');
  });

  it('a talk whose instance dies (no renewal, no release) frees the ship within the lease', async () => {
    await linkShip(b);
    // An instance that claimed the ship and died: nothing renews or releases its claim.
    const dead = await RedisTalkOccupancy.connect(REDIS_URL, redisPrefix, { leaseMs: TALK_LEASE_MS });
    expect(await dead.claim(SHIP, { talkId: 'dead-talk', userId: 'u-dead', displayName: 'Gone Operator', cameraId: 'S1001-C01-1', since: Date.now() })).toBeUndefined();
    const diedAt = Date.now();
    dead.abandon();

    const refused = await talk(b, duty);
    expect(await refused.next('talk.error')).toMatchObject({ code: 'occupied', holder: 'Gone Operator' });
    await expect.poll(() => (b.talkOccupancy as RedisTalkOccupancy).holderOf(SHIP), { timeout: TALK_LEASE_MS * 4 }).toBeUndefined();
    const freedAfterMs = Date.now() - diedAt;
    expect(freedAfterMs).toBeGreaterThanOrEqual(TALK_LEASE_MS - 50);
    const next = await talk(b, duty);
    expect((await next.next('talk.started')).talker).toBe('Duty Officer');
    console.log(`talk occupancy: a dead instance's talk freed the ship after ${freedAfterMs} ms (lease ${TALK_LEASE_MS} ms)`);
  });

  it('a live talk keeps its claim past several leases, and a late release of an old talk frees nothing', async () => {
    await linkShip(a);
    const talker = await talk(a, demo);
    await talker.next('talk.started');
    await new Promise((resolve) => setTimeout(resolve, TALK_LEASE_MS * 2.5));
    const held = await (b.talkOccupancy as RedisTalkOccupancy).holderOf(SHIP);
    expect(held?.displayName).toBe('Demo Operator');
    await b.talkOccupancy.release(SHIP, 'some-older-talk');
    expect((await (b.talkOccupancy as RedisTalkOccupancy).holderOf(SHIP))?.talkId).toBe(held?.talkId);
    const other = await talk(b, duty);
    expect(await other.next('talk.error')).toMatchObject({ code: 'occupied', holder: 'Demo Operator' });
  });
});
