import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fmp4Splitter } from '@ship-cctv/media';
import type { Database } from '@ship-cctv/server/db';
import { freshDatabase } from '../../../apps/server/test/helpers/database.ts';
import { type LinkReport, type PictureEvent, type PtzPresetView, type SnapshotAnswer, type SnapshotTaskStatus, TOKEN_HEADER, type VodQueryResult, dest } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { SPEAKER_RATE } from '../../../apps/agent/src/talk/pcm-decoder.ts';
import { tempDir } from '../../../apps/agent/test/media/helpers.ts';
import { MediaClient } from '../../../apps/server/test/helpers/media-client.ts';
import { type Shore, StatusWatcher, signIn, startShore } from './helpers/shore.ts';
import { TalkClient } from './helpers/talk-client.ts';
import { opusPackets } from '../../../apps/agent/test/talk/opus-fixture.ts';
import { syntheticCameras } from '@ship-cctv/simulator';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SHIP = 'S1001';
const SHIP_NAME = '蓝海之星';
const CAMERA = 'S1001-C01-1';
const CHANNEL = 'S1001-C01';
/** A ship of the demo fleet with a PTZ camera and no agent anywhere. */
const OFFLINE_SHIP = 'S1002';
const OFFLINE_CAMERA = 'S1002-C01-1';
const HOUR = 3_600_000;
const report: LinkReport = { linkType: 'FOURTHG', quality: 90, duplex: 'BOTH' };
const tmp = tempDir('link-relay-instances-');

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

/**
 * Two shore instances on one database and the machine's Redis, one real agent on instance A. An
 * operator on B (which does not hold the ship's link) asks the ship's recorder, plays a recording
 * back, steers the PTZ camera, talks and takes a picture: each crosses to A, which holds the link,
 * and back. A ship that no instance holds is offline at once.
 */
