import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BINARY_KIND,
  type PictureEvent,
  type PictureMeta,
  type PicturePage,
  type ShipPicList,
  type ShoreMessage,
  type SnapshotAnswer,
  TOKEN_HEADER,
  dest,
  encodePictureChunk,
  encodeThumb,
} from '@ship-cctv/protocol';
import { RawAgent } from '../agent-link/raw-agent.ts';
import { type TestApp, build, logon, scrapeMetrics } from '../helpers/build.ts';

const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
const CHANNEL = 'S1001-C01';
const OTHER_SHIP_CAMERA = 'S1002-C01-1';

async function jpeg(width: number, height: number, seed: number): Promise<Buffer> {
  // Noise, so the JPEG is tens of kB (several chunks) and each seed's picture differs.
  const raw = Buffer.alloc(width * height * 3);
  let x = seed;
  for (let i = 0; i < raw.length; i++) {
    x = (x * 1_103_515_245 + 12_345) & 0x7fffffff;
    raw[i] = x >> 16;
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 80 }).toBuffer();
}

function metaOf(pictureId: string, bytes: Buffer, over: Partial<PictureMeta> = {}): PictureMeta {
  return {
    pictureId,
    cameraId: CAMERA,
    time: Date.now() - 60_000,
    mime: 'image/jpeg',
    bytes: bytes.length,
    width: 320,
    height: 180,
    origin: 'manual',
    sha256: createHash('sha256').update(bytes).digest('hex'),
    ...over,
  };
}

