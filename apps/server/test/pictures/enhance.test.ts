import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EnhanceJob, type PictureMeta, TOKEN_HEADER } from '@ship-cctv/protocol';
import { type TestApp, build, logon } from '../helpers/build.ts';

const SHIP = 'S1001';
const AI = '/api/v1/ai/SuperResolutionV1/api';

/** A picture with detail (a gradient under text-like blocks), as shore would hold it. */
async function picture(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const block = (Math.floor(x / 6) + Math.floor(y / 6)) % 2 === 0 ? 60 : 0;
      raw[i] = (x * 255) / width;
      raw[i + 1] = (y * 255) / height + block;
      raw[i + 2] = 128 + block;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
}

describe('AI super-resolution of pictures', () => {
  let t: TestApp;
  let demo: string;
  let njzsz: string;

  const store = async (id: string, width: number, height: number) => {
    const jpeg = await picture(width, height);
    const meta: PictureMeta = { pictureId: id, cameraId: 'S1001-C01-1', time: Date.now(), mime: 'image/jpeg', bytes: jpeg.length, width, height, origin: 'manual', sha256: createHash('sha256').update(jpeg).digest('hex') };
    t.app.pictures.files.append(SHIP, id, 0, 0, jpeg);
    const verdict = await t.app.pictures.files.complete(SHIP, meta);
    if (!verdict.ok) throw new Error(verdict.reason);
    await t.app.pictures.index.insert({ id, orgId: 'blueocean', shipId: SHIP, channelId: 'S1001-C01', cameraId: meta.cameraId, takenAt: new Date(meta.time), origin: 'manual', mime: meta.mime, bytes: meta.bytes, width, height, sha256: meta.sha256, file: verdict.file, thumbFile: verdict.thumbFile, thumbBytes: verdict.thumbBytes });
  };
  const call = (method: 'GET' | 'POST', url: string, payload?: object, token = demo) =>
    t.app.inject({ method, url, headers: { [TOKEN_HEADER]: token }, ...(payload ? { payload } : {}) });
  const job = async (id: string) => (await call('GET', `${AI}/progress/${id}`)).json<{ data: EnhanceJob }>().data;
  const expectError = (res: LightMyRequestResponse, status: number, message?: RegExp) => {
    expect(res.statusCode, res.body).toBe(status);
    if (message) expect(res.json<{ message: string }>().message).toMatch(message);
  };

  beforeAll(async () => {
    t = await build({ jobs: { pollMs: 50 } });
    demo = (await logon(t.app, 'demo')).token;
    njzsz = (await logon(t.app, 'njzsz')).token;
    await store('enhance-small-01', 160, 90);
    await store('enhance-medium-1', 960, 540);
    await store('enhance-large-01', 1920, 1080);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('enhances ×2 in a job with progress, and keeps the result, twice the size, beside the picture', async () => {
    const res = await call('POST', `${AI}/commit`, { pictureId: 'enhance-small-01', scale: 2 });
    expect(res.statusCode, res.body).toBe(200);
    const queued = res.json<{ data: EnhanceJob }>().data;
    expect(queued).toMatchObject({ pictureId: 'enhance-small-01', scale: 2 });
    await expect.poll(async () => (await job(queued.jobId)).state, { timeout: 60_000, interval: 100 }).toBe('done');
    const done = await job(queued.jobId);
    expect(done).toMatchObject({ progress: 100, width: 320, height: 180 });
    const result = await call('GET', `${AI}/result/${queued.jobId}`);
    expect(result.headers['content-type']).toBe('image/jpeg');
    expect(await sharp(result.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 320, height: 180 });
    // Another organisation gets nothing of it.
    expectError(await call('GET', `${AI}/result/${queued.jobId}`, undefined, njzsz), 403);
    expectError(await call('GET', `${AI}/progress/${queued.jobId}`, undefined, njzsz), 403);
  });

  it('cancels a running enhancement within a second, and a restart puts a running one back in the queue', async () => {
    const commit = async () => (await call('POST', `${AI}/commit`, { pictureId: 'enhance-medium-1', scale: 4 })).json<{ data: EnhanceJob }>().data;
    const a = await commit();
    await expect.poll(async () => (await job(a.jobId)).progress, { timeout: 60_000, interval: 100 }).toBeGreaterThan(0);
    const asked = Date.now();
    expect((await call('POST', `${AI}/cancel/${a.jobId}`)).statusCode).toBe(200);
    await expect.poll(async () => (await job(a.jobId)).state, { timeout: 1_000, interval: 50 }).toBe('cancelled');
    expect(Date.now() - asked).toBeLessThan(1_000);
    expectError(await call('GET', `${AI}/result/${a.jobId}`), 404, /cancelled/);

    // The server stops while one runs: it is given back, and runs again after the start.
    const b = await commit();
    await expect.poll(async () => (await job(b.jobId)).state, { timeout: 60_000, interval: 100 }).toBe('running');
    await t.app.jobs.runner.stop();
    expect((await job(b.jobId)).state).toBe('queued');
    t.app.jobs.runner.start();
    await expect.poll(async () => (await job(b.jobId)).state, { timeout: 60_000, interval: 100 }).toBe('running');
    await call('POST', `${AI}/cancel/${b.jobId}`);
  });

  it('refuses bad requests with a clear error', async () => {
    expectError(await call('POST', `${AI}/commit`, { pictureId: 'enhance-small-01', scale: 3 }), 400);
    expectError(await call('POST', `${AI}/commit`, { pictureId: 'no-such-picture', scale: 2 }), 404);
    expectError(await call('POST', `${AI}/commit`, { pictureId: 'enhance-small-01', scale: 2 }, njzsz), 403);
    expectError(await call('POST', `${AI}/commit`, { pictureId: 'enhance-large-01', scale: 4 }), 400, /up to 1280×720 .* this one is 1920×1080/);
    expectError(await call('POST', `${AI}/commit`, { pictureId: '../../etc/passwd', scale: 2 }), 400);
    expectError(await call('GET', `${AI}/progress/x`), 400);
    expectError(await call('GET', `${AI}/progress/00000000-0000-0000-0000-000000000000`), 404);
  });
});
