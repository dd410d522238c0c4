import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_HEADER, type VodQueryResult } from '@ship-cctv/protocol';
import { type TestApp, build, logon } from '../helpers/build.ts';
import { type Clip, ScriptedAgent, type ScriptedAgentOptions, loadClip } from './helpers.ts';

const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
const HOUR = 3_600_000;

describe('GET /cctvv3-server/v3/vod/query: what the ship recorder holds', () => {
  let t: TestApp;
  let port: number;
  let key: string;
  let clip: Clip;
  let demo: string;
  let njzsz: string;
  let agent: ScriptedAgent | undefined;
  const now = Date.now();
  // Recordings the "ship" holds: two runs yesterday and one still going.
  const spans = [
    { start: now - 30 * HOUR, end: now - 28 * HOUR },
    { start: now - 27 * HOUR, end: now - 20 * HOUR },
    { start: now - 2 * HOUR, end: now },
  ];

  const url = (ship: string, camera: string, start: number | string, end: number | string) => `/cctvv3-server/v3/vod/query/${ship}/${camera}/${start}/${end}`;
  const get = (path: string, token: string | null = demo) =>
    t.app.inject({ method: 'GET', url: path, headers: token === null ? {} : { [TOKEN_HEADER]: token } });
  const query = async (start: number, end: number): Promise<VodQueryResult> => {
    const res = await get(url(SHIP, CAMERA, start, end));
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: VodQueryResult }>().data;
  };
  const expectError = (res: LightMyRequestResponse, status: number, message?: RegExp, reason?: string) => {
    expect(res.statusCode, res.body).toBe(status);
    const body = res.json<{ code: number; message: string; data: unknown; reason?: string }>();
    expect(body).toMatchObject({ code: status, data: null });
    if (message) expect(body.message).toMatch(message);
    expect(body.reason).toBe(reason);
  };
  const connect = async (opts: ScriptedAgentOptions = { spans: { [CAMERA]: spans } }) => {
    agent = await ScriptedAgent.connect(port, SHIP, key, clip, opts);
    await expect.poll(() => t.app.agents.get(SHIP)?.ready ?? false).toBe(true);
    return agent;
  };

  beforeAll(async () => {
    clip = await loadClip(1);
    // The ship answers at most 1,000 spans here (10,000 in production, the agent-link schema's bound).
    t = await build({ playback: { vod: { timeoutMs: 1_000, maxSpansPerAnswer: 1_000 } } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    port = address.port;
    key = await t.app.agentKeys.issue(SHIP);
    demo = (await logon(t.app, 'demo')).token;
    njzsz = (await logon(t.app, 'njzsz')).token;
  });
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
    await expect.poll(() => t.app.agents.get(SHIP)).toBeUndefined();
    t.app.vod.cache.clear();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a bad range, an unknown ship or camera, another organisation and a missing sign-in', async () => {
    await connect();
    expectError(await get(url(SHIP, CAMERA, now - HOUR, now - 2 * HOUR)), 400, /start .* must be before end/);
    expectError(await get(url(SHIP, CAMERA, now, now)), 400, /must be before end/);
    expectError(await get(url(SHIP, CAMERA, 'yesterday', now)), 400);
    expectError(await get(url(SHIP, CAMERA, now - 40 * 24 * HOUR, now)), 400, /at most 31 days/);
    // An unknown ship answers as another organisation's: ship ids outside the user's stay unknown.
    expectError(await get(url('S9999', CAMERA, now - HOUR, now)), 403, /You do not have permission to do this/);
    expectError(await get(url(SHIP, 'S1001-C99-1', now - HOUR, now)), 404);
    // A camera of another ship (here: of another organisation) is not on this ship.
    expectError(await get(url(SHIP, 'S3001-C01-1', now - HOUR, now)), 404);
    expectError(await get(url(SHIP, CAMERA, now - HOUR, now), njzsz), 403, /You do not have permission to do this/);
    expectError(await get(url(SHIP, CAMERA, now - HOUR, now), null), 401);
    // None of that reached the ship.
    expect(agent?.of('vod.query')).toEqual([]);
  });

  it('asks the ship once for a past range, then answers it and any range inside it from the shore cache', async () => {
    const ship = await connect();
    const first = await query(now - 48 * HOUR, now - 24 * HOUR);
    expect(first).toEqual({
      shipId: SHIP,
      cameraId: CAMERA,
      start: now - 48 * HOUR,
      end: now - 24 * HOUR,
      spans: [spans[0], { start: now - 27 * HOUR, end: now - 24 * HOUR }],
      // This scripted ship gives no causes: its gaps read as unknown.
      gaps: [
        { start: now - 48 * HOUR, end: now - 30 * HOUR, cause: 'unknown' },
        { start: now - 28 * HOUR, end: now - 27 * HOUR, cause: 'unknown' },
      ],
      cached: false,
    });
    expect(ship.of('vod.query')).toEqual([{ type: 'vod.query', requestId: expect.any(Number), cameraId: CAMERA, start: now - 48 * HOUR, end: now - 24 * HOUR }]);

    const again = await query(now - 48 * HOUR, now - 24 * HOUR);
    expect(again).toEqual({ ...first, cached: true });
    const inside = await query(now - 29 * HOUR, now - 25 * HOUR);
    expect(inside).toMatchObject({ cached: true, spans: [{ start: now - 29 * HOUR, end: now - 28 * HOUR }, { start: now - 27 * HOUR, end: now - 25 * HOUR }] });
    // Neither reached the ship.
    expect(ship.of('vod.query')).toHaveLength(1);

    // A range reaching the present: only the part shore does not know crosses the link, and a span
    // cut at the boundary of what was known comes back whole.
    const today = await query(now - 48 * HOUR, now);
    expect(today.cached).toBe(false);
    expect(today.spans).toEqual(spans);
    expect(ship.of('vod.query').slice(1)).toEqual([expect.objectContaining({ start: now - 24 * HOUR, end: now })]);
    // The present is never taken from the cache: recording may still be going on.
    await query(now - 3 * HOUR, now);
    expect(ship.of('vod.query')).toHaveLength(3);
  });

  it('answers a known past range while the ship is offline, and 503 for anything it does not know', async () => {
    await connect();
    await query(now - 30 * HOUR, now - 20 * HOUR);
    await agent?.close();
    agent = undefined;
    await expect.poll(() => t.app.agents.get(SHIP)).toBeUndefined();

    expect(await query(now - 30 * HOUR, now - 20 * HOUR)).toMatchObject({ cached: true, spans: spans.slice(0, 2) });
    expectError(await get(url(SHIP, CAMERA, now - 30 * HOUR, now)), 503, /offline/, 'offline');
    expectError(await get(url(SHIP, 'S1001-C02-1', now - 30 * HOUR, now - 20 * HOUR)), 503, /offline/, 'offline');
  });

  it('says when the ship recorder fails or does not answer in time', async () => {
    await connect({ failQueries: true });
    expectError(await get(url(SHIP, CAMERA, now - 30 * HOUR, now - 20 * HOUR)), 503, /recorder could not answer: recorder index unreadable/, 'refused');
    await agent?.close();
    await expect.poll(() => t.app.agents.get(SHIP)).toBeUndefined();

    await connect({ silentQueries: true });
    expectError(await get(url(SHIP, CAMERA, now - 30 * HOUR, now - 20 * HOUR)), 503, /did not answer within 1 s/, 'timeout');
    // A failure is not remembered as "nothing recorded".
    expect(t.app.vod.cache.size.cameras).toBe(0);
  });

  it('takes an answer cut short at the most spans an answer holds as known only as far as it reaches', async () => {
    const base = now - 30 * HOUR;
    const many = Array.from({ length: 1_500 }, (_, i) => ({ start: base + i * 2_000, end: base + i * 2_000 + 1_000 }));
    const ship = await connect({ spans: { [CAMERA]: many }, maxSpans: 1_000 });
    const first = await query(base, now - 20 * HOUR);
    expect(first.spans).toHaveLength(1_000);
    const again = await query(base, now - 20 * HOUR);
    // The first 1,000 came from the cache; the rest was asked of the ship.
    expect(again).toMatchObject({ cached: false });
    expect(again.spans).toHaveLength(1_500);
    expect(ship.of('vod.query')[1]).toMatchObject({ start: many[999]?.end });
  });

  it('asks once for identical questions asked at the same time', async () => {
    const ship = await connect();
    const answers = await Promise.all(Array.from({ length: 5 }, () => query(now - 30 * HOUR, now - 20 * HOUR)));
    expect(new Set(answers.map((a) => JSON.stringify(a.spans))).size).toBe(1);
    expect(ship.of('vod.query')).toHaveLength(1);
  });
});