describe('commands and ship-end playback through the owner', () => {
  let database: Database;
  let a: Shore;
  let b: Shore;
  let agent: ShipAgent;
  let token: string;
  let watcher: StatusWatcher;
  const clients: { close(): unknown }[] = [];
  const heard: Int16Array[] = [];
  const redisPrefix = `shipcctv-test-${randomBytes(4).toString('hex')}:`;
  const call = (shore: Shore, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    shore.app.inject({ method, url, headers: { [TOKEN_HEADER]: token }, ...(payload ? { payload } : {}) });
  const relayed = (shore: Shore) => shore.app.linkRelay?.counts;
  let spans: VodQueryResult['spans'] = [];
  let key: string;
  const startAgent = () => {
    const started = new ShipAgent(
      { shoreUrl: a.url, shipId: SHIP, key, cameras: [{ cameraId: CAMERA, source: 'synthetic', name: 'Bridge', ptz: {} }] },
      { current: () => report, onChange: () => () => undefined },
      { cameraKinds: [syntheticCameras()],
        minBackoffMs: 200,
        maxBackoffMs: 500,
        recorder: { dataDir: join(tmp.dir, 'agent') },
        talk: { speaker: { play: (cameraId, pcm) => cameraId === CAMERA && heard.push(pcm) } },
      },
    );
    started.start();
    return started;
  };

  beforeAll(async () => {
    database = await freshDatabase('pglite', { seeded: true });
    // The PTZ case times 100 moves of one operator back to back (a measurement, not a use): the
    // per-operator PTZ limit would answer most of them 429, so these shores allow that many.
    const opts = { database, redisUrl: REDIS_URL, redisPrefix, shipWorkLimits: { ptz: { userBurst: 1_000, shipBurst: 1_000 } } };
    a = await startShore(opts);
    b = await startShore(opts);
    key = await a.app.agentKeys.issue(SHIP);
    agent = startAgent();
    token = await signIn(b.app);
    watcher = await StatusWatcher.connect(b.port, token);
    watcher.subscribe(dest.pictures(SHIP_NAME));
    const deadline = Date.now() + 20_000;
    while ((await b.app.ownership.ownerOf(SHIP))?.instanceId !== a.app.ownership.instanceId) {
      if (Date.now() > deadline) throw new Error('instance A did not come to own the ship');
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await watcher?.close();
    await agent?.stop();
    await a?.close();
    await b?.close();
    await database?.close();
    tmp.remove();
  });

  it("a vod query on the non-owner is answered by the ship's recorder through the owner", async () => {
    expect(b.app.agents.get(SHIP)).toBeUndefined();
    expect(a.app.agents.get(SHIP)?.capabilities.has('ptz')).toBe(true);
    const now = Date.now();
    const res = await call(b, 'GET', `/cctvv3-server/v3/vod/query/${SHIP}/${CAMERA}/${now - 48 * HOUR}/${now}`);
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json<{ data: VodQueryResult }>().data;
    expect(result.cached).toBe(false);
    // The demo history: a gap a day, so two or three spans.
    expect(result.spans.length).toBeGreaterThanOrEqual(2);
    spans = result.spans;
    expect(b.app.vod.queriesSent).toBe(1);
    expect(a.app.vod.queriesSent).toBe(0);
    // The request is done on both sides.
    await expect.poll(() => relayed(a)).toEqual({ requested: 0, served: 0 });
    expect(relayed(b)).toEqual({ requested: 0, served: 0 });
  });

  it('ship-end playback on the non-owner plays to its end, and a stopped one closes the relayed stream at the owner', async () => {
    const span = spans.find((s) => s.end - s.start > 10 * 60_000);
    if (!span) throw new Error('no recorded span of 10 minutes');
    const start = span.start + 60_000;
    const c = await MediaClient.open(b.port, token);
    clients.push(c);
    // 3 s at 16×.
    c.send({ type: 'play', mode: 'shipPlayback', cameraId: CAMERA, start, end: start + 48_000, speed: 16 });
    await c.until((x) => x.event('status', (e) => e.state === 'playing') !== undefined, 20_000, 'playing on B');
    expect(relayed(a)).toEqual({ requested: 0, served: 1 });
    expect(relayed(b)).toEqual({ requested: 1, served: 0 });
    await c.until((x) => x.event('status', (e) => e.state === 'ended') !== undefined, 20_000, 'ended on B');
    expect(c.event('codec')).toMatchObject({ width: expect.any(Number) as number });
    const units = new Fmp4Splitter().push(Buffer.concat(c.chunks));
    expect(units[0]?.kind).toBe('init');
    // 16×: 3 keyframes a played second.
    expect(units.filter((u) => u.kind === 'fragment').length).toBeGreaterThanOrEqual(8);
    await expect.poll(() => relayed(a)).toEqual({ requested: 0, served: 0 });
    expect(relayed(b)).toEqual({ requested: 0, served: 0 });

    // A long one, stopped by the viewer while it plays: the ship stops, the owner's stream is closed.
    const d = await MediaClient.open(b.port, token);
    clients.push(d);
    d.send({ type: 'play', mode: 'shipPlayback', cameraId: CAMERA, start, end: span.end, speed: 1 });
    await d.until((x) => x.chunks.length > 5, 20_000, 'bytes on B');
    expect(agent.playback.activeStreamIds).toHaveLength(1);
    d.send({ type: 'stop' });
    await expect.poll(() => relayed(a)).toEqual({ requested: 0, served: 0 });
    expect(relayed(b)).toEqual({ requested: 0, served: 0 });
    await expect.poll(() => agent.playback.activeStreamIds, { timeout: 10_000 }).toHaveLength(0);
  }, 60_000);

  it('PTZ on the non-owner: a move, a preset set and listed; and the added time of a command through the owner', async () => {
    const move = (shore: Shore) => call(shore, 'POST', `/api/v1/cctv/ptz/${SHIP}/${CAMERA}/move`, { pan: 0.5, tilt: 0, zoom: 0, timeoutMs: 500 });
    const moved = await move(b);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<{ data: { by: string } }>().data.by).toBe('Demo Operator');
    const set = await call(b, 'POST', `/api/v1/cctv/ptz/${SHIP}/${CAMERA}/presets`, { name: 'Relay' });
    expect(set.statusCode, set.body).toBe(200);
    const list = await call(b, 'GET', `/api/v1/cctv/ptz/${SHIP}/${CAMERA}/presets`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json<{ data: PtzPresetView[] }>().data.map((p) => p.name)).toContain('Relay');

    // Loopback: the same command on the owner and through it, alternately, 50 of each.
    const times = { a: [] as number[], b: [] as number[] };
    for (let i = 0; i < 50; i++) {
      for (const [name, shore] of [['a', a], ['b', b]] as const) {
        const t0 = performance.now();
        const res = await move(shore);
        times[name].push(performance.now() - t0);
        expect(res.statusCode).toBe(200);
      }
    }
    const added = median(times.b) - median(times.a);
    console.log(`[link relay] PTZ move: median ${median(times.a).toFixed(2)} ms on the owner, ${median(times.b).toFixed(2)} ms through it (+${added.toFixed(2)} ms)`);
    expect(added).toBeLessThan(50);
    await expect.poll(() => relayed(a)).toEqual({ requested: 0, served: 0 });
  }, 60_000);

  it("talkback from the non-owner reaches the ship's speaker and file, and ends cleanly", async () => {
    const packets = await opusPackets(2);
    const talk = await TalkClient.open(b.port, token);
    clients.push({ close: () => talk.terminate() });
    talk.start(CAMERA);
    expect((await talk.waitFor('talk.started')).talker).toBe('Demo Operator');
    for (let i = 0; i < packets.length; i += 3) talk.sendPackets(packets.slice(i, i + 3));
    await expect.poll(() => heard.reduce((n, p) => n + p.length, 0), { timeout: 10_000 }).toBeGreaterThan(1.5 * SPEAKER_RATE);
    expect(relayed(a)).toEqual({ requested: 0, served: 1 });
    const ended = new Promise<{ file: string | undefined; seconds: number }>((resolve) => agent.talk.once('ended', resolve));
    talk.stop();
    expect((await talk.waitFor('talk.ended')).reason).toBe('stopped');
    const done = await ended;
    // Every packet arrived, in order: the talk lasts exactly what was sent.
    expect(done.seconds).toBeCloseTo((packets.length * 60) / 1000, 3);
    expect(done.file && existsSync(done.file)).toBe(true);
    await expect.poll(() => relayed(a)).toEqual({ requested: 0, served: 0 });
  }, 30_000);

  it('a snapshot asked on the non-owner is taken on the ship and stored', async () => {
    const res = await call(b, 'POST', `/cctvv3-server/v3/snapshot/requestPro/${SHIP}/${CHANNEL}/${CAMERA}/720/live`);
    expect(res.statusCode, res.body).toBe(200);
    const { pictureId } = res.json<{ data: SnapshotAnswer }>().data;
    const taken = await watcher.waitFor<PictureEvent>(dest.pictures(SHIP_NAME), (e) => e.pictureId === pictureId && e.event === 'taken', 20_000);
    expect(taken.total).toBeGreaterThan(5_000);
    // The picture's bytes come up the link the ship pushes them on, to the owner, which stores and indexes it.
    await watcher.waitFor<PictureEvent>(dest.pictures(SHIP_NAME), (e) => e.pictureId === pictureId && e.event === 'stored', 20_000);
    expect(await b.app.pictures.index.get(pictureId)).toMatchObject({ shipId: SHIP, cameraId: CAMERA });
    await expect.poll(() => relayed(a)).toEqual({ requested: 0, served: 0 });
  }, 30_000);

  it('a snapshot task submitted on the non-owner is handed to the ship at once, and shows active there', async () => {
    const start = Date.now() + 3_600_000;
    const res = await call(b, 'POST', '/api/v1/cctv-server/v3/submitTask', { shipId: SHIP, channelIds: [CHANNEL], rateHours: 1, start, end: start + 3 * HOUR, templateId: 6 });
    expect(res.statusCode, res.body).toBe(200);
    const task = res.json<{ data: SnapshotTaskStatus }>().data;
    // B has no inbox of the ship: A, which holds the link, is asked to hand the tasks over.
    await expect.poll(() => agent.pictures.tasks.tasks.map((t) => t.taskId), { timeout: 5_000 }).toContain(task.id);
    const state = async (shore: Shore) => (await call(shore, 'GET', `/api/v1/cctv-server/v3/getNowTaskStatus/${task.id}`)).json<{ data: SnapshotTaskStatus }>().data.state;
    await expect.poll(() => state(b), { timeout: 5_000 }).toBe('active');
    expect(await state(a)).toBe('active');
    const removed = await call(b, 'DELETE', `/api/v1/cctv-server/v3/delTask/${task.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    await expect.poll(() => agent.pictures.tasks.tasks.map((t) => t.taskId), { timeout: 5_000 }).not.toContain(task.id);
  });

  it("a camera's event settings changed on the non-owner reach the ship at once", async () => {
    const settings = { enabled: true, schedule: { kind: 'always' }, classes: ['person', 'boat'], minScore: 0.73, sensitivity: 35, zones: [], masks: [] };
    const res = await b.app.inject({ method: 'PUT', url: `/api/v1/cctv/events/settings/camera/${CAMERA}`, headers: { [TOKEN_HEADER]: token }, payload: settings });
    expect(res.statusCode, res.body).toBe(200);
    // B has no inbox of the ship: A, which holds the link, is asked to send the settings.
    await expect.poll(() => agent.eventOutbox.settingsOf(CAMERA), { timeout: 5_000 }).toEqual(settings);
  });

  it("the ship's link drops mid-playback: the viewer on the non-owner sees offline, and resumes from its position when the ship is back", async () => {
    const span = spans.find((s) => s.end - s.start > 10 * 60_000);
    if (!span) throw new Error('no recorded span of 10 minutes');
    const start = span.start + 60_000;
    const c = await MediaClient.open(b.port, token);
    clients.push(c);
    c.send({ type: 'play', mode: 'shipPlayback', cameraId: CAMERA, start, end: span.end, speed: 4 });
    await c.until((x) => x.events.filter((e) => e.type === 'position').length >= 2, 20_000, 'two positions on B');
    await agent.stop();
    await c.until((x) => x.event('status', (e) => e.state === 'offline') !== undefined, 10_000, 'offline on B');
    const shown = [...c.events].reverse().find((e) => e.type === 'position');
    expect(shown?.type === 'position' && shown.time).toBeGreaterThan(start);
    await expect.poll(() => relayed(a)).toEqual({ requested: 0, served: 0 });

    c.order.length = 0;
    const mark = c.events.length;
    const news: string[] = [];
    b.app.linkRelay?.events.on('online', (shipId) => news.push(shipId));
    agent = startAgent();
    // The owner's news that the ship is back reaches B, whose run asks the ship again through the owner.
    await c.until((x) => x.order.includes('binary:ftyp') && x.order.filter((o) => o === 'binary:moof').length > 3, 30_000, 'a new init and fragments on B');
    expect(c.order.indexOf('codec')).toBeLessThan(c.order.indexOf('binary:ftyp'));
    expect(relayed(a)).toEqual({ requested: 0, served: 1 });
    expect(news).toEqual([SHIP]);
    // From where it was when the link dropped (the ship starts at that time; positions go on from there).
    await c.until((x) => x.events.slice(mark).some((e) => e.type === 'position'), 10_000, 'a position after the resume');
    const first = c.events.slice(mark).find((e) => e.type === 'position');
    expect(first?.type === 'position' && shown?.type === 'position' && first.time >= shown.time).toBe(true);
    c.send({ type: 'stop' });
    await expect.poll(() => relayed(a)).toEqual({ requested: 0, served: 0 });
  }, 60_000);

  it('a ship that no instance holds fails at once with offline, as it does on one instance', async () => {
    const t0 = performance.now();
    const res = await call(b, 'POST', `/api/v1/cctv/ptz/${OFFLINE_SHIP}/${OFFLINE_CAMERA}/move`, { pan: 0.5, tilt: 0, zoom: 0 });
    const ms = performance.now() - t0;
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 503, reason: 'offline', data: null });
    expect(ms).toBeLessThan(500);
    const now = Date.now();
    const vod = await call(b, 'GET', `/cctvv3-server/v3/vod/query/${OFFLINE_SHIP}/${OFFLINE_CAMERA}/${now - HOUR}/${now}`);
    expect(vod.statusCode).toBe(503);
    expect(vod.json()).toMatchObject({ code: 503, reason: 'offline', data: null });
    expect(vod.body).toContain('the ship is offline');
    expect(relayed(b)).toEqual({ requested: 0, served: 0 });
  });
});
