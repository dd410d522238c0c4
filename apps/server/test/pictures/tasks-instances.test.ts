import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EnvelopeOf, type ShoreMessage, type SnapshotTaskStatus, TOKEN_HEADER } from '@ship-cctv/protocol';
import { type App, buildApp } from '../../src/app.ts';
import { type Database } from '../../src/db/client.ts';
import { RawAgent } from '../agent-link/raw-agent.ts';
import { TEST_JWT_SECRET, logon } from '../helpers/build.ts';
import { freshDatabase } from '../helpers/database.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SHIP = 'S1001';

/**
 * Snapshot tasks with two shore instances on the machine's PostgreSQL and Redis: the ship's link
 * is on A, the operator plans and deletes on B, and the ship hears each change once, from A, at
 * once — not at its next reconnect.
 */
describe('snapshot task hand-over across instances', () => {
  const redisPrefix = `shipcctv-test-${randomBytes(4).toString('hex')}:`;
  let database: Database;
  let a: App;
  let b: App;
  let ship: RawAgent;
  let token: string;

  const call = async <T>(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => {
    const res = await b.inject({ method, url, headers: { [TOKEN_HEADER]: token }, ...(payload ? { payload } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<EnvelopeOf<T>>().data;
  };
  const handedOver = () => ship.of('pictures.tasks');

  beforeAll(async () => {
    database = await freshDatabase('postgres');
    const opts = { database, redisUrl: REDIS_URL, redisPrefix, jwtSecret: TEST_JWT_SECRET };
    a = await buildApp({ ...opts, seedDemo: true });
    b = await buildApp(opts);
    await a.listen({ port: 0, host: '127.0.0.1' });
    await b.ready();
    const address = a.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const key = await a.agentKeys.issue(SHIP);
    ship = await RawAgent.connect(address.port, SHIP, key, {
      hello: {},
      capabilities: ['live', 'pictures'],
      // The ship holds exactly what it was handed, as a real agent answers.
      onMessage: (msg: ShoreMessage, self: RawAgent) => {
        if (msg.type === 'pictures.tasks') self.send({ type: 'pictures.tasksHeld', streamId: msg.streamId, taskIds: msg.tasks.map((t) => t.taskId) });
      },
    });
    await ship.until(() => handedOver().length === 1, 'the tasks handed over when the inbox opened');
    token = (await logon(b, 'demo')).token;
  }, 60_000);
  afterAll(async () => {
    await ship?.close();
    await a?.close();
    await b?.close();
    await database?.close();
  });

  it('a task planned on B reaches the ship on A at once and once; its deletion on B too', async () => {
    expect(b.agents.get(SHIP)).toBeUndefined();
    const start = Date.now() + 60_000;
    const task = await call<SnapshotTaskStatus>('POST', '/api/v1/cctv-server/v3/submitTask', { shipId: SHIP, channelIds: ['S1001-C01'], rateHours: 0.25, start, end: start + 3_600_000 });
    await ship.until(() => handedOver().length === 2, 'the new set of tasks');
    expect(handedOver()[1]?.tasks.map((t) => t.taskId)).toEqual([task.id]);
    await expect.poll(async () => (await call<SnapshotTaskStatus>('GET', `/api/v1/cctv-server/v3/getNowTaskStatus/${task.id}`)).state).toBe('active');

    await call<SnapshotTaskStatus>('DELETE', `/api/v1/cctv-server/v3/delTask/${task.id}`);
    await ship.until(() => handedOver().length === 3, 'the set without the deleted task');
    expect(handedOver()[2]?.tasks).toEqual([]);
    // Once: no second hand-over of either change arrives later (every instance heard the signal; only A holds the link).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(handedOver()).toHaveLength(3);
  });
});
