import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, build } from '../helpers/build.ts';
import { RawAgent } from '../agent-link/raw-agent.ts';
import { type TcpProxy, tcpProxy } from '../helpers/tcp-proxy.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SHIP = 'S1002';

describe('status after Redis loses its data, and readiness', () => {
  const prefix = `shipcctv-test-${randomBytes(4).toString('hex')}:`;
  let t: TestApp;
  let port: number;
  let agent: RawAgent | undefined;
  let proxy: TcpProxy;
  const redis = new Redis(REDIS_URL);

  beforeAll(async () => {
    const target = new URL(REDIS_URL);
    proxy = await tcpProxy(target.hostname, Number(target.port || 6379));
    t = await build({ redisUrl: `redis://127.0.0.1:${proxy.port}`, redisPrefix: prefix, ownershipLeaseMs: 600 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await agent?.close();
    await t?.close();
    await proxy?.cut();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('writes the state of its ships again once its lease finds Redis lost its data', async () => {
    const key = await t.app.agentKeys.issue(SHIP);
    const cameraIds = (await t.app.status.cameraStatuses(SHIP)).map((c) => c.cameraId);
    const cameras = cameraIds.map((cameraId) => ({ cameraId, online: true, recording: false, recordingSince: null }));
    agent = await RawAgent.connect(port, SHIP, key, { hello: { cameras } });
    await expect.poll(async () => (await t.app.status.shipStatuses([{ id: SHIP, name: SHIP }]))[0]?.online).toBe(true);
    // Only this test's keys: the machine's Redis is shared.
    const keys = await redis.keys(`${prefix}*`);
    expect(keys.length).toBeGreaterThan(1);
    // Nothing else writes them meanwhile: the raw agent stays silent. The instance's lease key went
    // with the rest: its next renewal (every 200 ms) finds it gone and writes its ships' state again.
    // Whether a read right after the delete still finds them gone depends on where that timer is, so
    // the test waits for what the renewal must do: the ship online again, its cameras too.
    const gone = await redis.del(...keys);
    expect(gone).toBe(keys.length);
    await expect.poll(async () => (await t.app.status.shipStatuses([{ id: SHIP, name: SHIP }]))[0]?.online, { timeout: 2_000 }).toBe(true);
    const states = await t.app.status.cameraStatuses(SHIP);
    expect(states.length).toBeGreaterThan(0);
    expect(states.every((c) => c.online)).toBe(true);
  });

  it('is ready while the database and Redis answer, not when Redis is down; liveness stays 200', async () => {
    const ready = await t.app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: 'ok', statusStore: 'ok' });
    await proxy.cut();
    const down = await t.app.inject('/readyz');
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ status: 'unavailable', database: 'ok', statusStore: 'down' });
    expect((await t.app.inject('/healthz')).statusCode).toBe(200);
  });
});
