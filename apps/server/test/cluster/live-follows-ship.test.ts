import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.ts';
import { CLOSE_OWNED_ELSEWHERE } from '../../src/core/ship-link/ship-claims.ts';
import { type Database } from '../../src/core/db/client.ts';
import { TEST_JWT_SECRET, logon } from '../helpers/build.ts';
import { freshDatabase } from '../helpers/database.ts';
import { MediaClient } from '../playback/helpers.ts';
import { StreamingAgent } from './streaming-agent.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';

const portOf = (app: App) => {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
};

/** How many codec events (one per stream start) and picture chunks a viewer has had. */
const mark = (v: MediaClient) => ({ codecs: v.events.filter((e) => e.type === 'codec').length, chunks: v.chunks.length });

/** Waits until the viewer has a new stream (a codec event) and pictures of it after `since`; answers how long it took. */
async function videoAgain(v: MediaClient, since: { codecs: number; chunks: number }, t0: number, what: string): Promise<number> {
  await v.until((c) => mark(c).codecs > since.codecs && c.chunks.length >= since.chunks + 4, 20_000, what);
  return Date.now() - t0;
}

/**
 * A live source follows its ship to whichever instance owns it: viewers on the instance that lost
 * the ship (its agent reconnected to another instance) get video again through the new owner on the
 * sockets they have, without reconnecting.
 */
describe('live video follows its ship to another instance', () => {
  const redisPrefix = `shipcctv-test-${randomBytes(4).toString('hex')}:`;
  let database: Database;
  let a: App;
  let b: App;
  let key: string;
  let token: string;
  const closers: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    database = await freshDatabase('pglite');
    const opts = { database, redisUrl: REDIS_URL, redisPrefix, jwtSecret: TEST_JWT_SECRET };
    a = await buildApp({ ...opts, seedDemo: true, instanceName: 'shore-a' });
    b = await buildApp({ ...opts, instanceName: 'shore-b' });
    for (const app of [a, b]) await app.listen({ port: 0, host: '127.0.0.1' });
    key = await a.agentKeys.issue(SHIP);
    token = (await logon(a, 'demo')).token;
  }, 120_000);
  afterAll(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    await a?.close();
    await b?.close();
    await database?.close();
  });

  const agentOn = async (app: App) => {
    const agent = await StreamingAgent.connect(portOf(app), SHIP, key);
    closers.push(() => agent.close());
    await expect.poll(() => app.ownership.ownerOf(SHIP), { timeout: 10_000 }).toMatchObject({ instanceId: app.ownership.instanceId });
    return agent;
  };
  const viewerOn = async (app: App) => {
    const v = await MediaClient.open(portOf(app), token);
    closers.push(() => v.close());
    v.send({ type: 'play', mode: 'live', cameraId: CAMERA });
    await v.until((c) => c.event('codec') !== undefined && c.chunks.length >= 4, 20_000, 'first video');
    return v;
  };

  it('the agent moves to B: viewers on A get video again through B; it drops and returns on A: viewers on B get it through A', async () => {
    const first = await agentOn(a);
    const onA = await viewerOn(a);
    const onB = await viewerOn(b);
    expect(first.streaming).toBe(1);

    // The agent reconnects to B (a network change): B claims the ship, A is fenced and closes its link.
    const beforeMove = { a: mark(onA), b: mark(onB) };
    const t0 = Date.now();
    const second = await agentOn(b);
    await first.link.until(() => first.closed !== undefined, 'the fenced link closing');
    expect(first.closed?.code).toBe(CLOSE_OWNED_ELSEWHERE);
    const [waitA, waitB] = await Promise.all([videoAgain(onA, beforeMove.a, t0, 'video on A after the move'), videoAgain(onB, beforeMove.b, t0, 'video on B after the move')]);
    // A told its viewers the ship was offline for a moment, then played again.
    expect(onA.events.slice(-20).some((e) => e.type === 'status' && e.state === 'playing')).toBe(true);
    // One uplink for the viewers of both instances.
    expect(second.streaming).toBe(1);

    // The ship's link drops (a satellite outage) and comes back on A: B, which lost the ship, follows it.
    const beforeReturn = { a: mark(onA), b: mark(onB) };
    await second.close();
    await onB.until((c) => c.events.slice(-5).some((e) => e.type === 'status' && e.state === 'offline'), 10_000, 'offline on B');
    const t1 = Date.now();
    const third = await agentOn(a);
    const [backA, backB] = await Promise.all([videoAgain(onA, beforeReturn.a, t1, 'video on A after the return'), videoAgain(onB, beforeReturn.b, t1, 'video on B after the return')]);
    expect(third.streaming).toBe(1);

    for (const v of [onA, onB]) expect(v.closed).toBeUndefined();
    const crossed = first.sentBytes + second.sentBytes + third.sentBytes;
    console.log(
      `[live follows its ship] moved A→B: viewers on A (lost the ship) waited ${waitA} ms, on B ${waitB} ms; ` +
        `dropped and back on A: viewers on B (lost it) waited ${backB} ms, on A ${backA} ms; ` +
        `${crossed} bytes crossed the ship's links (${first.sentBytes} + ${second.sentBytes} + ${third.sentBytes}), one uplink each time`,
    );
  });
});
