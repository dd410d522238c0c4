import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LinkReport, type PicturePage, type SnapshotTaskDetail, type SnapshotTaskStatus, TOKEN_HEADER } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { syntheticCameras, LinkShaper } from '@ship-cctv/simulator';
import { testProfile } from '../../../packages/simulator/test/link/helpers.ts';
import { tempDir } from '../../../apps/agent/test/media/helpers.ts';
import { type Shore, signIn, startShore } from './helpers/shore.ts';

/**
 * Snapshot tasks end to end: planned on shore, handed over to a real agent, run on the ship's
 * clock (injected here, so hours pass in seconds) with the link down for part of it, every shot
 * taken once and on shore after; deletion stops the task on the ship; bad input is refused.
 */
const SHIP = 'S1001';
const CHANNEL = 'S1001-C01';
const CAMERA = 'S1001-C01-1';
const report: LinkReport = { linkType: 'FBB', quality: 70, duplex: 'BOTH' };
const link = { current: () => report, onChange: () => () => undefined };
const tmp = tempDir('snapshot-tasks-');
const QUARTER = 15 * 60_000;

describe('snapshot tasks', () => {
  let shore: Shore;
  let shaper: LinkShaper;
  let agent: ShipAgent;
  let demo: string;
  let njzsz: string;
  // The ship's clock: moved by the test.
  const start = Date.now() + 60_000;
  let shipNow = Date.now();

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, token = demo) =>
    shore.app.inject({ method, url, headers: { [TOKEN_HEADER]: token }, ...(payload ? { payload } : {}) });
  const expectError = (res: LightMyRequestResponse, status: number, message?: RegExp) => {
    expect(res.statusCode, res.body).toBe(status);
    if (message) expect(res.json<{ message: string }>().message).toMatch(message);
  };
  const status = async (id: string) => (await call('GET', `/api/v1/cctv-server/v3/getNowTaskStatus/${id}`)).json<{ data: SnapshotTaskStatus }>().data;
  const detail = async (id: string) => (await call('GET', `/api/v1/cctv-server/v3/getTaskDetailStatus/${id}`)).json<{ data: SnapshotTaskDetail }>().data;
  /** Moves the ship's clock to `t` and lets the task take what is due. */
  const shipClockTo = async (t: number) => {
    shipNow = t;
    await agent.pictures.tasks.tick();
  };

  beforeAll(async () => {
    shore = await startShore();
    const key = await shore.app.agentKeys.issue(SHIP);
    demo = await signIn(shore.app);
    njzsz = await signIn(shore.app, 'njzsz');
    shaper = new LinkShaper({ profile: testProfile({ upKbps: 4_000, oneWayDelayMs: 20 }), target: { port: shore.port }, dropAfterMs: 300 });
    await shaper.listen();
    agent = new ShipAgent(
      { shoreUrl: `ws://127.0.0.1:${shaper.port}`, shipId: SHIP, key, cameras: [{ cameraId: CAMERA, source: 'synthetic', name: 'Bridge' }] },
      link,
      { cameraKinds: [syntheticCameras()], minBackoffMs: 100, maxBackoffMs: 300, recorder: { dataDir: join(tmp.dir, 'agent') }, pictures: { now: () => shipNow, taskTickMs: 3_600_000 } },
    );
    agent.start();
    for (const until = Date.now() + 10_000; !shore.app.agents.get(SHIP)?.ready && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
  });
  afterAll(async () => {
    await agent?.stop();
    await shaper?.close();
    await shore?.close();
    tmp.remove();
  });

  it('refuses bad tasks with a clear error: rate, channels, window, foreign channels, another organisation, too many shots', async () => {
    const ok = { shipId: SHIP, channelIds: [CHANNEL], rateHours: 0.25, start, end: start + 3_600_000 };
    const submit = (body: object, token = demo) => call('POST', '/api/v1/cctv-server/v3/submitTask', body, token);
    expectError(await submit({ ...ok, rateHours: 0 }), 400);
    expectError(await submit({ ...ok, rateHours: -1 }), 400);
    expectError(await submit({ ...ok, rateHours: 10_000 }), 400);
    expectError(await submit({ ...ok, rateHours: 0.001 }), 400, /one minute/);
    expectError(await submit({ ...ok, channelIds: [] }), 400);
    expectError(await submit({ ...ok, start: start - 7_200_000, end: start - 3_600_000 }), 400, /over already/);
    expectError(await submit({ ...ok, end: start }), 400, /end after it starts/);
    expectError(await submit({ ...ok, channelIds: ['S1002-C01'] }), 400, /not channels of ship S1001/);
    expectError(await submit({ ...ok, rateHours: 1 / 60, end: start + 360 * 86_400_000, channelIds: ['S1001-C01', 'S1001-C02', 'S1001-C03', 'S1001-C04'] }), 400, /at most 20000/);
    expectError(await submit({ ...ok, templateId: 999 }), 400, /template 999/);
    expectError(await submit(ok, njzsz), 403);
    expectError(await call('GET', '/api/v1/cctv-server/v3/getNowTaskStatus/no-such-task'), 404);
    expectError(await call('GET', '/api/v1/cctv-server/v3/getNowTaskStatus/x'), 400);
  });

  it('hands the task over, and the ship takes every shot once on its own clock, link down or up; all are on shore after', async () => {
    const res = await call('POST', '/api/v1/cctv-server/v3/submitTask', { shipId: SHIP, channelIds: [CHANNEL], rateHours: 0.25, start, end: start + 3 * 3_600_000, templateId: 6 });
    expect(res.statusCode, res.body).toBe(200);
    const task = res.json<{ data: SnapshotTaskStatus }>().data;
    expect(task).toMatchObject({ shipId: SHIP, cameraIds: [CAMERA], rateHours: 0.25, counts: { total: 12, planned: 12 } });
    await expect.poll(async () => (await status(task.id)).state, { timeout: 10_000 }).toBe('active');
    expect(agent.pictures.tasks.tasks.map((t) => t.taskId)).toEqual([task.id]);
    // Another organisation sees nothing of it.
    expectError(await call('GET', `/api/v1/cctv-server/v3/getTaskDetailStatus/${task.id}`, undefined, njzsz), 403);

    // Two shots with the link up.
    await shipClockTo(start + QUARTER);
    await expect.poll(async () => (await status(task.id)).counts.onShore, { timeout: 15_000 }).toBe(2);

    // The link goes down for two hours of the ship's time: it goes on shooting.
    shaper.setOutage(true);
    await expect.poll(() => shore.app.agents.get(SHIP)?.ready ?? false, { timeout: 10_000 }).toBe(false);
    expect((await status(task.id)).state).toBe('linkDown');
    for (let k = 2; k <= 9; k++) await shipClockTo(start + k * QUARTER);
    expect(agent.pictures.tasks.shots(task.id).filter((s) => s.outcome === 'taken')).toHaveLength(10);
    // The eight wait in the outbox (with the last one before the cut, if its acknowledgement was lost with the link).
    expect(agent.pictures.outbox.length).toBeGreaterThanOrEqual(8);
    shaper.setOutage(false);

    // Back: the reports and the pictures come; then the last two shots.
    await expect.poll(async () => (await status(task.id)).counts.onShore, { timeout: 30_000 }).toBe(10);
    for (let k = 10; k <= 12; k++) await shipClockTo(start + k * QUARTER);
    await expect.poll(async () => (await status(task.id)).counts.onShore, { timeout: 15_000 }).toBe(12);
    const d = await detail(task.id);
    expect(d.shots.map((s) => s.state)).toEqual(Array(12).fill('onShore'));
    expect(d.shots.map((s) => s.plannedAt)).toEqual(Array.from({ length: 12 }, (_, k) => start + k * QUARTER));
    // Each shot once: twelve pictures of the task on shore, no more.
    const page = (await call('POST', '/api/v1/cctv/snapshot/complexQuery/1/100', { cameraId: CAMERA, origin: 'task' })).json<{ data: PicturePage }>().data;
    expect(page.pictures.filter((p) => p.taskId === task.id)).toHaveLength(12);
    // Past its window the ship takes nothing more.
    await shipClockTo(start + 14 * QUARTER);
    expect(agent.pictures.tasks.shots(task.id)).toHaveLength(12);
  });

  it('deleting a task stops it on the ship; the pictures it took stay', async () => {
    const res = await call('POST', '/api/v1/cctv-server/v3/submitTask', { shipId: SHIP, channelIds: [CHANNEL], rateHours: 0.5, start: start + 24 * 3_600_000, end: start + 30 * 3_600_000 });
    const task = res.json<{ data: SnapshotTaskStatus }>().data;
    await expect.poll(() => agent.pictures.tasks.tasks.some((t) => t.taskId === task.id), { timeout: 10_000 }).toBe(true);
    await shipClockTo(start + 24 * 3_600_000);
    await expect.poll(async () => (await status(task.id)).counts.onShore, { timeout: 15_000 }).toBe(1);

    const del = await call('DELETE', `/api/v1/cctv-server/v3/delTask/${task.id}`);
    expect(del.json<{ data: SnapshotTaskStatus }>().data.state).toBe('deleted');
    await expect.poll(() => agent.pictures.tasks.tasks.some((t) => t.taskId === task.id), { timeout: 10_000 }).toBe(false);
    await shipClockTo(start + 26 * 3_600_000);
    const taken = agent.pictures.store.list(CAMERA, 0, Number.MAX_SAFE_INTEGER, 1_000).pictures.filter((p) => p.taskId === task.id);
    expect(taken).toHaveLength(1);
    const after = await status(task.id);
    expect(after).toMatchObject({ state: 'deleted', counts: { onShore: 1 } });
    const list = (await call('POST', '/api/v1/cctv-server/v3/getTasks', { shipId: SHIP })).json<{ data: SnapshotTaskStatus[] }>().data;
    expect(list.map((t) => t.id)).toContain(task.id);
  });

  it('a task planned while the ship is out of reach is pending until the link returns, then handed over; one deleted meanwhile never reaches the ship', async () => {
    shaper.setOutage(true);
    await expect.poll(() => shore.app.agents.get(SHIP)?.ready ?? false, { timeout: 10_000 }).toBe(false);
    const submit = (from: number) => call('POST', '/api/v1/cctv-server/v3/submitTask', { shipId: SHIP, channelIds: [CHANNEL], rateHours: 1, start: from, end: from + 3 * 3_600_000 });
    const kept = (await submit(start + 48 * 3_600_000)).json<{ data: SnapshotTaskStatus }>().data;
    const dropped = (await submit(start + 60 * 3_600_000)).json<{ data: SnapshotTaskStatus }>().data;
    expect(kept).toMatchObject({ state: 'pending', handedOverAt: null, counts: { total: 3, planned: 3 } });
    expect((await status(dropped.id)).state).toBe('pending');
    expect((await call('DELETE', `/api/v1/cctv-server/v3/delTask/${dropped.id}`)).json<{ data: SnapshotTaskStatus }>().data.state).toBe('deleted');
    expect(agent.pictures.tasks.tasks.map((t) => t.taskId)).not.toContain(kept.id);

    shaper.setOutage(false);
    await expect.poll(async () => (await status(kept.id)).state, { timeout: 30_000 }).toBe('active');
    expect((await status(kept.id)).handedOverAt).toEqual(expect.any(Number));
    await expect.poll(() => agent.pictures.tasks.tasks.some((t) => t.taskId === kept.id), { timeout: 10_000 }).toBe(true);
    expect(agent.pictures.tasks.tasks.map((t) => t.taskId)).not.toContain(dropped.id);
    expect((await status(dropped.id)).state).toBe('deleted');
  });
});
