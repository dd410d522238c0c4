import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_HEADER } from '@ship-cctv/protocol';
import { RawAgent } from '../agent-link/raw-agent.ts';
import { type TestApp, build, logon } from '../helpers/build.ts';
import { addUser } from '../helpers/users.ts';

const SHIP = 'S1001';
const CHANNEL = 'S1001-C01';
const CAMERA = 'S1001-C01-1';
const PTZ_CAMERA = 'S1001-C01-1';
const snapshotUrl = `/cctvv3-server/v3/snapshot/requestPro/${SHIP}/${CHANNEL}/${CAMERA}/720/live`;
const listUrl = `/api/v1/cctv-server/v3/getPicList/${SHIP}`;
const presetsUrl = `/api/v1/cctv/ptz/${SHIP}/${PTZ_CAMERA}/presets`;

const CHINESE = /[\u4e00-\u9fa5]/;

/** A 429 in the envelope, in both languages, with the seconds to wait and whose limit it was. */
function expectTooMany(res: LightMyRequestResponse, scope: 'user' | 'ship'): void {
  expect(res.statusCode, res.body).toBe(429);
  const body = res.json<{ code: number; message: string; data: null }>();
  expect(body.code).toBe(429);
  expect(body.data).toBeNull();
  expect(body.message).toMatch(CHINESE);
  expect(body.message).toMatch(scope === 'user' ? /too many .* requests from you; try again in \d+ s/ : /the ship has too many .* requests; try again in \d+ s/);
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(res.headers['x-limit-scope']).toBe(scope);
}

describe('limits on what makes a ship send or work: per user, per ship, 429 with Retry-After', () => {
  let t: TestApp;
  let port: number;
  let key: string;
  const tokens = { demo: '', duty: '', second: '', njzsz: '' };
  let agent: RawAgent;

  const call = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url, headers: { [TOKEN_HEADER]: token }, ...(payload ? { payload } : {}) });
  const burst = (n: number, send: () => Promise<LightMyRequestResponse>) => Promise.all(Array.from({ length: n }, send));
  const statuses = (list: LightMyRequestResponse[]) => list.map((r) => r.statusCode).sort();

  beforeAll(async () => {
    t = await build({
      ptz: { answerTimeoutMs: 1_500 },
      pictures: { answerTimeoutMs: 1_500 },
      // Refills slow enough that no token comes back during a test.
      shipWorkLimits: {
        snapshot: { userBurst: 3, userPerSecond: 0.001, shipBurst: 5, shipPerSecond: 0.001, shipInFlight: 100 },
        shipQuery: { userBurst: 2, userPerSecond: 0.001, shipBurst: 100, shipPerSecond: 1, shipInFlight: 100 },
        ptz: { userBurst: 100, userPerSecond: 1, shipBurst: 100, shipPerSecond: 1, shipInFlight: 2 },
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    port = address.port;
    key = await t.app.agentKeys.issue(SHIP);
    await addUser(t.app.database.db, { id: 'u-second', username: 'second', orgIds: ['blueocean'] });
    for (const name of Object.keys(tokens) as (keyof typeof tokens)[]) tokens[name] = (await logon(t.app, name)).token;
    // A ship that takes every picture it is asked for, and never answers a list or a PTZ command.
    agent = await RawAgent.connect(port, SHIP, key, {
      hello: {},
      capabilities: ['live', 'playback', 'pictures', 'ptz'],
      onMessage: (msg, a) => {
        if (msg.type === 'pictures.take') a.send({ type: 'pictures.taken', streamId: msg.streamId, picture: { pictureId: msg.pictureId, cameraId: msg.cameraId, time: Date.now(), mime: 'image/jpeg', bytes: 1000, width: 1280, height: 720, origin: 'manual', sha256: '0'.repeat(64) } });
      },
    });
    for (const deadline = Date.now() + 10_000; !t.app.agents.get(SHIP)?.ready; ) {
      if (Date.now() > deadline) throw new Error('the raw agent never became ready');
      await new Promise((r) => setTimeout(r, 50));
    }
    // Building the demo fleet's server takes a while on a loaded machine.
  }, 180_000);
  afterAll(async () => {
    await agent?.close();
    await t?.close();
  });

  it("snapshots: a user's burst beyond their allowance is 429 and the ship is asked for the allowed number only", async () => {
    const answers = await burst(10, () => call('POST', snapshotUrl, tokens.demo));
    expect(statuses(answers)).toEqual([200, 200, 200, ...Array(7).fill(429)]);
    for (const res of answers.filter((r) => r.statusCode === 429)) expectTooMany(res, 'user');
    await agent.until(() => agent.of('pictures.take').length >= 3, 'three takes');
    expect(agent.of('pictures.take')).toHaveLength(3);
  });

  it("snapshots: other users of the ship share the ship's allowance; another organisation cannot spend it", async () => {
    // njzsz may not see the ship: 403 (their own allowance spent), and the ship's allowance stays as it was.
    for (const res of await burst(3, () => call('POST', snapshotUrl, tokens.njzsz))) expect(res.statusCode).toBe(403);
    // The ship allows 5: 3 went to demo, so of duty's 3 only 2 reach it.
    const answers = await burst(3, () => call('POST', snapshotUrl, tokens.duty));
    expect(statuses(answers)).toEqual([200, 200, 429]);
    expectTooMany(answers.find((r) => r.statusCode === 429) as LightMyRequestResponse, 'ship');
    const more = await call('POST', snapshotUrl, tokens.second);
    expectTooMany(more, 'ship');
    await agent.until(() => agent.of('pictures.take').length >= 5, 'five takes');
    expect(agent.of('pictures.take')).toHaveLength(5);
  });

  it("ship queries: a user's parallel picture lists beyond their allowance are 429 at once; the ship gets the allowed ones", async () => {
    const answers = await burst(6, () => call('POST', listUrl, tokens.demo, { cameraId: CAMERA, from: Date.now() - 3_600_000, to: Date.now() }));
    // The ship answers no list: the admitted ones end when shore stops waiting (cached answer or 503).
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(4);
    for (const res of answers.filter((r) => r.statusCode === 429)) expectTooMany(res, 'user');
    expect(agent.of('pictures.list')).toHaveLength(2);
  });

  it('PTZ: at most the allowed commands to one ship at once; the rest are 429 without reaching it', async () => {
    const answers = await burst(6, () => call('GET', presetsUrl, tokens.demo));
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(4);
    for (const res of answers.filter((r) => r.statusCode === 429)) expectTooMany(res, 'ship');
    expect(agent.of('ptz.presetList')).toHaveLength(2);
    // Once those ended, the ship takes commands again.
    const after = await call('GET', presetsUrl, tokens.duty);
    expect(after.statusCode, after.body).not.toBe(429);
    expect(agent.of('ptz.presetList')).toHaveLength(3);
  });
});
