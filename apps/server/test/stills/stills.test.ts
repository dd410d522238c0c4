import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BINARY_KIND, type PictureMeta, type PicturePage, type ShoreMessage, type StillAnswer, TOKEN_HEADER, encodePictureChunk } from '@ship-cctv/protocol';
import { RawAgent } from '../agent-link/raw-agent.ts';
import { type TestApp, build, logon, scrapeMetrics } from '../helpers/build.ts';
import * as schema from '../../src/core/db/schema.ts';
import { stillDue } from '../../src/modules/stills/still-rules.ts';

const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
/** S1001's lowest definition model (320×180). */
const LOWEST = 5;

async function jpeg(seed: number): Promise<Buffer> {
  const raw = Buffer.alloc(320 * 180 * 3);
  let x = seed;
  for (let i = 0; i < raw.length; i++) {
    x = (x * 1_103_515_245 + 12_345) & 0x7fffffff;
    raw[i] = x >> 16;
  }
  return sharp(raw, { raw: { width: 320, height: 180, channels: 3 } }).jpeg({ quality: 60 }).toBuffer();
}

/** How the ship answers a take in a test. */
type Behaviour = 'deliver' | 'holdInOutbox' | 'fail';

describe('stills: the latest still of a camera, one take per period for every viewer', () => {
  let t: TestApp;
  let port: number;
  let key: string;
  let demo: string;
  let duty: string;
  let njzsz: string;
  let agent: RawAgent | undefined;
  let clock = Date.now();
  let behaviour: Behaviour = 'deliver';
  const held = new Map<string, { meta: PictureMeta; bytes: Buffer }>();
  let seed = 1;

  const ask = (token: string | null = demo, camera = CAMERA, body: unknown = { templateId: LOWEST }) =>
    t.app.inject({ method: 'POST', url: `/api/v1/cctv/stills/${camera}`, headers: token === null ? {} : { [TOKEN_HEADER]: token }, payload: body as object });
  const answerOf = (res: LightMyRequestResponse): StillAnswer => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: StillAnswer }>().data;
  };
  const expectError = (res: LightMyRequestResponse, status: number, message?: RegExp) => {
    expect(res.statusCode, res.body).toBe(status);
    if (message) expect(res.json<{ message: string }>().message).toMatch(message);
  };
  const takes = () => agent?.of('pictures.take') ?? [];

  /** The ship: takes the picture at once, then (deliver) sends it through its outbox. */
  const onMessage = (msg: ShoreMessage, a: RawAgent) => {
    if (msg.type === 'pictures.take') {
      if (behaviour === 'fail') {
        a.send({ type: 'pictures.failed', streamId: msg.streamId, code: 'cameraOffline', message: 'camera down' });
        return;
      }
      void jpeg(seed++).then((bytes) => {
        const meta: PictureMeta = {
          pictureId: msg.pictureId,
          cameraId: msg.cameraId,
          time: clock,
          mime: 'image/jpeg',
          bytes: bytes.length,
          width: 320,
          height: 180,
          origin: 'manual',
          sha256: createHash('sha256').update(bytes).digest('hex'),
        };
        held.set(meta.pictureId, { meta, bytes });
        a.send({ type: 'pictures.taken', streamId: msg.streamId, picture: meta });
        const inbox = a.of('pictures.inbox').at(-1);
        if (behaviour === 'deliver' && inbox) a.send({ type: 'pictures.offer', streamId: inbox.streamId, picture: meta });
      });
    } else if (msg.type === 'pictures.resume') {
      const picture = held.get(msg.pictureId);
      if (picture) a.sendFrame(BINARY_KIND.pictures, msg.streamId, encodePictureChunk(msg.offset, picture.bytes.subarray(msg.offset)));
    }
  };

  beforeAll(async () => {
    t = await build({ pictures: { answerTimeoutMs: 2_000 }, stills: { now: () => clock } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    port = address.port;
    key = await t.app.agentKeys.issue(SHIP);
    demo = (await logon(t.app, 'demo')).token;
    duty = (await logon(t.app, 'duty')).token;
    njzsz = (await logon(t.app, 'njzsz')).token;
  });
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
    await expect.poll(() => t.app.agents.get(SHIP)).toBeUndefined();
  });
  afterAll(async () => {
    await t?.close();
  });

  const connect = async (linkType = 'IRIDIUM') => {
    agent = await RawAgent.connect(port, SHIP, key, { hello: { link: { linkType, quality: 60, duplex: 'BOTH' } }, capabilities: ['live', 'playback', 'pictures'], asks: ['pictures'], onMessage });
    await agent.until(() => agent!.of('pictures.inbox').length > 0, 'pictures.inbox');
    await expect.poll(async () => (await t.app.status.shipStatuses([{ id: SHIP, name: SHIP }]))[0]?.status).toBe(linkType);
  };

  it('five viewers at once cost the ship one picture; the next comes a period later, and not while one is on its way', async () => {
    behaviour = 'deliver';
    await connect('IRIDIUM');
    const pictureBytesBefore = linkPictureBytes(await scrapeMetrics(t.app));

    const first = await Promise.all([ask(demo), ask(demo), ask(duty), ask(duty), ask(demo)]).then((r) => r.map(answerOf));
    await agent!.until(() => takes().length > 0, 'pictures.take');
    expect(takes()).toHaveLength(1);
    expect(takes()[0]).toMatchObject({ cameraId: CAMERA, width: 320, height: 180, origin: 'manual' });
    expect(first.filter((a) => a.took)).toHaveLength(1);
    // Every viewer hears of the same take, on the Iridium policy's 30 s.
    expect(new Set(first.map((a) => a.pending?.pictureId))).toEqual(new Set([takes()[0]?.pictureId]));
    expect(first.every((a) => a.everySeconds === 30 && a.linkType === 'IRIDIUM' && !a.offline)).toBe(true);

    // The picture reaches shore through the outbox, counted as pictures on the link.
    const id = takes()[0]!.pictureId;
    await expect.poll(async () => (await t.app.pictures.index.get(id))?.id).toBe(id);
    // Shore lists it as a still, not as a manual snapshot, and the origin filter finds it.
    const listed = await t.app.inject({ method: 'POST', url: '/api/v1/cctv/snapshot/complexQuery/1/10', headers: { [TOKEN_HEADER]: demo }, payload: { shipId: SHIP, origin: 'stills' } });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json<{ data: PicturePage }>().data.pictures.map((p) => [p.id, p.origin])).toEqual([[id, 'stills']]);
    const stored = answerOf(await ask());
    expect(stored.picture).toMatchObject({ pictureId: id, width: 320, height: 180, bytes: held.get(id)!.bytes.length });
    expect(stored.pending).toBeUndefined();
    expect(stored.recentBytes).toEqual([held.get(id)!.bytes.length]);
    expect(stored.took).toBe(false);
    expect(stored.nextInMs).toBeGreaterThan(25_000);
    expect(stored.nextInMs).toBeLessThanOrEqual(30_000);
    expect(linkPictureBytes(await scrapeMetrics(t.app)) - pictureBytesBefore).toBeGreaterThan(held.get(id)!.bytes.length);

    // 20 s later: still fresh, nothing asked of the ship.
    clock += 20_000;
    expect(answerOf(await ask()).took).toBe(false);
    expect(takes()).toHaveLength(1);

    // A period after it: one new take for three viewers.
    clock += 11_000;
    behaviour = 'holdInOutbox';
    const second = await Promise.all([ask(demo), ask(duty), ask(demo)]).then((r) => r.map(answerOf));
    await agent!.until(() => takes().length > 1, 'second pictures.take');
    expect(takes()).toHaveLength(2);
    expect(second.filter((a) => a.took)).toHaveLength(1);
    await expect.poll(async () => answerOf(await ask()).pending?.state).toBe('taken');
    const crossing = answerOf(await ask());
    expect(crossing.picture?.pictureId).toBe(id);
    expect(crossing.pending).toMatchObject({ pictureId: takes()[1]?.pictureId, state: 'taken', bytes: held.get(takes()[1]!.pictureId)?.bytes.length });
    expect(crossing.nextInMs).toBe(5_000);

    // Two more periods while it crosses a slow link: no second picture for the link to carry.
    clock += 60_000;
    expect(answerOf(await ask()).took).toBe(false);
    expect(takes()).toHaveLength(2);
  });

  it("says why the ship could not take one, and tries again a period later; an offline ship's last still is still shown", async () => {
    behaviour = 'fail';
    clock += 15 * 60_000;
    await connect('VSAT');
    const asked = answerOf(await ask());
    expect(asked).toMatchObject({ took: true, everySeconds: 10, linkType: 'VSAT' });
    await agent!.until(() => takes().length > 0, 'pictures.take');
    await expect.poll(async () => answerOf(await ask()).pending).toMatchObject({ state: 'failed', code: 'cameraOffline', message: 'camera down' });
    const count = takes().length;
    expect(answerOf(await ask()).took).toBe(false);
    clock += 10_000;
    behaviour = 'deliver';
    expect(answerOf(await ask()).took).toBe(true);
    await agent!.until(() => takes().length > count, 'pictures.take after the failure');
    expect(takes().length).toBe(count + 1);
    await expect.poll(async () => answerOf(await ask()).pending).toBeUndefined();

    await agent?.close();
    agent = undefined;
    await expect.poll(async () => answerOf(await ask()).offline).toBe(true);
    clock += 60_000;
    const offline = answerOf(await ask());
    expect(offline).toMatchObject({ offline: true, took: false, linkType: 'OFFLINE' });
    expect(offline.picture?.pictureId).toBe(takes().at(-1)?.pictureId ?? offline.picture?.pictureId);
    expect(offline.nextInMs).toBeGreaterThanOrEqual(10_000);
  });

  it('takes no new still while the ship’s pictures budget is used up (stills are pictures); a higher cap lets them go on', async () => {
    behaviour = 'deliver';
    clock += 15 * 60_000;
    await connect('VSAT');
    const budget = (dayMb: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/cctv/databudget/update',
        headers: { [TOKEN_HEADER]: demo },
        payload: { orgId: 'blueocean', shipId: SHIP, policy: 'lowest', caps: { live: {}, playback: {}, pictures: { dayMb } } },
      });
    expect((await budget(0.001)).statusCode).toBe(200);
    t.app.metrics.countLink(SHIP, 'up', 'pictures', 2_000);
    await t.app.flushBudgets();
    const count = takes().length;
    const held = answerOf(await ask());
    expect(held).toMatchObject({ picturesBudgetUsedUp: true, took: false, offline: false });
    expect(held.nextInMs).toBe(10_000);
    // The last picture is still shown.
    expect(held.picture).toBeDefined();
    clock += 60_000;
    expect(answerOf(await ask())).toMatchObject({ picturesBudgetUsedUp: true, took: false });
    expect(takes()).toHaveLength(count);
    expect((await budget(1_000)).statusCode).toBe(200);
    expect(answerOf(await ask())).toMatchObject({ picturesBudgetUsedUp: false, took: true });
    await agent!.until(() => takes().length > count, 'pictures.take once the cap is raised');
    await expect.poll(async () => answerOf(await ask()).pending).toBeUndefined();
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/cctv/databudget/delete', headers: { [TOKEN_HEADER]: demo }, payload: { orgId: 'blueocean', shipId: SHIP } })).statusCode).toBe(200);
  });

  it('checks who asks and what: 401, 403 for another organisation and alike for an unknown camera, 400 for a bad camera id, template or field', async () => {
    const before = await t.app.database.db.select().from(schema.cameraStills);
    expectError(await ask(null), 401);
    expectError(await ask(njzsz), 403);
    expectError(await ask(demo, 'S9999-C01-1'), 403);
    expectError(await ask(demo, 'bad camera!'), 400);
    expectError(await ask(demo, CAMERA, { templateId: 999 }), 400, /template 999/);
    expectError(await ask(demo, CAMERA, { templateId: 0 }), 400);
    expectError(await ask(demo, CAMERA, { templateId: 'best' }), 400);
    // A viewer cannot ask for a shorter period than the policy's: unknown fields are dropped.
    expect(answerOf(await ask(demo, CAMERA, { templateId: LOWEST, everySeconds: 1 })).everySeconds).toBe(10);
    // Nothing was claimed by the refused calls.
    expect(await t.app.database.db.select().from(schema.cameraStills)).toEqual(before);
  });
});

