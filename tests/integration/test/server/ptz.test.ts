import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PtzEvent, TOKEN_HEADER, dest } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { RawAgent } from '../../../../apps/server/test/agent-link/raw-agent.ts';
import { type TestApp, build, logon } from '../../../../apps/server/test/helpers/build.ts';
import { addUser } from '../../../../apps/server/test/helpers/users.ts';
import { SyntheticPtz, syntheticCameras } from '@ship-cctv/simulator';

/** The synthetic PTZ backend (the simulator's) the agent steers a camera with. */
function syntheticPtz(a: ShipAgent | undefined): SyntheticPtz | undefined {
  const backend = a?.ptz.drivers.get(BRIDGE);
  return backend instanceof SyntheticPtz ? backend : undefined;
}

const SHIP = 'S1001';
const BRIDGE = 'S1001-C01-1';
const ENGINE_ROOM = 'S1001-C02-1';
const base = `/api/v1/cctv/ptz/${SHIP}`;

describe('PTZ on shore: commands to a ship agent with a synthetic PTZ camera', () => {
  let t: TestApp;
  let port: number;
  let key: string;
  let demo: string;
  let njzsz: string;
  let agent: ShipAgent | undefined;
  const events: PtzEvent[] = [];

  const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, token = demo, payload?: object) =>
    t.app.inject({ method, url, headers: { [TOKEN_HEADER]: token }, ...(payload ? { payload } : {}) });
  /** A failure the web app words by its reason: the status, and the envelope's code and reason. */
  const expectError = (res: LightMyRequestResponse, status: number, reason: string, message?: RegExp) => {
    expect(res.statusCode, res.body).toBe(status);
    const body = res.json<{ code: number; message: string; data: null; reason?: string }>();
    expect(body).toMatchObject({ code: status, data: null, reason });
    if (message) expect(body.message).toMatch(message);
  };
  const startAgent = async () => {
    agent = new ShipAgent(
      {
        shoreUrl: `ws://127.0.0.1:${port}`,
        shipId: SHIP,
        key,
        cameras: [
          { cameraId: BRIDGE, source: 'synthetic', name: 'Bridge', ptz: {} },
          { cameraId: ENGINE_ROOM, source: 'synthetic', name: 'Engine Room' },
        ],
      },
      { current: () => ({ linkType: 'VSAT', quality: 80, duplex: 'BOTH' }), onChange: () => () => undefined },
      { cameraKinds: [syntheticCameras()], minBackoffMs: 100, maxBackoffMs: 200 },
    );
    agent.start();
    await expect.poll(() => t.app.agents.get(SHIP)?.ready, { timeout: 10_000 }).toBe(true);
    return agent;
  };

  beforeAll(async () => {
    t = await build({ ptz: { answerTimeoutMs: 3_000 } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    port = address.port;
    key = await t.app.agentKeys.issue(SHIP);
    demo = (await logon(t.app, 'demo')).token;
    njzsz = (await logon(t.app, 'njzsz')).token;
    t.app.bus.store.onEvent((e) => {
      if (e.destination === dest.ptz(BRIDGE)) events.push(JSON.parse(e.body) as PtzEvent);
    });
  });
  afterAll(async () => {
    await agent?.stop();
    await t?.close();
  });

  it('fails at once while the ship is offline (503, reason "offline")', async () => {
    const started = Date.now();
    expectError(await inject('POST', `${base}/${BRIDGE}/move`, demo, { pan: 1, tilt: 0, zoom: 0 }), 503, 'offline', /offline/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('refuses an agent that does not steer cameras (409, reason "unsupported")', async () => {
    const raw = await RawAgent.connect(port, SHIP, key, { hello: {}, capabilities: ['live', 'playback', 'pictures'] });
    await expect.poll(() => t.app.agents.get(SHIP)?.ready).toBe(true);
    expectError(await inject('GET', `${base}/${BRIDGE}/presets`), 409, 'unsupported', /does not handle ptz/);
    await raw.close();
    await expect.poll(() => t.app.agents.get(SHIP)).toBeUndefined();
  });

  it('says when the ship does not answer in time (503, reason "timeout"), and when it cannot (503, reason "refused")', async () => {
    const raw = await RawAgent.connect(port, SHIP, key, {
      hello: {},
      capabilities: ['live', 'ptz'],
      // A ship that never answers a move, and cannot list presets.
      onMessage: (msg, a) => {
        if (msg.type === 'ptz.presetList') a.send({ type: 'ptz.failed', requestId: msg.requestId, code: 'failed', message: 'the camera did not answer ONVIF' });
      },
    });
    await expect.poll(() => t.app.agents.get(SHIP)?.ready).toBe(true);
    expectError(await inject('POST', `${base}/${BRIDGE}/move`, demo, { pan: 1, tilt: 0, zoom: 0 }), 503, 'timeout', /did not answer within 3 s/);
    const refused = await inject('GET', `${base}/${BRIDGE}/presets`);
    expectError(refused, 503, 'refused');
    // The ship's own words, for the web app to show after "PTZ control failed:".
    expect(refused.json<{ message: string }>().message).toBe('the camera did not answer ONVIF');
    await raw.close();
    await expect.poll(() => t.app.agents.get(SHIP)).toBeUndefined();
  });

  it('moves, stops and publishes who moves; the agent advertises ptz', async () => {
    const a = await startAgent();
    expect(t.app.agents.get(SHIP)?.capabilities.has('ptz')).toBe(true);
    const moved = await inject('POST', `${base}/${BRIDGE}/move`, demo, { pan: 1, tilt: 0, zoom: 0, timeoutMs: 5_000 });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<{ data: { by: string } }>().data.by).toBe('Demo Operator');
    const synthetic = syntheticPtz(a);
    await expect.poll(() => synthetic?.position().x ?? 0).toBeGreaterThan(0.55);
    expect((await inject('POST', `${base}/${BRIDGE}/stop`)).statusCode).toBe(200);
    const stoppedAt = synthetic?.position().x ?? 0;
    await new Promise((r) => setTimeout(r, 300));
    expect(synthetic?.position().x).toBe(stoppedAt);
    await expect.poll(() => events.map((e) => e.action)).toEqual(['move', 'stop']);
    expect(events[0]).toMatchObject({ shipId: SHIP, cameraId: BRIDGE, by: 'Demo Operator', userId: 'u-demo' });
  });

  it('the last command wins: a second operator’s move replaces the first one and is who moves it', async () => {
    await addUser(t.app.database.db, { id: 'u-second', username: 'second', orgIds: ['blueocean'] });
    const other = (await logon(t.app, 'second')).token;
    const first = await inject('POST', `${base}/${BRIDGE}/move`, demo, { pan: 1, tilt: 0, zoom: 0, timeoutMs: 5_000 });
    expect(first.statusCode).toBe(200);
    const second = await inject('POST', `${base}/${BRIDGE}/move`, other, { pan: -1, tilt: 0, zoom: 0, timeoutMs: 5_000 });
    expect(second.statusCode).toBe(200);
    expect(second.json<{ data: { by: string } }>().data.by).toBe('Test second');
    await expect.poll(() => events.at(-1)?.by).toBe('Test second');
    const synthetic = syntheticPtz(agent);
    const x0 = synthetic?.position().x ?? 0;
    await expect.poll(() => synthetic?.position().x ?? 1).toBeLessThan(x0 - 0.02);
    expect((await inject('POST', `${base}/${BRIDGE}/stop`)).statusCode).toBe(200);
  });

  it('sets, lists, goes to and deletes presets; an unknown preset is 404', async () => {
    const set = await inject('POST', `${base}/${BRIDGE}/presets`, demo, { name: 'Gangway 舷梯' });
    expect(set.statusCode, set.body).toBe(200);
    const preset = set.json<{ data: { presetId: string; name: string } }>().data;
    expect(preset.name).toBe('Gangway 舷梯');
    const synthetic = syntheticPtz(agent);
    const there = synthetic?.position();
    expect((await inject('POST', `${base}/${BRIDGE}/move`, demo, { pan: 0, tilt: 1, zoom: 1, timeoutMs: 400 })).statusCode).toBe(200);
    await expect.poll(() => synthetic?.position().zoom ?? 1).toBeGreaterThan(1.2);
    const list = await inject('GET', `${base}/${BRIDGE}/presets`);
    expect(list.json<{ data: unknown[] }>().data).toEqual([preset]);
    expect((await inject('POST', `${base}/${BRIDGE}/presets/${preset.presetId}/goto`)).statusCode).toBe(200);
    expect(synthetic?.position()).toEqual(there);
    expect((await inject('DELETE', `${base}/${BRIDGE}/presets/${preset.presetId}`)).statusCode).toBe(200);
    expect((await inject('GET', `${base}/${BRIDGE}/presets`)).json<{ data: unknown[] }>().data).toEqual([]);
    expectError(await inject('POST', `${base}/${BRIDGE}/presets/${preset.presetId}/goto`), 404, 'notFound');
    expectError(await inject('DELETE', `${base}/${BRIDGE}/presets/${preset.presetId}`), 404, 'notFound');
  });

  it('refuses a camera that is not PTZ (409, reason "notPtz"), another organisation’s ship (403), bad speeds (400)', async () => {
    expectError(await inject('POST', `${base}/${ENGINE_ROOM}/move`, demo, { pan: 1, tilt: 0, zoom: 0 }), 409, 'notPtz', /Engine Room is not a PTZ camera/);
    const other = await inject('POST', `${base}/${BRIDGE}/move`, njzsz, { pan: 1, tilt: 0, zoom: 0 });
    expect(other.statusCode).toBe(403);
    expect((await inject('POST', `${base}/${BRIDGE}/move`, demo, { pan: 2, tilt: 0, zoom: 0 })).statusCode).toBe(400);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/docs/json' })).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/cctv/ptz/{shipId}/{cameraId}/move', '/api/v1/cctv/ptz/{shipId}/{cameraId}/presets/{presetId}/goto']));
  });
});
