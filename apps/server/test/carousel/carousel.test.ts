import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Carousel, type CarouselDetail, type CarouselEstimate, type CarouselStatus, TOKEN_HEADER } from '@ship-cctv/protocol';
import { loadAccess } from '../../src/core/orgs/access.ts';
import { type TestApp, build, logon } from '../helpers/build.ts';

/**
 * Carousel configs and tasks through the REST API: simple and task carousels kept per
 * organisation, their channels resolved into cells, bad input refused with nothing saved, the
 * uplink estimate, and a task's pages on the server's (injected) clock.
 */
const BASE = '/api/v1/cctv/carousel';
const S1001 = ['S1001-C01', 'S1001-C02', 'S1001-C03', 'S1001-C04'];
const S1002 = ['S1002-C01', 'S1002-C02'];
const MIN = 60_000;

describe('carousels', () => {
  let t: TestApp;
  let demo: string;
  let njzsz: string;
  let clock = Date.UTC(2026, 10, 23, 8);

  const call = (method: 'GET' | 'POST', url: string, payload?: object, token = demo) =>
    t.app.inject({ method, url: `${BASE}${url}`, headers: { [TOKEN_HEADER]: token }, ...(payload ? { payload } : {}) });
  const data = <T>(res: LightMyRequestResponse): T => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: T }>().data;
  };
  const expectError = (res: LightMyRequestResponse, status: number, message?: RegExp) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json<{ code: number }>().code).toBe(status);
    if (message) expect(res.json<{ message: string }>().message).toMatch(message);
  };
  const simple = { name: 'Bridges', orgId: 'blueocean', layout: 4, minutes: 2, channelIds: [...S1001, ...S1002] };
  const task = { ...simple, name: 'Watch', mode: 'channels' };

  beforeAll(async () => {
    t = await build({ carousel: { now: () => clock, secondsAllowed: false, prewarmSeconds: 5 } });
    demo = (await logon(t.app, 'demo')).token;
    njzsz = (await logon(t.app, 'njzsz')).token;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('keeps a simple carousel: its channels in order as cells, listed for its organisation only, updated in place', async () => {
    const made = data<Carousel>(await call('POST', '/add1', simple));
    expect(made).toMatchObject({ kind: 'simple', name: 'Bridges', orgId: 'blueocean', orgName: 'Blue Ocean Shipping', layout: 4, minutes: 2, seconds: null, dwellMs: 2 * MIN, running: false, channelIds: [...S1001, ...S1002] });
    const detail = data<CarouselDetail>(await call('GET', `/info1/${made.id}`));
    expect(detail.cells.map((c) => c.channelId)).toEqual([...S1001, ...S1002]);
    expect(detail.cells[0]).toMatchObject({ cameraId: 'S1001-C01-1', shipId: 'S1001', shipDisplayName: 'BLUE OCEAN STAR 蓝海之星', online: false, waitTime: 8 });
    expect(detail.prewarmSeconds).toBe(5);
    // A simple carousel is not a task.
    expectError(await call('GET', `/info2/${made.id}`), 404);
    expectError(await call('GET', `/task/start/${made.id}`), 400, /runs in the browser/);

    expect(data<Carousel[]>(await call('GET', '/simple/list?orgId=blueocean')).map((c) => c.id)).toContain(made.id);
    expect(data<Carousel[]>(await call('GET', '/task/list?orgId=blueocean')).map((c) => c.id)).not.toContain(made.id);
    expect(data<Carousel[]>(await call('GET', '/simple/list', undefined, njzsz))).toEqual([]);
    expectError(await call('GET', `/info1/${made.id}`, undefined, njzsz), 403);
    expectError(await call('GET', '/simple/list?orgId=blueocean', undefined, njzsz), 403);

    const updated = data<Carousel>(await call('POST', '/add1', { ...simple, id: made.id, name: 'Bows', channelIds: ['S1001-C03'], layout: 1 }));
    expect(updated).toMatchObject({ id: made.id, name: 'Bows', layout: 1, channelIds: ['S1001-C03'] });
    expect(data<Carousel[]>(await call('GET', '/simple/list?orgId=blueocean')).filter((c) => c.id === made.id)).toHaveLength(1);
    expect(data<Carousel>(await call('GET', `/del/${made.id}`)).id).toBe(made.id);
    expectError(await call('GET', `/info1/${made.id}`), 404);
  });

  it('a task by ship or by organisation shows every visible channel those hold now (sub-organisations included)', async () => {
    const byShips = data<Carousel>(await call('POST', '/add2', { ...task, mode: 'ships', shipIds: ['S1002', 'S1001'], channelIds: [] }));
    const cells = data<CarouselDetail>(await call('GET', `/info2/${byShips.id}`)).cells;
    // In the order of the ships chosen; S1001's hidden Crew Mess (block 1) is left out.
    expect(cells.map((c) => c.channelId)).toEqual(['S1002-C01', 'S1002-C02', 'S1002-C03', ...S1001]);
    const byOrg = data<Carousel>(await call('POST', '/add2', { ...task, mode: 'organisation', channelIds: [] }));
    const all = data<CarouselDetail>(await call('GET', `/info2/${byOrg.id}`)).cells;
    expect(new Set(all.map((c) => c.shipId))).toEqual(new Set(['S1001', 'S1002', 'S1003', 'S2001', 'S2002']));
    expect(all.some((c) => c.orgId === 'blueocean-tankers')).toBe(true);
  });

  it('refuses bad input with a clear error, and saves nothing of it', async () => {
    const before = data<Carousel[]>(await call('GET', '/task/list?orgId=blueocean')).length;
    expectError(await call('POST', '/add2', { ...task, channelIds: [] }), 400, /at least one channel/);
    expectError(await call('POST', '/add2', { ...task, mode: 'ships', shipIds: [], channelIds: [] }), 400, /at least one ship/);
    expectError(await call('POST', '/add2', { ...task, minutes: 0 }), 400);
    expectError(await call('POST', '/add2', { ...task, minutes: -3 }), 400);
    expectError(await call('POST', '/add2', { ...task, minutes: 100_000 }), 400);
    expectError(await call('POST', '/add2', { ...task, minutes: 1.5 }), 400);
    expectError(await call('POST', '/add2', { ...task, layout: 6 }), 400);
    expectError(await call('POST', '/add2', { ...task, name: '' }), 400);
    expectError(await call('POST', '/add2', { ...task, name: '   ' }), 400, /needs a name/);
    expectError(await call('POST', '/add2', { ...task, seconds: 20 }), 400, /CAROUSEL_SECONDS=1/);
    expectError(await call('POST', '/add2', { ...task, channelIds: ['S1001-C01', 'S3001-C01'] }), 400, /S3001-C01 are not channels of organisation blueocean/);
    expectError(await call('POST', '/add2', { ...task, channelIds: ['S1001-C05'] }), 400, /S1001-C05/);
    expectError(await call('POST', '/add2', { ...task, mode: 'ships', shipIds: ['S3001'], channelIds: [] }), 400, /S3001 are not ships/);
    expectError(await call('POST', '/add2', { ...task, channelIds: ['S1001-C01', 'S1001-C01'] }), 400);
    expectError(await call('POST', '/add2', { ...task, templateId: 999_999 }), 400, /definition model 999999/);
    expectError(await call('POST', '/add2', { ...task, schedule: { days: [1], start: '08:00', end: '18:00', timeZone: 'Mars/Olympus' } }), 400, /time zone/);
    expectError(await call('POST', '/add2', { ...task, schedule: { days: [8], start: '08:00', end: '18:00', timeZone: 'UTC' } }), 400);
    expectError(await call('POST', '/add2', { ...task, schedule: { days: [1], start: '25:00', end: '18:00', timeZone: 'UTC' } }), 400);
    // Their own organisation's channels are fine for them.
    expect(data<Carousel>(await call('POST', '/add2', { ...task, orgId: 'njzsz', channelIds: ['S3001-C01'] }, njzsz)).orgId).toBe('njzsz');
    expectError(await call('POST', '/add2', { ...task, orgId: 'blueocean' }, njzsz), 403);
    expectError(await call('POST', '/add2', { ...task, id: 'no-such-carousel' }), 404);
    expectError(await call('GET', '/info2/x'), 400);
    expect(data<Carousel[]>(await call('GET', '/task/list?orgId=blueocean'))).toHaveLength(before);
  });

  it('a task turns its pages on the server clock; start twice and stop twice are refused; the status is the same for every caller', async () => {
    const made = data<Carousel>(await call('POST', '/add2', task));
    expect(data<CarouselStatus>(await call('GET', `/task/status/${made.id}`))).toMatchObject({ state: 'stopped', cells: [], switchAt: null });
    expectError(await call('GET', `/task/stop/${made.id}`), 409, /not running/);

    const started = data<CarouselStatus>(await call('GET', `/task/start/${made.id}`));
    expect(started).toMatchObject({ state: 'running', page: 0, pageCount: 2, layout: 4, dwellMs: 2 * MIN, startedAt: clock, switchAt: clock + 2 * MIN, serverTime: clock });
    expect(started.cells.map((c) => c.channelId)).toEqual(S1001);
    expect(started.next.map((c) => c.channelId)).toEqual(S1002);
    expectError(await call('GET', `/task/start/${made.id}`), 409, /running already/);
    expect(data<Carousel[]>(await call('GET', '/task/list?orgId=blueocean')).find((c) => c.id === made.id)?.running).toBe(true);

    clock += 2 * MIN + 1_000;
    const second = data<CarouselStatus>(await call('GET', `/task/status/${made.id}`));
    expect(second).toMatchObject({ state: 'running', page: 1, switchAt: started.startedAt! + 4 * MIN });
    expect(second.cells.map((c) => c.channelId)).toEqual(S1002);
    expect(second.next.map((c) => c.channelId)).toEqual(S1001);
    clock += 2 * MIN;
    expect(data<CarouselStatus>(await call('GET', `/task/status/${made.id}`)).page).toBe(0);

    expect(data<CarouselStatus>(await call('GET', `/task/stop/${made.id}`))).toMatchObject({ state: 'stopped', switchAt: null });
    expectError(await call('GET', `/task/stop/${made.id}`), 409);
    expectError(await call('GET', `/task/status/${made.id}`, undefined, njzsz), 403);
  });

  it('stop all stops every running task of the organisation; deleting a running task stops it', async () => {
    const a = data<Carousel>(await call('POST', '/add2', task));
    const b = data<Carousel>(await call('POST', '/add2', task));
    data(await call('GET', `/task/start/${a.id}`));
    data(await call('GET', `/task/start/${b.id}`));
    expect(data<{ stopped: number }>(await call('GET', '/task/stopAll/blueocean'))).toEqual({ stopped: 2 });
    expect(data<CarouselStatus>(await call('GET', `/task/status/${a.id}`)).state).toBe('stopped');
    data(await call('GET', `/task/start/${a.id}`));
    expect(data<Carousel>(await call('GET', `/del/${a.id}`)).running).toBe(false);
    expect(data<{ stopped: number }>(await call('GET', '/task/stopAll/blueocean'))).toEqual({ stopped: 0 });
    expectError(await call('GET', '/task/stopAll/blueocean', undefined, njzsz), 403);
  });

  it('a started task names its run job before any runner can claim it, so the job claimed at once keeps publishing', async () => {
    const made = data<Carousel>(await call('POST', '/add2', task));
    const runner = t.app.jobs.runner;
    const enqueue = runner.enqueue.bind(runner);
    let claimedAs: string | undefined;
    // The runner claims and runs the job before start() goes on (as a busy machine may order it).
    runner.enqueue = async (job) => {
      const row = await enqueue(job);
      await expect.poll(async () => (await runner.store.get(row!.id))?.state, { timeout: 5_000, interval: 20 }).not.toBe('queued');
      await new Promise((r) => setTimeout(r, 300));
      claimedAs = (await runner.store.get(row!.id))?.state;
      return row;
    };
    try {
      data(await call('GET', `/task/start/${made.id}`));
    } finally {
      runner.enqueue = enqueue;
    }
    // Still running: it found its task pointing at it (a job its task does not name ends at once).
    expect(claimedAs).toBe('running');
    data(await call('GET', `/task/stop/${made.id}`));
  });

  it('estimates the uplink: only the page on screen and a short pre-warm stream, against every channel all the time', async () => {
    const body = { orgId: 'blueocean', mode: 'channels', channelIds: S1001, layout: 1, minutes: 2 };
    const e = data<CarouselEstimate>(await call('POST', '/estimate', body));
    expect(e).toMatchObject({ channels: 4, pageCount: 4, prewarmSeconds: 5 });
    expect(e.alwaysOnBytesPerHour).toBeGreaterThan(0);
    // One channel of four at a time, each for 2 minutes plus 5 s of pre-warm.
    expect(e.bytesPerHour / e.alwaysOnBytesPerHour).toBeCloseTo((120 + 5) / 120 / 4, 6);
    // One page: it streams all the time, no pre-warm.
    const one = data<CarouselEstimate>(await call('POST', '/estimate', { ...body, layout: 4 }));
    expect(one).toMatchObject({ pageCount: 1, prewarmSeconds: 0, bytesPerHour: e.alwaysOnBytesPerHour });
    expectError(await call('POST', '/estimate', { ...body, channelIds: ['S3001-C01'] }), 400);
  });

  it('a carousel’s cells are not held to the continuous-watching limit and do not linger; other views are and do', async () => {
    const made = data<Carousel>(await call('POST', '/add2', task));
    const other = data<Carousel>(await call('POST', '/add2', { ...task, orgId: 'njzsz', channelIds: ['S3001-C01'] }, njzsz));
    const access = await loadAccess(t.app.database.db, 'u-demo');
    const limited = async (cameraId: string, carouselId?: string) => {
      const ticket = await t.app.live.resolve(access, cameraId, undefined, { carouselId });
      // A carousel's cell is a paged view: no limit, and no linger when its page leaves.
      expect(ticket.linger).toBe(ticket.autoShutdown.enabled);
      return ticket.autoShutdown.enabled;
    };
    expect(await limited('S1001-C01-1')).toBe(true);
    expect(await limited('S1001-C01-1', made.id)).toBe(false);
    // A camera the carousel does not show, or a carousel of another organisation's user, keeps the limit.
    expect(await limited('S1003-C01-1', made.id)).toBe(true);
    const njzszAccess = await loadAccess(t.app.database.db, 'u-njzsz');
    expect((await t.app.live.resolve(njzszAccess, 'S3001-C01-1', undefined, { carouselId: made.id })).autoShutdown.enabled).toBe(true);
    expect((await t.app.live.resolve(njzszAccess, 'S3001-C01-1', undefined, { carouselId: other.id })).autoShutdown.enabled).toBe(false);
  });
});
