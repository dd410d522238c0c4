import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EnvelopeOf, type RecordQueryPage, type RecordingGap, TOKEN_HEADER, type VodQueryResult } from '@ship-cctv/protocol';
import { recordingGapFacts } from '../../src/core/db/schema.ts';
import { loadAccess } from '../../src/core/orgs/access.ts';
import { type TestApp, build, logon } from '../helpers/build.ts';
import { type Clip, ScriptedAgent, type ScriptedAgentOptions, loadClip } from '../playback/helpers.ts';
import { type LiveStream, fakeSource, feed, liveStream } from './helpers.ts';

/**
 * Every gap of the shore's recording has a cause: a real agent link that comes and goes (link
 * down), a camera the connected ship reports silent, a data budget refusing live views (budget
 * held), what the ship said it holds (nothing on the ship either), spans backfill has pending, and
 * the recorder's age limit (retention) — each through the path that records it in production, on
 * both databases, read back through the recording query.
 */
const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
const S = 1_000;

describe.each(['pglite', 'postgres'] as const)('causes of the shore recording’s gaps (%s)', (kind) => {
  let t: TestApp;
  let dir: string;
  let stream: LiveStream;
  let clip: Clip;
  let port: number;
  let key: string;
  let token: string;
  // Two hours ago, on a whole second: the recorder's and the budgets' clock moves through the test.
  const T0 = Math.floor((Date.now() - 2 * 3_600_000) / S) * S;
  let clock = T0;
  const at = (seconds: number) => T0 + seconds * S;

  const query = async (filter: object) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/cctv/record/complexQuery/1/50', headers: { [TOKEN_HEADER]: token }, payload: filter });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<EnvelopeOf<RecordQueryPage>>().data;
  };
  const facts = async () =>
    (await t.app.database.db.select().from(recordingGapFacts)).map((f) => `${f.kind} ${f.cameraId} ${(f.startMs - T0) / S}..${f.endMs === null ? '' : (f.endMs - T0) / S}`);
  const record = async (seconds: number) => {
    clock = at(seconds);
    feed(t.app.recorder, fakeSource(CAMERA, SHIP), stream);
    await t.app.recorder.settled();
  };
  const connect = async (opts: ScriptedAgentOptions) => {
    const agent = await ScriptedAgent.connect(port, SHIP, key, clip, opts);
    await expect.poll(() => t.app.agents.get(SHIP)?.ready ?? false).toBe(true);
    return agent;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gap-causes-'));
    stream = await liveStream(dir, 'live', 10);
    clip = await loadClip(1);
    // The recorder keeps 430 s back from its clock at the end of the test (T0 + 400 s): T0 − 30 s on.
    t = await build({ kind, recorder: { settings: { dir: join(dir, 'recordings'), segmentSeconds: 2, maxAgeMs: 430 * S }, now: () => clock }, budgets: { now: () => clock, flushMs: 3_600_000 } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    port = address.port;
    key = await t.app.agentKeys.issue(SHIP);
    token = (await logon(t.app, 'demo')).token;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers each gap of the span asked with the cause the shore has a fact for, and unknown where it has none', async () => {
    await record(0); // recording A: T0 … T0 + 10 s

    // The ship's link: up at 15 s, down at 20 s, back at 60 s with the camera not sending, which it sends again at 90 s.
    clock = at(15);
    const first = await connect({});
    clock = at(20);
    await first.close();
    await expect.poll(facts).toEqual(['linkDown  20..']);
    clock = at(60);
    const camera = { cameraId: CAMERA, online: false, recording: false, recordingSince: null };
    const agent = await connect({ cameras: [camera], spans: { [CAMERA]: [{ start: at(190), end: at(240) }] } });
    await expect.poll(facts).toEqual(['linkDown  20..60', `cameraSilent ${CAMERA} 60..`]);
    clock = at(90);
    agent.send({ type: 'camera', ...camera, online: true });
    await expect.poll(facts).toContain(`cameraSilent ${CAMERA} 60..90`);

    // A live budget used up at 120 s refuses live views (pictures only) until it is raised at 150 s.
    clock = at(120);
    const setBudget = (dayMb: number) =>
      t.app.inject({ method: 'POST', url: '/api/v1/cctv/databudget/update', headers: { [TOKEN_HEADER]: token }, payload: { orgId: 'blueocean', shipId: SHIP, policy: 'stills', caps: { live: { dayMb }, playback: {}, pictures: {} } } });
    expect((await setBudget(1)).statusCode).toBe(200);
    t.app.metrics.countLink(SHIP, 'up', 'live', 2_000_000);
    await t.app.flushBudgets();
    const access = await loadAccess(t.app.database.db, 'u-duty');
    await expect(t.app.live.resolve(access, CAMERA, undefined)).rejects.toMatchObject({ code: 'budgetStills' });
    await expect.poll(facts).toContainEqual(expect.stringMatching(/^budgetHeld {2}120\.\./));
    clock = at(150);
    expect((await setBudget(50)).statusCode).toBe(200);
    await t.app.live.resolve(access, CAMERA, undefined);
    await expect.poll(facts).toContain('budgetHeld  120..150');

    await record(180); // recording B

    // The ship says what it holds of 190 s … 300 s: 190 s … 240 s (kept on shore, asked once).
    const vod = await t.app.inject({ method: 'GET', url: `/cctvv3-server/v3/vod/query/${SHIP}/${CAMERA}/${at(190)}/${at(300)}`, headers: { [TOKEN_HEADER]: token } });
    expect(vod.statusCode, vod.body).toBe(200);
    await agent.close();

    // Backfill has 200 s … 220 s on its way.
    t.app.recordingGaps.setBackfillPending((shipId, cameraId) => (shipId === SHIP && cameraId === CAMERA ? [{ start: at(200), end: at(220) }] : []));

    await record(300); // recording C
    clock = at(400);

    const page = await query({ cameraId: CAMERA, start: at(-60), end: at(330) });
    const [a, b, c] = [...page.records].sort((x, y) => x.start - y.start);
    if (!a || !b || !c) throw new Error(`three recordings expected, got ${page.records.length}`);
    expect(page.gaps).toHaveLength(1);
    expect(page.gaps[0]).toMatchObject({ shipId: SHIP, cameraId: CAMERA });
    const expected: RecordingGap[] = [
      { start: at(-60), end: at(-30), cause: 'retention' },
      { start: at(-30), end: a.start, cause: 'unknown' },
      { start: a.end, end: at(20), cause: 'unknown' },
      { start: at(20), end: at(60), cause: 'linkDown' },
      { start: at(60), end: at(90), cause: 'cameraSilent' },
      { start: at(90), end: at(120), cause: 'unknown' },
      { start: at(120), end: at(150), cause: 'budgetHeld' },
      { start: at(150), end: b.start, cause: 'unknown' },
      // The link is down again from 180 s (the agent left after the ship-end query). The ship
      // holds 190 s … 240 s: what backfill brings is pending, the rest the link kept from shore;
      // from 240 s the ship holds nothing either.
      { start: b.end, end: at(200), cause: 'linkDown' },
      { start: at(200), end: at(220), cause: 'backfillPending' },
      { start: at(220), end: at(240), cause: 'linkDown' },
      { start: at(240), end: c.start, cause: 'nothingOnShip' },
      { start: c.end, end: at(330), cause: 'linkDown' },
    ];
    expect(page.gaps[0]!.gaps).toEqual(expected);

    // The list of recordings is what it was: the gaps are a field beside it.
    expect(page.total).toBe(3);
    // Without a camera asked: the cameras recorded in the span. A camera asked that recorded
    // nothing has the whole span as its gap.
    expect((await query({ shipId: SHIP, start: at(-60), end: at(330) })).gaps.map((g) => g.cameraId)).toEqual([CAMERA]);
    expect((await query({ cameraId: 'S1002-C01-1', start: at(-60), end: at(330) })).gaps).toEqual([
      {
        shipId: 'S1002',
        cameraId: 'S1002-C01-1',
        gaps: [
          { start: at(-60), end: at(-30), cause: 'retention' },
          { start: at(-30), end: at(330), cause: 'unknown' },
        ],
      },
    ]);
    // Without a span asked, no gaps are worked out.
    expect((await query({ cameraId: CAMERA })).gaps).toEqual([]);
    // The ship-end query of the same time carries its own gaps (this scripted agent gives no causes: unknown).
    const shipSide = vod.json<EnvelopeOf<VodQueryResult>>().data;
    expect(shipSide.gaps).toEqual([{ start: at(240), end: at(300), cause: 'unknown' }]);

    // Facts of times the recorder no longer keeps are forgotten by its retention pass; one still lasting stays.
    clock = at(1_000);
    expect(await t.app.recordingGaps.prune()).toBe(3);
    expect(await facts()).toEqual(['linkDown  180..']);
  });
});
