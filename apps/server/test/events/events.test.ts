/**
 * Events on shore: the ship's outbox arriving over the link (resume across an outage, nothing
 * stored twice, a bad picture rejected), the notice on STOMP /events/{shipName}, the REST API with
 * bad input, another organisation kept out (404), the cameras' settings sent to the ship and its
 * analysis status back, and /metrics counting the bytes under purpose `events`.
 */
import { createHash } from 'node:crypto';
import type { IMessage } from '@stomp/stompjs';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BINARY_KIND,
  type CameraEventSettings,
  type CameraEventSettingsAnswer,
  type DataBudgetStatistics,
  type EventInfo,
  type EventNotice,
  type EventPage,
  PATHS,
  type ShipEvent,
  TOKEN_HEADER,
  dest,
  MESSAGES,
  encodeEventChunk,
  EVENTS_HOLD_CAPABILITY,
} from '@ship-cctv/protocol';
import { RawAgent } from '../agent-link/raw-agent.ts';
import { type TestApp, build, logon, scrapeMetrics } from '../helpers/build.ts';
import { Inbox, connected, observe, stompClient, subscribe } from '../stomp/helpers.ts';

const SHIP = 'S1001';
const SHIP_NAME = '蓝海之星';
const CAMERA = 'S1001-C01-1';

async function jpeg(seed: number): Promise<Buffer> {
  const width = 320;
  const height = 180;
  const raw = Buffer.alloc(width * height * 3);
  let x = seed;
  for (let i = 0; i < raw.length; i++) {
    x = (x * 1_103_515_245 + 12_345) & 0x7fffffff;
    raw[i] = x >> 16;
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 40 }).toBuffer();
}

let serial = 0;
function eventOf(picture: Buffer, over: Partial<ShipEvent> = {}): ShipEvent {
  const start = 1_800_000_000_000 + ++serial * 60_000;
  return {
    eventId: `${CAMERA}-ev-${String(serial).padStart(4, '0')}`,
    cameraId: CAMERA,
    start,
    end: start + 3_000,
    classes: [{ class: 'person', score: 0.87 }],
    zone: 'deck',
    picture: { bytes: picture.length, width: 320, height: 180, sha256: createHash('sha256').update(picture).digest('hex'), time: start + 1_000 },
    recording: { from: start - 5_000, to: start + 8_000 },
    ...over,
  };
}

