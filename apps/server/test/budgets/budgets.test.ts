import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type BudgetNoticeMessage,
  type BudgetOverride,
  type DataBudgetSetting,
  type DataBudgetStatistics,
  type DataBudgetUpdate,
  LINK_POLICY_DEFAULTS,
  type MediaServerMessage,
  PATHS,
  type ShipBudgetUse,
  TOKEN_HEADER,
} from '@ship-cctv/protocol';
import { buildApp, type App } from '../../src/app.ts';
import { openDatabase } from '../../src/core/db/client.ts';
import { memberships } from '../../src/core/db/schema.ts';
import { LiveRequestError } from '../../src/modules/fleet/stream-access.ts';
import { loadAccess } from '../../src/core/orgs/access.ts';
import { TEST_JWT_SECRET, type TestApp, build, logon } from '../helpers/build.ts';
import { freshDatabase } from '../helpers/database.ts';
import { addUser } from '../helpers/users.ts';

/**
 * Data budgets end to end on one server (and two sharing a database): use counted from the link
 * counters by the ship's day (an injected clock), the 80 % notice once per period, each 100 %
 * policy through the live request path, the override log, validation and organisation checks.
 */
const CCTV = '/api/v1/cctv';
const MB = 1_000_000;
const noCap = {};
const cap = (dayMb: number | null, monthMb: number | null) => ({ ...(dayMb === null ? {} : { dayMb }), ...(monthMb === null ? {} : { monthMb }) });
const caps = (live: { dayMb: number | null; monthMb: number | null }) => ({ live: cap(live.dayMb, live.monthMb), playback: noCap, pictures: noCap });