describe('pictures on shore: inbox, store, access', () => {
  let t: TestApp;
  let port: number;
  let key: string;
  let demo: string;
  let njzsz: string;
  let agent: RawAgent | undefined;
  let picture: Buffer;

  const inboxId = () => {
    const inbox = agent?.of('pictures.inbox').at(-1);
    if (!inbox) throw new Error('no inbox');
    return inbox.streamId;
  };
  const sendChunks = (streamId: number, bytes: Buffer, from: number, to = bytes.length, size = 4_000) => {
    for (let at = from; at < to; at += size) agent?.sendFrame(BINARY_KIND.pictures, streamId, encodePictureChunk(at, bytes.subarray(at, Math.min(to, at + size))));
  };
  const inject = (method: 'GET' | 'POST', url: string, token: string | null = demo, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, headers: { ...(token === null ? {} : { [TOKEN_HEADER]: token }), ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const expectError = (res: LightMyRequestResponse, status: number, message?: RegExp, reason?: string) => {
    expect(res.statusCode, res.body).toBe(status);
    const body = res.json<{ code: number; message: string; reason?: string }>();
    expect(body.code).toBe(status);
    if (message) expect(body.message).toMatch(message);
    expect(body.reason).toBe(reason);
  };
  const connect = async (onMessage?: (msg: ShoreMessage, a: RawAgent) => void) => {
    agent = await RawAgent.connect(port, SHIP, key, { hello: {}, capabilities: ['live', 'playback', 'pictures'], asks: ['pictures'], ...(onMessage ? { onMessage } : {}) });
    await agent.until(() => agent!.of('pictures.inbox').length > 0, 'pictures.inbox');
    return agent;
  };

  beforeAll(async () => {
    picture = await jpeg(320, 180, 1);
    t = await build({ pictures: { answerTimeoutMs: 1_500 } });
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
  });
  afterAll(async () => {
    await t?.close();
  });

  it('takes a picture offered in chunks across an outage: resumes at the byte where it stopped, checks it, stores it once', async () => {
    const id = 'pic-outage-0001';
    const meta = metaOf(id, picture);
    expect(picture.length).toBeGreaterThan(12_000);
    let a = await connect();
    a.send({ type: 'pictures.offer', streamId: inboxId(), picture: meta });
    await a.until(() => a.of('pictures.resume').length > 0, 'pictures.resume');
    expect(a.of('pictures.resume')[0]).toMatchObject({ pictureId: id, offset: 0 });
    // Half the picture, then the link is gone.
    const half = Math.floor(picture.length / 2);
    sendChunks(inboxId(), picture, 0, half);
    await expect.poll(() => t.app.pictures.files.received(SHIP, id)).toBe(half);
    await a.close();
    await expect.poll(() => t.app.agents.get(SHIP)).toBeUndefined();

    // The ship is back: shore asks for the rest only.
    a = await connect();
    a.send({ type: 'pictures.offer', streamId: inboxId(), picture: meta });
    await a.until(() => a.of('pictures.resume').length > 0, 'pictures.resume');
    expect(a.of('pictures.resume')[0]).toMatchObject({ pictureId: id, offset: half });
    // A chunk sent twice across the reconnect (overlapping what shore has) adds only its new part.
    sendChunks(inboxId(), picture, half - 1_000, picture.length);
    await a.until(() => a.of('pictures.stored').length > 0, 'pictures.stored');

    const res = await inject('GET', `/cctvv3-server/v3/th/getById/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(Buffer.compare(res.rawPayload, picture)).toBe(0);
    const etag = String(res.headers.etag);
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(res.headers['cache-control']).toMatch(/max-age=\d+/);
    expect((await inject('GET', `/cctvv3-server/v3/th/getById/${id}`, demo, undefined, { 'if-none-match': etag })).statusCode).toBe(304);
    const thumb = await inject('GET', `/cctvv3-server/v3/th/getById/${id}?thumb=1`);
    expect(thumb.statusCode).toBe(200);
    expect((await sharp(thumb.rawPayload).metadata()).format).toBe('jpeg');
    const download = await inject('GET', `/cctvv3-server/v3/th/getById/${id}?download=1`);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename=".+\.jpg"$/);

    const page = (await inject('POST', '/api/v1/cctv/snapshot/complexQuery/1/20', demo, { shipId: SHIP })).json<{ data: PicturePage }>().data;
    expect(page.total).toBe(1);
    expect(page.pictures[0]).toMatchObject({ id, shipId: SHIP, channelId: CHANNEL, cameraId: CAMERA, origin: 'manual', bytes: picture.length, width: 320, height: 180 });
    // What crossed counts under pictures.
    const counted = new RegExp(`shipcctv_link_bytes_total\\{[^}]*direction="up"[^}]*purpose="pictures"[^}]*\\} (\\d+)`).exec(await scrapeMetrics(t.app));
    // Every byte of the picture once, the 1,000 sent twice, and the frames' headers: no more.
    expect(Number(counted?.[1])).toBeGreaterThanOrEqual(picture.length + 1_000);
    expect(Number(counted?.[1])).toBeLessThan(picture.length + 1_000 + 1_000);
  });

  it('answers an offer of a picture it holds with stored at once (a duplicate delivery stores nothing twice)', async () => {
    const a = await connect();
    a.send({ type: 'pictures.offer', streamId: inboxId(), picture: metaOf('pic-outage-0001', picture) });
    await a.until(() => a.of('pictures.stored').length > 0, 'pictures.stored');
    expect(a.of('pictures.resume')).toHaveLength(0);
    const page = (await inject('POST', '/api/v1/cctv/snapshot/complexQuery/1/20', demo, {})).json<{ data: PicturePage }>().data;
    expect(page.total).toBe(1);
  });

  it('rejects bytes that are not the picture offered (checksum, truncated JPEG, wrong size) and never stores them', async () => {
    const a = await connect();
    const other = await jpeg(320, 180, 2);
    const cases: [string, PictureMeta, Buffer, RegExp][] = [
      ['pic-badsum-0001', { ...metaOf('pic-badsum-0001', picture), sha256: createHash('sha256').update(other).digest('hex') }, picture, /checksum/],
      ['pic-trunc-00001', metaOf('pic-trunc-00001', picture.subarray(0, 5_000)), picture.subarray(0, 5_000), /decode|truncat|premature|end/i],
      ['pic-size-000001', metaOf('pic-size-000001', picture, { width: 640, height: 360 }), picture, /320×180 picture, offered as 640×360/],
    ];
    for (const [id, meta, bytes, reason] of cases) {
      a.send({ type: 'pictures.offer', streamId: inboxId(), picture: meta });
      await a.until(() => a.of('pictures.resume').some((m) => m.pictureId === id), `resume of ${id}`);
      sendChunks(inboxId(), bytes, 0);
      await a.until(() => a.of('pictures.rejected').some((m) => m.pictureId === id), `rejected ${id}`);
      expect(a.of('pictures.rejected').find((m) => m.pictureId === id)?.reason).toMatch(reason);
      expect(t.app.pictures.files.received(SHIP, id)).toBe(0);
      expectError(await inject('GET', `/cctvv3-server/v3/th/getById/${id}`), 404);
    }
    // Offered again with the right bytes (what the ship does after a rejection), it is stored.
    const id = 'pic-badsum-0001';
    a.send({ type: 'pictures.offer', streamId: inboxId(), picture: metaOf(id, other) });
    await a.until(() => a.of('pictures.resume').filter((m) => m.pictureId === id).length === 2, 'second resume');
    expect(a.of('pictures.resume').filter((m) => m.pictureId === id).at(-1)?.offset).toBe(0);
    sendChunks(inboxId(), other, 0);
    await a.until(() => a.of('pictures.stored').some((m) => m.pictureId === id), 'stored');
  });

  it('keeps every picture call inside the organisation: 403 across organisations (a guessed id too), 404 unknown, 400 malformed', async () => {
    const a = await connect((msg, agent) => {
      if (msg.type === 'pictures.take') agent.send({ type: 'pictures.failed', streamId: msg.streamId, code: 'cameraOffline', message: 'camera down' });
    });
    // njzsz sees none of Blue Ocean's pictures, not even one whose id it knows.
    expectError(await inject('GET', '/cctvv3-server/v3/th/getById/pic-outage-0001', njzsz), 403);
    expectError(await inject('GET', '/cctvv3-server/v3/th/getById/pic-outage-0001?thumb=1', njzsz), 403);
    expect((await inject('POST', '/api/v1/cctv/snapshot/complexQuery/1/20', njzsz, {})).json<{ data: PicturePage }>().data.total).toBe(0);
    expectError(await inject('POST', '/api/v1/cctv/snapshot/complexQuery/1/20', njzsz, { shipId: SHIP }), 403);
    expectError(await inject('POST', `/cctvv3-server/v3/snapshot/requestPro/${SHIP}/${CHANNEL}/${CAMERA}/720/live`, njzsz), 403);
    expectError(await inject('POST', `/api/v1/cctv-server/v3/getPicList/${SHIP}`, njzsz, { cameraId: CAMERA, from: 0, to: Date.now() }), 403);
    expectError(await inject('POST', `/api/v1/cctv-server/v3/fetchPic/${SHIP}/pic-outage-0001`, njzsz), 403);
    expectError(await inject('GET', '/cctvv3-server/v3/th/getById/pic-outage-0001', null), 401);

    expectError(await inject('GET', '/cctvv3-server/v3/th/getById/no-such-picture'), 404);
    expectError(await inject('GET', '/cctvv3-server/v3/th/getById/x'), 400);
    expectError(await inject('GET', '/cctvv3-server/v3/th/getById/..%2F..%2Fetc'), 400);
    expectError(await inject('POST', `/cctvv3-server/v3/snapshot/requestPro/${SHIP}/${CHANNEL}/${CAMERA}/720/yesterday`), 400);
    expectError(await inject('POST', `/cctvv3-server/v3/snapshot/requestPro/${SHIP}/${CHANNEL}/${CAMERA}/999/live`), 400, /template 999/);
    expectError(await inject('POST', `/cctvv3-server/v3/snapshot/requestPro/${SHIP}/${CHANNEL}/${CAMERA}/720/${Date.now() + 86_400_000}`), 400, /future/);
    expectError(await inject('POST', `/cctvv3-server/v3/snapshot/requestPro/${SHIP}/${CHANNEL}/${OTHER_SHIP_CAMERA}/720/live`), 404);
    expectError(await inject('POST', `/cctvv3-server/v3/snapshot/requestPro/${SHIP}/S1001-C02/${CAMERA}/720/live`), 404);
    expectError(await inject('POST', '/api/v1/cctv/snapshot/complexQuery/0/20', demo, {}), 400);
    expectError(await inject('POST', '/api/v1/cctv/snapshot/complexQuery/1/20', demo, { from: 10, to: 5 }), 400, /after/);
    expectError(await inject('POST', '/api/v1/cctv/snapshot/complexQuery/1/20', demo, { origin: 'robot' }), 400);
    expectError(await inject('POST', `/api/v1/cctv-server/v3/getPicList/${SHIP}`, demo, { cameraId: CAMERA, from: 10, to: 5 }), 400);
    expectError(await inject('POST', `/api/v1/cctv-server/v3/getPicList/${SHIP}`, demo, { cameraId: CAMERA, from: 0, to: 100 * 86_400_000 }), 400, /at most 31 days/);

    // A snapshot answers its id at once; the ship's refusal reaches the page over STOMP (see the agent's tests).
    const res = await inject('POST', `/cctvv3-server/v3/snapshot/requestPro/${SHIP}/${CHANNEL}/${CAMERA}/720/live`);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<{ data: SnapshotAnswer }>().data;
    expect(answer).toMatchObject({ shipId: SHIP, cameraId: CAMERA, width: 1280, height: 720 });
    await a.until(() => a.of('pictures.take').some((m) => m.pictureId === answer.pictureId), 'pictures.take');
    expect(a.of('pictures.take').at(-1)).toMatchObject({ cameraId: CAMERA, width: 1280, height: 720, origin: 'manual' });
    expect(a.of('pictures.take').at(-1)).not.toHaveProperty('at');
  });

  it("lists the ship's pictures with their thumbnails, keeps them, and answers from what it kept while the ship is offline", async () => {
    const thumb = await jpeg(160, 90, 3);
    const now = Date.now();
    const entries = [
      { pictureId: 'ship-only-00001', cameraId: CAMERA, time: now - 1_000, bytes: 40_000, width: 1280, height: 720, origin: 'task' as const, thumbBytes: thumb.length },
      { pictureId: 'pic-outage-0001', cameraId: CAMERA, time: now - 60_000, bytes: picture.length, width: 320, height: 180, origin: 'manual' as const, thumbBytes: thumb.length },
    ];
    await connect((msg, a) => {
      if (msg.type !== 'pictures.list') return;
      a.send({ type: 'pictures.listed', streamId: msg.streamId, cameraId: msg.cameraId, truncated: false, pictures: entries });
      entries.forEach((_, i) => a.sendFrame(BINARY_KIND.pictures, msg.streamId, encodeThumb(i, thumb)));
    });
    const body = { cameraId: CAMERA, from: now - 3_600_000, to: now };
    const res = await inject('POST', `/api/v1/cctv-server/v3/getPicList/${SHIP}`, demo, body);
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json<{ data: ShipPicList }>().data;
    expect(list).toMatchObject({ cached: false, truncated: false });
    expect(list.linkBytes).toBeGreaterThan(2 * thumb.length);
    expect(list.pictures.map((p) => [p.pictureId, p.onShore, p.hasThumb])).toEqual([
      ['ship-only-00001', false, true],
      ['pic-outage-0001', true, true],
    ]);
    const shipThumb = await inject('GET', '/cctvv3-server/v3/th/getById/ship-only-00001?thumb=1');
    expect(shipThumb.statusCode).toBe(200);
    expect(Buffer.compare(shipThumb.rawPayload, thumb)).toBe(0);
    // Only its thumbnail is on shore.
    expectError(await inject('GET', '/cctvv3-server/v3/th/getById/ship-only-00001'), 404, /fetch it from the ship/);
    expectError(await inject('GET', '/cctvv3-server/v3/th/getById/ship-only-00001?thumb=1', njzsz), 403);

    await agent?.close();
    agent = undefined;
    await expect.poll(() => t.app.agents.get(SHIP)).toBeUndefined();
    const offline = (await inject('POST', `/api/v1/cctv-server/v3/getPicList/${SHIP}`, demo, body)).json<{ data: ShipPicList }>().data;
    expect(offline).toMatchObject({ cached: true, linkBytes: 0 });
    expect(offline.pictures.map((p) => p.pictureId)).toEqual(['ship-only-00001', 'pic-outage-0001']);
    expectError(await inject('POST', `/cctvv3-server/v3/snapshot/requestPro/${SHIP}/${CHANNEL}/${CAMERA}/720/live`), 503, /offline/, 'offline');
    expectError(await inject('POST', `/api/v1/cctv-server/v3/fetchPic/${SHIP}/ship-only-00001`), 503, /offline/, 'offline');
  });

  it('a ship that does not answer in time: its list and a fetch are 503 "timeout"; a snapshot is answered at once and its failure says "timeout"', async () => {
    const events: PictureEvent[] = [];
    t.app.bus.store.onEvent((e) => {
      if (e.destination === dest.pictures('蓝海之星')) events.push(JSON.parse(e.body) as PictureEvent);
    });
    // The ship hears every question and answers none.
    const a = await connect();
    const now = Date.now();
    expectError(await inject('POST', `/api/v1/cctv-server/v3/getPicList/${SHIP}`, demo, { cameraId: CAMERA, from: now - 3_600_000, to: now }), 503, /did not answer within 1.5 s/, 'timeout');
    expectError(await inject('POST', `/api/v1/cctv-server/v3/fetchPic/${SHIP}/ship-only-00001`), 503, /did not answer within 1.5 s/, 'timeout');
    const taken = await inject('POST', `/cctvv3-server/v3/snapshot/requestPro/${SHIP}/${CHANNEL}/${CAMERA}/720/live`);
    expect(taken.statusCode, taken.body).toBe(200);
    const { pictureId } = taken.json<{ data: SnapshotAnswer }>().data;
    await a.until(() => a.of('pictures.take').some((m) => m.pictureId === pictureId), 'pictures.take');
    await expect.poll(() => events.find((e) => e.pictureId === pictureId), { timeout: 5_000 }).toMatchObject({ event: 'failed', code: 'timeout' });
  });

  it('fetches a picture the ship holds: the ship says where it is in its outbox; one shore holds is answered at once', async () => {
    await connect((msg, a) => {
      if (msg.type === 'pictures.fetch') {
        if (msg.pictureId === 'ship-only-00001') a.send({ type: 'pictures.queued', streamId: msg.streamId, pictureId: msg.pictureId, position: 0 });
        else a.send({ type: 'pictures.failed', streamId: msg.streamId, code: 'notFound', message: 'retention took it' });
      }
    });
    const queued = await inject('POST', `/api/v1/cctv-server/v3/fetchPic/${SHIP}/ship-only-00001`);
    expect(queued.json()).toMatchObject({ data: { pictureId: 'ship-only-00001', state: 'queued', position: 0, bytes: 40_000 } });
    expect((await inject('POST', `/api/v1/cctv-server/v3/fetchPic/${SHIP}/pic-outage-0001`)).json()).toMatchObject({ data: { state: 'onShore' } });
    expectError(await inject('POST', `/api/v1/cctv-server/v3/fetchPic/${SHIP}/never-listed-1`), 404, /list the ship's pictures first/);
    // Listed once, since gone from the ship: the ship's own answer.
    await t.app.pictures.index.rememberShipPictures(SHIP, [{ pictureId: 'gone-picture-1', cameraId: CAMERA, time: Date.now() - 5_000, bytes: 10, width: 320, height: 180, origin: 'task', thumbBytes: 0, thumbFile: null }]);
    expectError(await inject('POST', `/api/v1/cctv-server/v3/fetchPic/${SHIP}/gone-picture-1`), 404, /retention took it/, 'notFound');
    expectError(await inject('POST', `/api/v1/cctv-server/v3/fetchPic/S1002/pic-outage-0001`), 404);
  });

  it('retention deletes pictures past their age, files included', async () => {
    const before = (await inject('POST', '/api/v1/cctv/snapshot/complexQuery/1/20', demo, {})).json<{ data: PicturePage }>().data.total;
    expect(before).toBeGreaterThan(0);
    // As if 91 days had passed: every picture is past the 90-day default.
    const removed = await t.app.pictures.sweep(Date.now() + 91 * 86_400_000);
    expect(removed).toBe(before);
    expect((await inject('POST', '/api/v1/cctv/snapshot/complexQuery/1/20', demo, {})).json<{ data: PicturePage }>().data.total).toBe(0);
    expectError(await inject('GET', '/cctvv3-server/v3/th/getById/pic-outage-0001'), 404);
  });
});
