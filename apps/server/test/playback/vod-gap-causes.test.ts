import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_HEADER, type VodQueryResult } from '@ship-cctv/protocol';
import { type TestApp, build, logon } from '../helpers/build.ts';
import { type Clip, ScriptedAgent, type ScriptedAgentOptions, loadClip } from './helpers.ts';

const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
const MIN = 60_000;

/** The ship-end query carries the ship recorder's own gap causes to the web, and reads an agent that gives none as unknown. */
describe('GET /cctvv3-server/v3/vod/query: the ship’s gaps and their causes', () => {
  let t: TestApp;
  let port: number;
  let key: string;
  let clip: Clip;
  let demo: string;
  let agent: ScriptedAgent | undefined;
  const T0 = Date.now() - 3 * 3_600_000;
  const spans = [{ start: T0, end: T0 + 10 * MIN }, { start: T0 + 20 * MIN, end: T0 + 30 * MIN }, { start: T0 + 40 * MIN, end: T0 + 50 * MIN }];

  const query = async (start: number, end: number): Promise<VodQueryResult> => {
    const res = await t.app.inject({ method: 'GET', url: `/cctvv3-server/v3/vod/query/${SHIP}/${CAMERA}/${start}/${end}`, headers: { [TOKEN_HEADER]: demo } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: VodQueryResult }>().data;
  };
  const connect = async (opts: ScriptedAgentOptions) => {
    agent = await ScriptedAgent.connect(port, SHIP, key, clip, opts);
    await expect.poll(() => t.app.agents.get(SHIP)?.ready ?? false).toBe(true);
  };

  beforeAll(async () => {
    clip = await loadClip(1);
    t = await build({ playback: { vod: { timeoutMs: 2_000 } } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    port = address.port;
    key = await t.app.agentKeys.issue(SHIP);
    demo = (await logon(t.app, 'demo')).token;
  }, 60_000);
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
    await expect.poll(() => t.app.agents.get(SHIP)).toBeUndefined();
    t.app.vod.cache.clear();
  });
  afterAll(async () => t?.close());

  it('gives the causes the ship gave, unknown where it gave none or one shore does not know, and keeps them with the cached spans', async () => {
    await connect({
      spans: { [CAMERA]: spans },
      gaps: {
        [CAMERA]: [
          { start: T0 + 10 * MIN, end: T0 + 15 * MIN, cause: 'cameraSilent' },
          { start: T0 + 15 * MIN, end: T0 + 20 * MIN, cause: 'diskFull' },
          // A cause a newer agent might give: read as unknown, the answer still taken.
          { start: T0 + 30 * MIN, end: T0 + 35 * MIN, cause: 'solarFlare' },
        ],
      },
    });
    const expected = [
      { start: T0 + 10 * MIN, end: T0 + 15 * MIN, cause: 'cameraSilent' },
      { start: T0 + 15 * MIN, end: T0 + 20 * MIN, cause: 'diskFull' },
      { start: T0 + 30 * MIN, end: T0 + 35 * MIN, cause: 'unknown' },
      // The ship said nothing of this one.
      { start: T0 + 35 * MIN, end: T0 + 40 * MIN, cause: 'unknown' },
    ];
    const first = await query(T0, T0 + 50 * MIN);
    expect(first).toMatchObject({ spans, cached: false });
    expect(first.gaps).toEqual(expected);
    // Asked again, from shore's cache: the same causes, nothing crosses the link.
    const sent = t.app.vod.queriesSent;
    const again = await query(T0, T0 + 50 * MIN);
    expect(again).toMatchObject({ cached: true, gaps: expected });
    expect(t.app.vod.queriesSent).toBe(sent);
  });

  it('reads an older agent, which sends spans only, as gaps of unknown cause', async () => {
    await connect({ spans: { [CAMERA]: spans } });
    const result = await query(T0 + 5 * MIN, T0 + 45 * MIN);
    expect(result.gaps).toEqual([
      { start: T0 + 10 * MIN, end: T0 + 20 * MIN, cause: 'unknown' },
      { start: T0 + 30 * MIN, end: T0 + 40 * MIN, cause: 'unknown' },
    ]);
  });
});