describe('stillDue', () => {
  const timing = { askMs: 35_000, crossingMs: 600_000, pendingPollMs: 5_000 };
  it('takes a period after the newest picture and the latest take, never while one is on its way', () => {
    expect(stillDue(100_000, 30_000, undefined, undefined, timing)).toEqual({ take: true, nextInMs: 5_000 });
    expect(stillDue(100_000, 30_000, 80_000, undefined, timing)).toEqual({ take: false, nextInMs: 10_000 });
    expect(stillDue(100_000, 30_000, 60_000, { pictureId: 'p', requestedAt: 90_000, state: 'failed', stored: false }, timing)).toEqual({ take: false, nextInMs: 20_000 });
    expect(stillDue(100_000, 30_000, 10_000, { pictureId: 'p', requestedAt: 80_000, state: 'asked', stored: false }, timing)).toEqual({ take: false, nextInMs: 5_000 });
    // The ship never answered: after askMs the take no longer holds the next back.
    expect(stillDue(200_000, 30_000, 10_000, { pictureId: 'p', requestedAt: 80_000, state: 'asked', stored: false }, timing).take).toBe(true);
    expect(stillDue(500_000, 30_000, 10_000, { pictureId: 'p', requestedAt: 80_000, state: 'taken', stored: false }, timing).take).toBe(false);
    expect(stillDue(500_000, 30_000, 80_500, { pictureId: 'p', requestedAt: 80_000, state: 'taken', stored: true }, timing).take).toBe(true);
    // A short period polls no slower than the period itself.
    expect(stillDue(100_000, 2_000, undefined, undefined, timing).nextInMs).toBe(2_000);
  });
});

function linkPictureBytes(metrics: string): number {
  let total = 0;
  for (const line of metrics.split('\n')) {
    if (line.startsWith('shipcctv_link_bytes_total{') && line.includes(`ship="${SHIP}"`) && line.includes('purpose="pictures"') && line.includes('direction="up"')) total += Number(line.split(' ').at(-1));
  }
  return total;
}