describe('events on shore', () => {
  let t: TestApp;
  let port: number;
  let key: string;
  let demo: string;
  let njzsz: string;
  let viewer: string;
  let agent: RawAgent | undefined;
  let picture: Buffer;

  const inboxId = () => {
    const inbox = agent?.of('events.inbox').at(-1);
    if (!inbox) throw new Error('no inbox');
    return inbox.streamId;
  };
  const sendChunks = (bytes: Buffer, from: number, to = bytes.length, size = 4_000) => {
    for (let at = from; at < to; at += size) agent?.sendFrame(BINARY_KIND.events, inboxId(), encodeEventChunk(at, bytes.subarray(at, Math.min(to, at + size))));
  };
  const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string = demo, payload?: unknown) =>
    t.app.inject({ method, url, headers: { [TOKEN_HEADER]: token }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const data = <T>(res: LightMyRequestResponse): T => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: T }>().data;
  };
  const expectBad = (res: LightMyRequestResponse, field: RegExp) => {
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(field);
  };
  /** A STOMP client of the user whose token is given. */
  const stompAs = (token: string) => stompClient(`ws://127.0.0.1:${port}${PATHS.stomp}`, { connectHeaders: { [TOKEN_HEADER]: token } });
  /** The user's notices of the ship's events, as they come. */
  const watchNotices = async (token: string) => {
    const client = stompAs(token);
    await connected(client);
    const notices = new Inbox<IMessage>();
    await subscribe(client, dest.events(SHIP_NAME), notices);
    return { client, notices };
  };
  const connect = async () => {
    agent = await RawAgent.connect(port, SHIP, key, { hello: {}, capabilities: ['live', 'events'], asks: ['events'] });
    await agent.until(() => agent!.of('events.inbox').length > 0 && agent!.of('events.settings').length > 0, 'events.inbox and events.settings');
    return agent;
  };
  /** Offers an event, sends its whole picture, and waits for `stored`. */
  const deliver = async (event: ShipEvent, bytes: Buffer) => {
    const a = agent!;
    const before = a.of('events.stored').length;
    const resumes = a.of('events.resume').length;
    a.send({ type: 'events.offer', streamId: inboxId(), event });
    await a.until(() => a.of('events.resume').length > resumes || a.of('events.stored').length > before, 'resume');
    const resume = a.of('events.resume').slice(resumes).find((m) => m.eventId === event.eventId);
    if (resume) sendChunks(bytes, resume.offset);
    await a.until(() => a.of('events.stored').length > before, 'events.stored');
  };

  beforeAll(async () => {
    picture = await jpeg(1);
    t = await build({ events: { budgetRecheckMs: 100 } });
    await t.app.listen({ port: Number(process.env.EVENTS_TEST_PORT ?? 0), host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    port = address.port;
    key = await t.app.agentKeys.issue(SHIP);
    demo = (await logon(t.app, 'demo')).token;
    njzsz = (await logon(t.app, 'njzsz')).token;
    viewer = (await logon(t.app, 'viewer')).token;
  });
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
    await expect.poll(() => t.app.agents.get(SHIP)).toBeUndefined();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores an event offered across an outage once, resuming its picture where it stopped, and tells the ship’s watchers on STOMP', async () => {
    expect(picture.length).toBeGreaterThan(8_000);
    expect(picture.length).toBeLessThanOrEqual(30 * 1024);
    const { client, notices } = await watchNotices(demo);

    const event = eventOf(picture);
    let a = await connect();
    a.send({ type: 'events.offer', streamId: inboxId(), event });
    await a.until(() => a.of('events.resume').length > 0, 'events.resume');
    expect(a.of('events.resume')[0]).toMatchObject({ eventId: event.eventId, offset: 0 });
    const half = Math.floor(picture.length / 2);
    sendChunks(picture, 0, half);
    await expect.poll(() => t.app.events.files.received(SHIP, event.eventId)).toBe(half);
    await a.close();
    await expect.poll(() => t.app.agents.get(SHIP)).toBeUndefined();

    a = await connect();
    a.send({ type: 'events.offer', streamId: inboxId(), event });
    await a.until(() => a.of('events.resume').length > 0, 'events.resume');
    expect(a.of('events.resume')[0]).toMatchObject({ eventId: event.eventId, offset: half });
    sendChunks(picture, half);
    await a.until(() => a.of('events.stored').length > 0, 'events.stored');

    const notice = JSON.parse((await notices.next()).body) as EventNotice;
    expect(notice).toMatchObject({ type: 'event', notify: true, event: { id: event.eventId, shipId: SHIP, shipName: SHIP_NAME, cameraId: CAMERA, start: event.start, zone: 'deck' } });

    // Offered again (its `stored` lost with the link): answered at once, nothing stored twice.
    a.send({ type: 'events.offer', streamId: inboxId(), event });
    await a.until(() => a.of('events.stored').length > 1, 'second events.stored');
    expect(a.of('events.resume')).toHaveLength(1);
    const page = data<EventPage>(await inject('GET', `/api/v1/cctv/events?shipId=${SHIP}`));
    expect(page.events.filter((e) => e.id === event.eventId)).toHaveLength(1);
    expect(data<EventInfo>(await inject('GET', `/api/v1/cctv/events/${event.eventId}`))).toMatchObject({
      id: event.eventId,
      classes: [{ class: 'person', score: 0.87 }],
      pictureWidth: 320,
      pictureHeight: 180,
      recordingFrom: event.recording.from,
      recordingTo: event.recording.to,
    });
    const bytes = await inject('GET', `/api/v1/cctv/events/${event.eventId}/picture`);
    expect(bytes.statusCode).toBe(200);
    expect(bytes.headers['content-type']).toBe('image/jpeg');
    expect(bytes.rawPayload.equals(picture)).toBe(true);

    // The bytes crossed under purpose `events`: the picture once and the frames' headers, no more.
    const counted = new RegExp(`shipcctv_link_bytes_total\\{[^}]*direction="up"[^}]*purpose="events"[^}]*\\} (\\d+)`).exec(await scrapeMetrics(t.app));
    expect(Number(counted?.[1])).toBeGreaterThanOrEqual(picture.length);
    expect(Number(counted?.[1])).toBeLessThan(picture.length + 500);
    // And in the ship's data budget, under a purpose of their own.
    await t.app.flushBudgets();
    const stats = data<DataBudgetStatistics>(await inject('GET', `/api/v1/cctv/statistics/dataBudget/blueocean?ships=${SHIP}`));
    expect(stats.ships.find((s) => s.shipId === SHIP)?.use.events.dayBytes).toBe(Number(counted?.[1]));
    await client.deactivate();
  });

  it('rejects a picture that is not the one offered, and refuses an event of a camera shore does not know', async () => {
    const a = await connect();
    const event = eventOf(picture);
    const wrong = Buffer.from(picture);
    wrong[wrong.length - 100] = (wrong[wrong.length - 100] ?? 0) ^ 0xff;
    a.send({ type: 'events.offer', streamId: inboxId(), event });
    await a.until(() => a.of('events.resume').length > 0, 'events.resume');
    sendChunks(wrong, 0);
    await a.until(() => a.of('events.rejected').length > 0, 'events.rejected');
    expect(a.of('events.rejected')[0]).toMatchObject({ eventId: event.eventId, reason: expect.stringMatching(/checksum/) });
    // Offered again from the first byte, it is taken.
    await deliver(event, picture);
    expect(a.of('events.resume').at(-1)).toMatchObject({ offset: 0 });

    const stranger = eventOf(picture, { cameraId: 'S1002-C01-1' });
    a.send({ type: 'events.offer', streamId: inboxId(), event: stranger });
    await a.until(() => a.of('events.refused').length > 0, 'events.refused');
    expect((await inject('GET', `/api/v1/cctv/events/${stranger.eventId}`)).statusCode).toBe(404);
  });

  it('holds an offered event while the ship’s events budget is used up, and takes it once the budget allows', async () => {
    const setBudget = async (eventsCap: { dayMb: number }) =>
      data(await inject('POST', '/api/v1/cctv/databudget/update', demo, { orgId: 'blueocean', shipId: SHIP, policy: 'lowest', caps: { live: {}, playback: {}, pictures: {}, events: eventsCap } }));
    // A cap of 1,000 bytes a day and 2,000 counted under `events`: used up.
    await setBudget({ dayMb: 0.001 });
    t.app.metrics.countLink(SHIP, 'up', 'events', 2_000);
    await t.app.flushBudgets();
    try {
      agent = await RawAgent.connect(port, SHIP, key, { hello: {}, capabilities: ['live', 'events', EVENTS_HOLD_CAPABILITY], asks: ['events'] });
      const a = agent;
      await a.until(() => a.of('events.inbox').length > 0, 'events.inbox');
      const event = eventOf(picture);
      a.send({ type: 'events.offer', streamId: inboxId(), event });
      await a.until(() => a.of('events.held').length > 0, 'events.held');
      expect(a.of('events.held')[0]).toMatchObject({ eventId: event.eventId, reason: expect.stringMatching(/budget/) });
      // Several rechecks (every 100 ms here) later it still waits: no bytes asked for, nothing stored.
      await new Promise((r) => setTimeout(r, 600));
      expect(a.of('events.resume')).toHaveLength(0);
      expect((await inject('GET', `/api/v1/cctv/events/${event.eventId}`)).statusCode).toBe(404);
      // A larger cap: shore asks for the picture on its own, and stores the event once.
      await setBudget({ dayMb: 100 });
      await a.until(() => a.of('events.resume').length > 0, 'events.resume');
      expect(a.of('events.resume')[0]).toMatchObject({ eventId: event.eventId, offset: 0 });
      sendChunks(picture, 0);
      await a.until(() => a.of('events.stored').some((m) => m.eventId === event.eventId), 'events.stored');
      expect(data<EventInfo>(await inject('GET', `/api/v1/cctv/events/${event.eventId}`)).id).toBe(event.eventId);
    } finally {
      data(await inject('POST', '/api/v1/cctv/databudget/delete', demo, { orgId: 'blueocean', shipId: SHIP }));
    }
  });

  it('lists with filters, acknowledges once, counts the unacknowledged, and lets a manager delete', async () => {
    await connect();
    const boat = eventOf(picture, { classes: [{ class: 'boat', score: 0.6 }], zone: 'sea' });
    const person = eventOf(picture);
    await deliver(boat, picture);
    await deliver(person, picture);

    const boats = data<EventPage>(await inject('GET', `/api/v1/cctv/events?class=boat&cameraId=${CAMERA}`));
    expect(boats.events.map((e) => e.id)).toEqual([boat.eventId]);
    const window = data<EventPage>(await inject('GET', `/api/v1/cctv/events?from=${person.start}&to=${person.start + 1}&size=1&page=1`));
    expect(window).toMatchObject({ page: 1, size: 1, total: 1, events: [{ id: person.eventId }] });

    const first = data<EventInfo>(await inject('POST', `/api/v1/cctv/events/${boat.eventId}/acknowledge`, demo));
    expect(first).toMatchObject({ acknowledgedBy: 'demo' });
    const again = data<EventInfo>(await inject('POST', `/api/v1/cctv/events/${boat.eventId}/acknowledge`, viewer));
    expect(again).toMatchObject({ acknowledgedBy: 'demo', acknowledgedAt: first.acknowledgedAt });
    expect(data<EventPage>(await inject('GET', `/api/v1/cctv/events?acknowledged=true`)).events.map((e) => e.id)).toContain(boat.eventId);
    expect(data<EventPage>(await inject('GET', `/api/v1/cctv/events?acknowledged=false`)).events.map((e) => e.id)).not.toContain(boat.eventId);

    const unacked = data<{ ships: { shipId: string; count: number }[] }>(await inject('GET', '/api/v1/cctv/events/unacknowledged'));
    const before = unacked.ships.find((s) => s.shipId === SHIP)?.count ?? 0;
    expect(before).toBeGreaterThanOrEqual(1);
    expect(data<{ acknowledged: number }>(await inject('POST', '/api/v1/cctv/events/acknowledge', demo, { ids: [boat.eventId, person.eventId] }))).toEqual({ acknowledged: 1 });
    const after = data<{ ships: { shipId: string; count: number }[] }>(await inject('GET', '/api/v1/cctv/events/unacknowledged'));
    expect(after.ships.find((s) => s.shipId === SHIP)?.count ?? 0).toBe(before - 1);

    expect((await inject('DELETE', `/api/v1/cctv/events/${person.eventId}`, viewer)).statusCode).toBe(403);
    expect(data<{ deleted: boolean }>(await inject('DELETE', `/api/v1/cctv/events/${person.eventId}`, demo))).toEqual({ deleted: true });
    expect((await inject('GET', `/api/v1/cctv/events/${person.eventId}`)).statusCode).toBe(404);
    expect((await inject('GET', `/api/v1/cctv/events/${person.eventId}/picture`)).statusCode).toBe(404);
  });

  it('removes events past their retention with their pictures, and keeps the others', async () => {
    await connect();
    const old = eventOf(picture, { start: Date.UTC(2020, 0, 1), end: Date.UTC(2020, 0, 1) + 3_000, recording: { from: Date.UTC(2020, 0, 1), to: Date.UTC(2020, 0, 1) + 9_000 } });
    const recent = eventOf(picture);
    await deliver(old, picture);
    await deliver(recent, picture);
    expect(await t.app.events.sweep(Date.UTC(2021, 0, 1))).toBe(1);
    expect((await inject('GET', `/api/v1/cctv/events/${old.eventId}`)).statusCode).toBe(404);
    expect((await inject('GET', `/api/v1/cctv/events/${recent.eventId}/picture`)).statusCode).toBe(200);
  });

  it('keeps another organisation out: it cannot list, read, acknowledge, delete or subscribe (404, as for no event)', async () => {
    await connect();
    const event = eventOf(picture);
    await deliver(event, picture);
    expect(data<EventPage>(await inject('GET', `/api/v1/cctv/events?shipId=${SHIP}`, njzsz))).toMatchObject({ total: 0, events: [] });
    expect(data<EventPage>(await inject('GET', '/api/v1/cctv/events', njzsz)).events.some((e) => e.shipId === SHIP)).toBe(false);
    for (const [method, url] of [
      ['GET', `/api/v1/cctv/events/${event.eventId}`],
      ['GET', `/api/v1/cctv/events/${event.eventId}/picture`],
      ['POST', `/api/v1/cctv/events/${event.eventId}/acknowledge`],
      ['DELETE', `/api/v1/cctv/events/${event.eventId}`],
      ['GET', `/api/v1/cctv/events/settings/camera/${CAMERA}`],
      ['GET', '/api/v1/cctv/events/settings/org/blueocean'],
    ] as const) {
      const res = await inject(method, url, njzsz);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(data<{ acknowledged: number }>(await inject('POST', '/api/v1/cctv/events/acknowledge', njzsz, { ids: [event.eventId] }))).toEqual({ acknowledged: 0 });
    expect(data<{ ships: unknown[] }>(await inject('GET', '/api/v1/cctv/events/unacknowledged', njzsz)).ships).toEqual([]);
    expect(data<EventInfo>(await inject('GET', `/api/v1/cctv/events/${event.eventId}`))).not.toHaveProperty('acknowledgedBy');

    const client = stompAs(njzsz);
    const seen = observe(client);
    await seen.connected;
    client.subscribe(dest.events(SHIP_NAME), () => undefined, { receipt: 'r-events' });
    expect((await seen.errors.next()).headers.message).toBe(MESSAGES.forbidden);
    await client.deactivate();
  });

  it('takes a later record of an event it holds: a later end and span and more classes, its picture kept, told on STOMP without a second toast', async () => {
    const { client, notices } = await watchNotices(demo);
    await connect();
    const event = eventOf(picture);
    await deliver(event, picture);
    expect(JSON.parse((await notices.next()).body)).toMatchObject({ type: 'event', event: { id: event.eventId } });
    const resumes = agent!.of('events.resume').length;
    const later: ShipEvent = { ...event, end: event.end + 20_000, classes: [{ class: 'boat', score: 0.6 }, { class: 'person', score: 0.5 }], recording: { ...event.recording, to: event.recording.to + 20_000 } };
    await deliver(later, picture);
    // Answered `stored` at once: no picture asked for again.
    expect(agent!.of('events.resume').length).toBe(resumes);
    const info = data<EventInfo>(await inject('GET', `/api/v1/cctv/events/${event.eventId}`));
    expect(info).toMatchObject({ start: event.start, end: later.end, recordingTo: later.recording.to });
    // Classes merged, each with its best score: the person's 0.87 stays.
    expect(info.classes).toEqual([{ class: 'person', score: 0.87 }, { class: 'boat', score: 0.6 }]);
    expect(data<EventPage>(await inject('GET', `/api/v1/cctv/events?class=boat&shipId=${SHIP}`)).events.map((e) => e.id)).toContain(event.eventId);
    const notice = JSON.parse((await notices.next()).body) as EventNotice;
    expect(notice).toMatchObject({ type: 'updated', event: { id: event.eventId, end: later.end } });
    // An older record offered again (a lost acknowledgement) moves nothing back, and is not told.
    await deliver(event, picture);
    expect(data<EventInfo>(await inject('GET', `/api/v1/cctv/events/${event.eventId}`))).toMatchObject({ end: later.end, recordingTo: later.recording.to });
    const res = await inject('GET', `/api/v1/cctv/events/${event.eventId}/picture`);
    expect(createHash('sha256').update(res.rawPayload).digest('hex')).toBe(event.picture.sha256);
    await client.deactivate();
    expect(notices.size).toBe(0);
  });

  it('keeps an organisation’s events to its managers when its rule says so: operators cannot list, read, acknowledge or hear of them', async () => {
    const org = '/api/v1/cctv/events/settings/org/blueocean';
    const listed = async (token: string) => data<EventPage>(await inject('GET', `/api/v1/cctv/events?shipId=${SHIP}&size=100`, token)).events.map((e) => e.id);
    // The operator subscribes while everyone sees the events, and hears of the first.
    const { client, notices: heard } = await watchNotices(viewer);
    await connect();
    const before = eventOf(picture);
    await deliver(before, picture);
    expect(JSON.parse((await heard.next()).body)).toMatchObject({ type: 'event', event: { id: before.eventId } });
    expect(await listed(viewer)).toContain(before.eventId);
    try {
      // The operator cannot change the rule; the manager keeps events to managers.
      expect((await inject('PUT', org, viewer, { notifyClasses: ['person'], seenBy: 'managers' })).statusCode).toBe(403);
      expectBad(await inject('PUT', org, demo, { notifyClasses: ['person'], seenBy: 'crew' }), /seenBy/);
      expect(data(await inject('PUT', org, demo, { notifyClasses: ['person'], seenBy: 'managers' }))).toMatchObject({ seenBy: 'managers' });
      // A sub-organisation follows the rule above it.
      expect(data(await inject('GET', '/api/v1/cctv/events/settings/org/blueocean-tankers'))).toMatchObject({ seenBy: 'managers' });
      const after = eventOf(picture);
      await deliver(after, picture);
      // The manager sees both; the operator neither (404, as for no event), nor hears of the new one.
      expect(await listed(demo)).toEqual(expect.arrayContaining([before.eventId, after.eventId]));
      expect(await listed(viewer)).toEqual([]);
      for (const [method, url] of [
        ['GET', `/api/v1/cctv/events/${after.eventId}`],
        ['GET', `/api/v1/cctv/events/${after.eventId}/picture`],
        ['POST', `/api/v1/cctv/events/${after.eventId}/acknowledge`],
      ] as const) {
        expect((await inject(method, url, viewer)).statusCode, `${method} ${url}`).toBe(404);
      }
      expect(data<{ acknowledged: number }>(await inject('POST', '/api/v1/cctv/events/acknowledge', viewer, { ids: [after.eventId] }))).toEqual({ acknowledged: 0 });
      expect(data<{ ships: { shipId: string }[] }>(await inject('GET', '/api/v1/cctv/events/unacknowledged', viewer)).ships.some((x) => x.shipId === SHIP)).toBe(false);
      expect(data<{ ships: { shipId: string }[] }>(await inject('GET', '/api/v1/cctv/events/unacknowledged', demo)).ships.some((x) => x.shipId === SHIP)).toBe(true);
      // Its subscription made before the change was ended: the manager's acknowledgement is not heard either.
      data(await inject('POST', `/api/v1/cctv/events/${after.eventId}/acknowledge`, demo));
      const { client: managerHears, notices: managerInbox } = await watchNotices(demo);
      const last = eventOf(picture);
      await deliver(last, picture);
      expect(JSON.parse((await managerInbox.next()).body)).toMatchObject({ type: 'event', event: { id: last.eventId } });
      expect(heard.size).toBe(0);
      await managerHears.deactivate();
      // A new subscription of the operator is refused.
      const again = stompAs(viewer);
      const seen = observe(again);
      await seen.connected;
      again.subscribe(dest.events(SHIP_NAME), () => undefined, { receipt: 'r-events-operator' });
      expect((await seen.errors.next()).headers.message).toBe(MESSAGES.forbidden);
      await again.deactivate();
    } finally {
      data(await inject('PUT', org, demo, { notifyClasses: ['person', 'boat'] }));
      await client.deactivate();
    }
    // Everyone again: the operator lists them.
    expect(await listed(viewer)).toContain(before.eventId);
  });

  it('refuses bad input naming the field, keeps a camera’s settings, sends them to the ship, and shows its analysis status', async () => {
    const a = await connect();
    const good: CameraEventSettings = {
      enabled: true,
      schedule: { kind: 'daily', timeZone: 'Asia/Shanghai', from: '18:00', to: '06:00' },
      classes: ['person'],
      minScore: 0.6,
      sensitivity: 70,
      zones: [{ name: 'gangway', polygon: [[0.1, 0.1], [0.5, 0.1], [0.5, 0.6]] }],
      masks: [],
    };
    const url = `/api/v1/cctv/events/settings/camera/${CAMERA}`;
    expectBad(await inject('PUT', url, demo, { ...good, zones: [{ name: 'gangway', polygon: [[0.1, 0.1], [1.5, 0.1], [0.5, 0.6]] }] }), /zones\/0\/polygon\/1\/0/);
    expectBad(await inject('PUT', url, demo, { ...good, classes: ['person', 'cat'] }), /classes\/1/);
    expectBad(await inject('PUT', url, demo, { ...good, schedule: { ...good.schedule, timeZone: 'Mars/Olympus_Mons' } }), /schedule\/timeZone/);
    expectBad(await inject('PUT', url, demo, { ...good, zones: [good.zones[0], good.zones[0]] }), /zones\/1\/name/);
    expectBad(await inject('GET', '/api/v1/cctv/events?class=cat'), /class/);
    expectBad(await inject('GET', '/api/v1/cctv/events?size=500'), /size/);
    expectBad(await inject('GET', '/api/v1/cctv/events?acknowledged=maybe'), /acknowledged/);
    expectBad(await inject('GET', '/api/v1/cctv/events?from=yesterday'), /from/);
    expectBad(await inject('POST', '/api/v1/cctv/events/acknowledge', demo, { ids: [] }), /ids/);
    expectBad(await inject('PUT', '/api/v1/cctv/events/settings/org/blueocean', demo, { notifyClasses: ['person'], timeZone: 'Nowhere/Land' }), /timeZone/);
    expectBad(await inject('PUT', '/api/v1/cctv/events/settings/org/blueocean', demo, { notifyClasses: ['person'], notifyFrom: '22:00' }), /notifyTo/);
    expect((await inject('PUT', url, viewer, good)).statusCode).toBe(403);

    expect(data<CameraEventSettingsAnswer>(await inject('GET', url))).toEqual({ enabled: true, schedule: { kind: 'always' }, classes: ['person', 'boat'], minScore: 0.5, sensitivity: 50, zones: [], masks: [] });
    const settingsBefore = a.of('events.settings').length;
    expect(data<CameraEventSettingsAnswer>(await inject('PUT', url, demo, good))).toEqual(good);
    await a.until(() => a.of('events.settings').length > settingsBefore, 'events.settings');
    expect(a.of('events.settings').at(-1)?.cameras).toEqual([{ cameraId: CAMERA, settings: good }]);

    a.send({ type: 'events.status', streamId: inboxId(), cameras: [{ cameraId: CAMERA, state: 'modelFailed', reason: 'the model did not load' }, { cameraId: 'S1002-C01-1', state: 'running' }] });
    await expect.poll(async () => data<CameraEventSettingsAnswer>(await inject('GET', url)).status).toEqual({ cameraId: CAMERA, state: 'modelFailed', reason: 'the model did not load' });

    // A ship that reconnects hears the settings in its inbox.
    await a.close();
    await expect.poll(() => t.app.agents.get(SHIP)).toBeUndefined();
    const b = await connect();
    expect(b.of('events.settings')[0]?.cameras).toEqual([{ cameraId: CAMERA, settings: good }]);
  });

  it('is in the OpenAPI document: list, one event, its picture, acknowledge, delete, settings', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json<{ paths: Record<string, Record<string, unknown>> }>();
    const methods = (path: string) => Object.keys(doc.paths[path] ?? {}).sort();
    expect(methods('/api/v1/cctv/events/')).toEqual(['get']);
    expect(methods('/api/v1/cctv/events/{id}')).toEqual(['delete', 'get']);
    expect(methods('/api/v1/cctv/events/{id}/picture')).toEqual(['get']);
    expect(methods('/api/v1/cctv/events/{id}/acknowledge')).toEqual(['post']);
    expect(methods('/api/v1/cctv/events/acknowledge')).toEqual(['post']);
    expect(methods('/api/v1/cctv/events/unacknowledged')).toEqual(['get']);
    expect(methods('/api/v1/cctv/events/settings/camera/{cameraId}')).toEqual(['get', 'put']);
    expect(methods('/api/v1/cctv/events/settings/org/{orgId}')).toEqual(['get', 'put']);
  });

  it('notifies by the organisation’s rule: its classes and hours', async () => {
    const { client, notices } = await watchNotices(demo);
    // Boats only, 20:00–04:00 Shanghai time (12:00–20:00 UTC).
    data(await inject('PUT', '/api/v1/cctv/events/settings/org/blueocean', demo, { notifyClasses: ['boat'], notifyFrom: '20:00', notifyTo: '04:00', timeZone: 'Asia/Shanghai' }));
    expect(data(await inject('GET', '/api/v1/cctv/events/settings/org/blueocean-tankers'))).toMatchObject({ notifyClasses: ['boat'] });
    await connect();
    const day = Date.UTC(2027, 0, 10);
    const cases = [
      eventOf(picture, { classes: [{ class: 'boat', score: 0.7 }], start: day + 13 * 3_600_000 }),
      eventOf(picture, { classes: [{ class: 'boat', score: 0.7 }], start: day + 2 * 3_600_000 }),
      eventOf(picture, { classes: [{ class: 'person', score: 0.9 }], start: day + 13 * 3_600_000 }),
    ];
    for (const event of cases) await deliver(event, picture);
    const got = [];
    for (let i = 0; i < cases.length; i++) got.push(JSON.parse((await notices.next()).body) as EventNotice);
    expect(got.map((n) => (n.type === 'event' ? n.notify : undefined))).toEqual([true, false, false]);
    data(await inject('POST', `/api/v1/cctv/events/${cases[0]!.eventId}/acknowledge`));
    expect(JSON.parse((await notices.next()).body)).toMatchObject({ type: 'acknowledged', id: cases[0]!.eventId, acknowledgedBy: 'demo' });
    await client.deactivate();
  });
});