describe.each(['pglite', 'postgres'] as const)('data budgets (%s)', (kind) => {
  let t: TestApp;
  let demo: string;
  let njzsz: string;
  let duty: string;
  let viewer: string;
  // S1001 keeps Singapore time (UTC+8): its day begins at 16:00 UTC.
  let clock = Date.UTC(2026, 10, 30, 10);
  let published: { destination: string; body: string }[] = [];

  const call = (method: 'GET' | 'POST', url: string, payload?: object, token: string | null = demo) =>
    t.app.inject({ method, url: `${CCTV}${url}`, headers: token ? { [TOKEN_HEADER]: token } : {}, ...(payload ? { payload } : {}) });
  const data = <T>(res: LightMyRequestResponse): T => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: T }>().data;
  };
  const expectError = (res: LightMyRequestResponse, status: number, message?: RegExp) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json<{ code: number }>().code).toBe(status);
    if (message) expect(res.json<{ message: string }>().message).toMatch(message);
  };
  const shipUse = async (shipId: string, token = demo): Promise<ShipBudgetUse> => {
    const stats = data<DataBudgetStatistics>(await call('GET', `/statistics/dataBudget/blueocean?ships=${shipId}`, undefined, token));
    expect(stats.ships).toHaveLength(1);
    return stats.ships[0] as ShipBudgetUse;
  };
  const count = async (shipId: string, purpose: 'live' | 'playback' | 'pictures' | 'control', bytes: number) => {
    t.app.metrics.countLink(shipId, 'up', purpose, bytes);
    await t.app.flushBudgets();
  };
  const notices = () => published.filter((p) => p.destination.startsWith('/budget/')).map((p) => JSON.parse(p.body) as BudgetNoticeMessage);
  const setBudget = async (body: DataBudgetUpdate, token = demo) => data<DataBudgetSetting>(await call('POST', '/databudget/update', body, token));

  beforeAll(async () => {
    t = await build({ kind, budgets: { now: () => clock, flushMs: 3_600_000 } });
    demo = (await logon(t.app, 'demo')).token;
    njzsz = (await logon(t.app, 'njzsz')).token;
    duty = (await logon(t.app, 'duty')).token;
    // A member of Blue Ocean who is not its manager.
    await addUser(t.app.database.db, { id: 'u-watch', username: 'watch', orgIds: [] });
    await t.app.database.db.insert(memberships).values({ userId: 'u-watch', orgId: 'blueocean', role: 'operator' });
    viewer = (await logon(t.app, 'watch')).token;
    const publish = t.app.stomp.publish.bind(t.app.stomp);
    vi.spyOn(t.app.stomp, 'publish').mockImplementation((destination, body) => {
      published.push({ destination, body });
      return publish(destination, body);
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => {
    published = [];
  });

  it('counts each purpose by the ship’s own day and month, across its midnight and the month’s end', async () => {
    await setBudget({ orgId: 'blueocean', shipId: 'S1003', policy: 'lowest', caps: { live: { dayMb: 10, monthMb: 100 }, playback: { dayMb: 5 }, pictures: noCap } });
    // S1003 keeps Amsterdam time (UTC+1 in November): 30 November 23:30 there.
    clock = Date.UTC(2026, 10, 30, 22, 30);
    await count('S1003', 'live', 2 * MB);
    await count('S1003', 'playback', 300_000);
    // Control messages are not budgeted.
    await count('S1003', 'control', 9 * MB);
    let use = await shipUse('S1003');
    expect(use).toMatchObject({ day: '2026-11-30', month: '2026-11', source: 'ship', policy: 'lowest', live: 'normal' });
    expect(use.use.live).toMatchObject({ dayBytes: 2 * MB, monthBytes: 2 * MB, dayCapBytes: 10 * MB, monthCapBytes: 100 * MB, level: 0 });
    expect(use.use.playback).toMatchObject({ dayBytes: 300_000, monthBytes: 300_000 });
    // 00:30 on 1 December on the ship (23:30 UTC is still 30 November in UTC): a new day and a new month.
    clock = Date.UTC(2026, 10, 30, 23, 30);
    await count('S1003', 'live', MB);
    use = await shipUse('S1003');
    expect(use).toMatchObject({ day: '2026-12-01', month: '2026-12' });
    expect(use.use.live).toMatchObject({ dayBytes: MB, monthBytes: MB });
    expect(use.use.playback).toMatchObject({ dayBytes: 0, monthBytes: 0 });
    // The next day of the same month: the day starts over, the month adds up.
    clock = Date.UTC(2026, 11, 1, 23, 30);
    await count('S1003', 'live', 4 * MB);
    use = await shipUse('S1003');
    expect(use.day).toBe('2026-12-02');
    expect(use.use.live).toMatchObject({ dayBytes: 4 * MB, monthBytes: 5 * MB });
    // Looking back at November: its bytes are where they were.
    clock = Date.UTC(2026, 10, 30, 22, 45);
    expect((await shipUse('S1003')).use.live).toMatchObject({ dayBytes: 2 * MB, monthBytes: 2 * MB });
  });

  it('tells the ship’s operators once at 80 % of a period, once at 100 %, and again in the next period', async () => {
    clock = Date.UTC(2026, 10, 30, 10);
    await setBudget({ orgId: 'blueocean', shipId: 'S1001', policy: 'stills', caps: caps({ dayMb: 1, monthMb: null }) });
    await count('S1001', 'live', 500_000);
    expect(notices()).toEqual([]);
    await count('S1001', 'live', 350_000);
    expect(notices()).toEqual([
      { shipId: 'S1001', shipName: expect.any(String), purpose: 'live', period: 'day', periodKey: '2026-11-30', level: 80, usedBytes: 850_000, capBytes: MB, policy: 'stills' },
    ]);
    expect(published[0]?.destination).toMatch(/^\/budget\//);
    // More bytes below the cap: no second notice.
    await count('S1001', 'live', 50_000);
    await count('S1001', 'live', 50_000);
    expect(notices()).toHaveLength(1);
    await count('S1001', 'live', 100_000);
    expect(notices().map((n) => n.level)).toEqual([80, 100]);
    await count('S1001', 'live', 100_000);
    expect(notices()).toHaveLength(2);
    // The ship's next day (16:00 UTC is midnight in Singapore): a fresh allowance, 80 % and 100 % crossed at once tell once, of the 100 %.
    clock = Date.UTC(2026, 10, 30, 16, 5);
    await count('S1001', 'live', 2 * MB);
    expect(notices().slice(2)).toEqual([expect.objectContaining({ periodKey: '2026-12-01', level: 100 })]);
  });

  it('`lowest`: a live view past the cap starts at the lowest definition of its group and says why', async () => {
    clock = Date.UTC(2026, 10, 30, 10);
    const access = await loadAccess(t.app.database.db, 'u-demo');
    const before = await t.app.live.resolve(access, 'S1002-C01-1', undefined);
    expect(before.notices).toEqual([]);
    await setBudget({ orgId: 'blueocean', shipId: 'S1002', policy: 'lowest', caps: caps({ dayMb: null, monthMb: 1 }) });
    await count('S1002', 'live', MB);
    const after = await t.app.live.resolve(access, 'S1002-C01-1', undefined);
    expect(after.notices).toHaveLength(1);
    expect(after.notices[0]?.code).toBe('budgetLowest');
    // The stream key names the definition: the lowest one, not the default asked for.
    expect(after.key).toMatch(new RegExp(`^S1002-C01-1@${after.notices[0]?.templateId}(\\+audio)?$`));
    expect(after.key).not.toBe(before.key);
    expect((await shipUse('S1002')).live).toBe('lowest');
    // A view asking for the lowest definition anyway is not narrowed, and not told.
    const asked = await t.app.live.resolve(access, 'S1002-C01-1', after.notices[0]?.templateId);
    expect(asked).toMatchObject({ key: after.key, notices: [] });
  });

  it('`stills`: a live view past the cap is refused with budgetStills; pictures are not', async () => {
    clock = Date.UTC(2026, 10, 30, 10);
    // S1001's day cap is used up by the notice test.
    const access = await loadAccess(t.app.database.db, 'u-duty');
    await expect(t.app.live.resolve(access, 'S1001-C01-1', undefined)).rejects.toMatchObject({ code: 'budgetStills' });
    await expect(t.app.live.resolve(access, 'S1001-C01-1', undefined)).rejects.toBeInstanceOf(LiveRequestError);
    expect((await shipUse('S1001', duty)).live).toBe('stills');
    // Raising the cap lets views start again.
    await setBudget({ orgId: 'blueocean', shipId: 'S1001', policy: 'stills', caps: caps({ dayMb: 50, monthMb: null }) });
    expect((await t.app.live.resolve(access, 'S1001-C01-1', undefined)).notices).toEqual([]);
  });

  it('`block`: refused with budgetBlocked until the user overrides with a reason; the override is logged and holds to the ship’s midnight', async () => {
    clock = Date.UTC(2026, 10, 30, 10);
    // An organisation default reaches S2001 (Blue Ocean Tankers, Dubai time) from Blue Ocean above it.
    await setBudget({ orgId: 'blueocean', policy: 'block', caps: caps({ dayMb: 0.5, monthMb: null }) });
    expect((await shipUse('S2001')).source).toBe('org');
    await count('S2001', 'live', 600_000);
    const demoAccess = await loadAccess(t.app.database.db, 'u-demo');
    const dutyAccess = await loadAccess(t.app.database.db, 'u-duty');
    await expect(t.app.live.resolve(demoAccess, 'S2001-C01-1', undefined)).rejects.toMatchObject({ code: 'budgetBlocked' });
    // A reason is required.
    expectError(await call('POST', '/databudget/override', { shipId: 'S2001' }), 400);
    expectError(await call('POST', '/databudget/override', { shipId: 'S2001', reason: '   ' }), 400);
    // Not another organisation's ship.
    expectError(await call('POST', '/databudget/override', { shipId: 'S2001', reason: 'engine room alarm' }, njzsz), 403);
    expect(data<BudgetOverride[]>(await call('GET', '/databudget/overrides/blueocean'))).toEqual([]);

    const made = data<BudgetOverride>(await call('POST', '/databudget/override', { shipId: 'S2001', reason: '  engine room alarm  ' }));
    // Dubai is UTC+4: the ship's day ends at 20:00 UTC.
    expect(made).toMatchObject({ shipId: 'S2001', orgId: 'blueocean-tankers', userId: 'u-demo', username: 'demo', reason: 'engine room alarm', createdAt: clock, validUntil: Date.UTC(2026, 10, 30, 20) });
    expect(await t.app.live.resolve(demoAccess, 'S2001-C01-1', undefined)).toMatchObject({ shipId: 'S2001', notices: [] });
    expect(await shipUse('S2001')).toMatchObject({ live: 'override', overrideUntil: Date.UTC(2026, 10, 30, 20) });
    // The override is the user's: the duty officer is still blocked.
    await expect(t.app.live.resolve(dutyAccess, 'S2001-C01-1', undefined)).rejects.toMatchObject({ code: 'budgetBlocked' });
    const log = data<BudgetOverride[]>(await call('GET', '/databudget/overrides/blueocean', undefined, duty));
    expect(log).toEqual([expect.objectContaining({ id: made.id, shipName: expect.any(String), username: 'demo', reason: 'engine room alarm' })]);
    expectError(await call('GET', '/databudget/overrides/blueocean', undefined, njzsz), 403);
    // At the ship's midnight the override ends (and so does the day's use: a new day).
    clock = Date.UTC(2026, 10, 30, 20, 0, 1);
    await count('S2001', 'live', 600_000);
    await expect(t.app.live.resolve(demoAccess, 'S2001-C01-1', undefined)).rejects.toMatchObject({ code: 'budgetBlocked' });
    // A ship that is not blocked needs no override.
    expectError(await call('POST', '/databudget/override', { shipId: 'S3001', reason: 'just looking' }), 409);
    await call('POST', '/databudget/delete', { orgId: 'blueocean' });
  });

  it('`link`: follows the policy of the link the ship is on (issue 19 item 4): lowest on port 4G, pictures only on FBB at sea, as its organisation set it', async () => {
    // A day of S1003's (Amsterdam) nothing else counted.
    clock = Date.UTC(2026, 10, 29, 10);
    const access = await loadAccess(t.app.database.db, 'u-demo');
    const link = (linkType: 'FOURTHG' | 'FBB') => t.app.status.linkReport('S1003', { linkType, quality: 80, duplex: 'BOTH' });
    await link('FOURTHG');
    await setBudget({ orgId: 'blueocean', shipId: 'S1003', policy: 'link', caps: caps({ dayMb: 0.5, monthMb: null }) });
    expect(await shipUse('S1003')).toMatchObject({ policyChoice: 'link', policy: 'lowest', policyLink: 'FOURTHG', live: 'normal' });
    await count('S1003', 'live', 600_000);
    // The notice says which policy applies, and that it is the link's.
    expect(notices().filter((n) => n.shipId === 'S1003')).toEqual([expect.objectContaining({ level: 100, policy: 'lowest', policyLink: 'FOURTHG' })]);
    expect(await shipUse('S1003')).toMatchObject({ policy: 'lowest', policyLink: 'FOURTHG', live: 'lowest' });
    // At sea on FBB: pictures only, without anyone touching the budget.
    await link('FBB');
    expect(await shipUse('S1003')).toMatchObject({ policyChoice: 'link', policy: 'stills', policyLink: 'FBB', live: 'stills' });
    await expect(t.app.live.resolve(access, 'S1003-C01-1', undefined)).rejects.toMatchObject({ code: 'budgetStills' });
    // Read for the whole fleet at once (one lookup of the links for all), each ship gets its own link's policy.
    await t.app.status.linkReport('S1001', { linkType: 'FOURTHG', quality: 80, duplex: 'BOTH' });
    await setBudget({ orgId: 'blueocean', shipId: 'S1001', policy: 'link', caps: caps({ dayMb: 0.5, monthMb: null }) });
    const fleet = data<DataBudgetStatistics>(await call('GET', '/statistics/dataBudget/blueocean')).ships;
    expect(fleet.find((s) => s.shipId === 'S1001')).toMatchObject({ policyChoice: 'link', policy: 'lowest', policyLink: 'FOURTHG' });
    expect(fleet.find((s) => s.shipId === 'S1003')).toMatchObject({ policyChoice: 'link', policy: 'stills', policyLink: 'FBB' });
    await call('POST', '/databudget/delete', { orgId: 'blueocean', shipId: 'S1001' });
    // Blue Ocean's manager makes a used-up budget on FBB a block.
    const fbb = { ...LINK_POLICY_DEFAULTS.FBB, budgetPolicy: 'block' } as const;
    const put = await t.app.inject({ method: 'PUT', url: `${CCTV}/linkPolicy/blueocean/FBB`, headers: { [TOKEN_HEADER]: demo }, payload: fbb });
    expect(put.statusCode, put.body).toBe(200);
    expect(await shipUse('S1003')).toMatchObject({ policy: 'block', policyLink: 'FBB', live: 'block' });
    await expect(t.app.live.resolve(access, 'S1003-C01-1', undefined)).rejects.toMatchObject({ code: 'budgetBlocked' });
    // A budget that names its own policy is not moved by the link.
    await setBudget({ orgId: 'blueocean', shipId: 'S1003', policy: 'lowest', caps: caps({ dayMb: 0.5, monthMb: null }) });
    const own = await shipUse('S1003');
    expect(own).toMatchObject({ policyChoice: 'lowest', policy: 'lowest', live: 'lowest' });
    expect(own.policyLink).toBeUndefined();
    expect((await t.app.inject({ method: 'DELETE', url: `${CCTV}/linkPolicy/blueocean/FBB`, headers: { [TOKEN_HEADER]: demo } })).statusCode).toBe(200);
  });

  it('the statistics of the whole fleet, read at once, give each ship its own day and month, ships in two months at a month’s end', async () => {
    // 20:30 UTC on 30 November: still 30 November in Amsterdam (S1003), already 1 December in Singapore (S1001).
    clock = Date.UTC(2026, 10, 30, 20, 30);
    const fleet = data<DataBudgetStatistics>(await call('GET', '/statistics/dataBudget/blueocean'));
    const byId = new Map(fleet.ships.map((s) => [s.shipId, s]));
    // What the tests above counted: S1003 2 MB on its 30 November and 0.6 MB on the 29th; S1001 2 MB on its 1 December.
    expect(byId.get('S1003')).toMatchObject({ day: '2026-11-30', month: '2026-11' });
    expect(byId.get('S1003')?.use.live).toMatchObject({ dayBytes: 2 * MB, monthBytes: 2.6 * MB });
    expect(byId.get('S1001')).toMatchObject({ day: '2026-12-01', month: '2026-12' });
    expect(byId.get('S1001')?.use.live).toMatchObject({ dayBytes: 2 * MB, monthBytes: 2 * MB });
    expect(fleet.ships.length).toBeGreaterThan(3);
    // Each ship as it would be read alone.
    for (const ship of fleet.ships) expect(ship).toEqual(await shipUse(ship.shipId));
  });

  it('a viewer’s media socket hears the refusal’s code, or the lowest-definition notice, as the play is answered', async () => {
    clock = Date.UTC(2026, 10, 30, 10);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const play = async (until: (m: MediaServerMessage) => boolean): Promise<MediaServerMessage[]> => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}${PATHS.media}?token=${encodeURIComponent(njzsz)}`);
      const got: MediaServerMessage[] = [];
      await new Promise<void>((resolve, reject) => {
        ws.on('error', reject);
        ws.on('open', () => ws.send(JSON.stringify({ type: 'play', mode: 'live', cameraId: 'S3001-C01-1' })));
        ws.on('message', (data, binary) => {
          if (binary) return;
          const m = JSON.parse(String(data)) as MediaServerMessage;
          got.push(m);
          if (until(m)) resolve();
        });
      });
      ws.close();
      return got;
    };
    await setBudget({ orgId: 'njzsz', shipId: 'S3001', policy: 'block', caps: caps({ dayMb: 0.1, monthMb: null }) }, njzsz);
    await count('S3001', 'live', 200_000);
    const blocked = await play((m) => m.type === 'error');
    expect(blocked).toEqual([{ type: 'error', code: 'budgetBlocked', message: expect.stringMatching(/give a reason to override/) }]);
    await setBudget({ orgId: 'njzsz', shipId: 'S3001', policy: 'stills', caps: caps({ dayMb: 0.1, monthMb: null }) }, njzsz);
    expect((await play((m) => m.type === 'error'))[0]).toMatchObject({ type: 'error', code: 'budgetStills' });
    await setBudget({ orgId: 'njzsz', shipId: 'S3001', policy: 'lowest', caps: caps({ dayMb: 0.1, monthMb: null }) }, njzsz);
    const lowest = await play((m) => m.type === 'notice');
    expect(lowest.slice(0, 2)).toEqual([{ type: 'status', state: 'starting', waitSeconds: expect.any(Number) }, { type: 'notice', code: 'budgetLowest', templateId: expect.any(Number) }]);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/docs/json' })).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/cctv/statistics/dataBudget/{id}',
        '/api/v1/cctv/databudget/findByShipId',
        '/api/v1/cctv/databudget/update',
        '/api/v1/cctv/databudget/delete',
        '/api/v1/cctv/databudget/override',
        '/api/v1/cctv/databudget/overrides/{id}',
      ]),
    );
  });

  it('refuses bad budgets with a clear 400 and saves nothing', async () => {
    const good: DataBudgetUpdate = { orgId: 'blueocean', shipId: 'S1003', policy: 'block', caps: caps({ dayMb: 1, monthMb: 10 }) };
    const before = data<DataBudgetSetting | null>(await call('GET', '/databudget/findByShipId?shipId=S1003'));
    const bad: [object, RegExp?][] = [
      [{ ...good, policy: 'throttle' }],
      [{ ...good, caps: caps({ dayMb: -1, monthMb: 10 }) }],
      [{ ...good, caps: caps({ dayMb: 0, monthMb: 10 }) }],
      [{ ...good, caps: caps({ dayMb: 'lots' as unknown as number, monthMb: 10 }) }],
      [{ ...good, caps: { ...caps({ dayMb: 1, monthMb: 10 }), live: { dayMb: null, monthMb: 10 } } }],
      [{ ...good, caps: { live: { dayMb: 1, monthMb: 10 } } }],
      [{ ...good, caps: caps({ dayMb: 20, monthMb: 10 }) }, /day's cap \(20 MB\) is larger than the month's \(10 MB\)/],
      [{ ...good, caps: caps({ dayMb: 1e12, monthMb: null }) }],
      [{ ...good, orgId: '' }],
      [{ ...good, shipId: 'S3001' }, /not in organisation blueocean/],
    ];
    for (const [body, message] of bad) expectError(await call('POST', '/databudget/update', body), 400, message);
    expect(data<DataBudgetSetting | null>(await call('GET', '/databudget/findByShipId?shipId=S1003'))).toEqual(before);
    expectError(await call('GET', '/statistics/dataBudget/blueocean?ships=' + 'x'.repeat(5000)), 400);
    expectError(await call('POST', '/databudget/delete', { shipId: 'S1002' }), 400);
  });

  it('lets only managers of the organisation (or above) change budgets; others read their own organisations only', async () => {
    const body: DataBudgetUpdate = { orgId: 'blueocean', shipId: 'S1001', policy: 'block', caps: caps({ dayMb: 1, monthMb: null }) };
    expectError(await call('POST', '/databudget/update', body, njzsz), 403);
    expectError(await call('POST', '/databudget/update', { ...body, orgId: 'njzsz', shipId: 'S1001' }, njzsz), 403);
    expectError(await call('POST', '/databudget/update', body, viewer), 403);
    expectError(await call('POST', '/databudget/update', { ...body, shipId: undefined }, viewer), 403);
    expectError(await call('POST', '/databudget/update', body, null), 401);
    expectError(await call('POST', '/databudget/update', { ...body, orgId: 'nowhere', shipId: undefined }), 404);
    // An unknown ship answers as another organisation's (403): ship ids outside the user's stay unknown.
    expectError(await call('POST', '/databudget/update', { ...body, shipId: 'S9999' }), 403);
    expectError(await call('POST', '/databudget/delete', { orgId: 'blueocean', shipId: 'S1001' }, viewer), 403);
    expectError(await call('GET', '/statistics/dataBudget/blueocean', undefined, njzsz), 403);
    expectError(await call('GET', '/databudget/findByShipId?shipId=S1001', undefined, njzsz), 403);
    // A member who is not a manager sees the figures but may not edit.
    const seen = data<DataBudgetStatistics>(await call('GET', '/statistics/dataBudget/blueocean', undefined, viewer));
    expect(seen.canEdit).toBe(false);
    expect(seen.ships.map((s) => s.shipId)).toEqual(expect.arrayContaining(['S1001', 'S2001']));
    expect(data<DataBudgetStatistics>(await call('GET', '/statistics/dataBudget/blueocean')).canEdit).toBe(true);
    // NJZSZ's statistics hold only its own ships.
    expect(data<DataBudgetStatistics>(await call('GET', '/statistics/dataBudget/njzsz', undefined, njzsz)).ships.every((s) => s.orgId === 'njzsz')).toBe(true);
    // Deleting a ship's own budget: it follows its organisation's default (none here) again.
    await setBudget(body);
    data(await call('POST', '/databudget/delete', { orgId: 'blueocean', shipId: 'S1001' }));
    expect((await shipUse('S1001')).source).toBe('none');
    expectError(await call('POST', '/databudget/delete', { orgId: 'blueocean', shipId: 'S1001' }), 404);
  });
});

describe('data budgets on two instances sharing a database', () => {
  it('adds up what each instance’s links counted, and sends a crossing’s notice once', async () => {
    const shared = await freshDatabase('postgres');
    const second = await openDatabase({ url: shared.url });
    const clock = Date.UTC(2026, 10, 30, 10);
    const apps: App[] = [];
    try {
      for (const database of [shared, second]) {
        const app = await buildApp({ seedDemo: true, database, jwtSecret: TEST_JWT_SECRET, budgets: { now: () => clock, flushMs: 3_600_000 } });
        await app.ready();
        apps.push(app);
      }
      const [a, b] = apps as [App, App];
      const sent: string[] = [];
      for (const app of apps) {
        vi.spyOn(app.stomp, 'publish').mockImplementation((destination, body) => {
          if (destination.startsWith('/budget/')) sent.push(body);
          return 0;
        });
      }
      const token = (await logon(a, 'demo')).token;
      const update = await a.inject({ method: 'POST', url: `${CCTV}/databudget/update`, headers: { [TOKEN_HEADER]: token }, payload: { orgId: 'blueocean', shipId: 'S1001', policy: 'block', caps: caps({ dayMb: 1, monthMb: null }) } });
      expect(update.statusCode, update.body).toBe(200);
      // The ship's link was on A, then moved to B: each counts its own link's bytes.
      a.metrics.countLink('S1001', 'up', 'live', 450_000);
      b.metrics.countLink('S1001', 'up', 'live', 450_000);
      await Promise.all([a.flushBudgets(), b.flushBudgets()]);
      const res = await b.inject({ url: `${CCTV}/statistics/dataBudget/blueocean?ships=S1001`, headers: { [TOKEN_HEADER]: (await logon(b, 'duty')).token } });
      expect(res.json<{ data: DataBudgetStatistics }>().data.ships[0]?.use.live.dayBytes).toBe(900_000);
      expect(sent.map((s) => (JSON.parse(s) as BudgetNoticeMessage).level)).toEqual([80]);
      // A flush with nothing new sends nothing again, on either instance.
      a.metrics.countLink('S1001', 'up', 'live', 1);
      b.metrics.countLink('S1001', 'up', 'live', 1);
      await Promise.all([a.flushBudgets(), b.flushBudgets()]);
      expect(sent).toHaveLength(1);
    } finally {
      for (const app of apps) await app.close();
      await second.close();
      await shared.close();
    }
  }, 120_000);
});

describe('data budgets and the continuous-watching limit', () => {
  it('a view paused by the limit is admitted again on continue: a budget used up meanwhile refuses it', async () => {
    const t = await build({ live: { minuteMs: 50 }, budgets: { now: () => Date.UTC(2026, 10, 30, 10), flushMs: 3_600_000 } });
    try {
      const token = (await logon(t.app, 'njzsz')).token;
      const post = async (url: string, payload: object) => {
        const res = await t.app.inject({ method: 'POST', url: `${CCTV}${url}`, headers: { [TOKEN_HEADER]: token }, payload });
        expect(res.statusCode, res.body).toBe(200);
      };
      await post('/playbackautoshutdown/update', { orgId: 'njzsz', enabled: true, minutes: 1, countdownSeconds: 0 });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (t.app.server.address() as AddressInfo).port;
      const ws = new WebSocket(`ws://127.0.0.1:${port}${PATHS.media}?token=${encodeURIComponent(token)}`);
      const got: MediaServerMessage[] = [];
      let waiter: { until: (m: MediaServerMessage) => boolean; resolve: () => void } | undefined;
      ws.on('message', (data, binary) => {
        if (binary) return;
        const m = JSON.parse(String(data)) as MediaServerMessage;
        got.push(m);
        if (waiter?.until(m)) waiter.resolve();
      });
      const next = (until: (m: MediaServerMessage) => boolean) => new Promise<void>((resolve) => (waiter = { until, resolve }));
      await new Promise((resolve) => ws.on('open', resolve));
      const paused = next((m) => m.type === 'status' && m.state === 'limit' && m.countdownSeconds === 0);
      ws.send(JSON.stringify({ type: 'play', mode: 'live', cameraId: 'S3001-C01-1' }));
      await paused;
      await post('/databudget/update', { orgId: 'njzsz', shipId: 'S3001', policy: 'block', caps: caps({ dayMb: 0.1, monthMb: null }) });
      t.app.metrics.countLink('S3001', 'up', 'live', 200_000);
      await t.app.flushBudgets();
      const refused = next((m) => m.type === 'error');
      ws.send(JSON.stringify({ type: 'continue' }));
      await refused;
      expect(got.at(-1)).toMatchObject({ type: 'error', code: 'budgetBlocked' });
      ws.close();
    } finally {
      await t.close();
    }
  });
});
