import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINARY_KIND, type PictureMeta, TOKEN_HEADER, encodePictureChunk } from '@ship-cctv/protocol';
import { type App, buildApp } from '../../src/app.ts';
import { type Database } from '../../src/core/db/client.ts';
import { PictureFiles } from '../../src/modules/pictures/picture-files.ts';
import { RawAgent } from '../agent-link/raw-agent.ts';
import { TEST_JWT_SECRET, logon } from '../helpers/build.ts';
import { freshDatabase } from '../helpers/database.ts';
import { testNatsStorage } from '../helpers/nats-store.ts';

const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';

async function noiseJpeg(width: number, height: number): Promise<Buffer> {
  const raw = randomBytes(width * height * 3);
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 80 }).toBuffer();
}

/**
 * Pictures on the shared store (STORAGE=nats) with two instances on the machine's PostgreSQL and
 * NATS: a picture the ship delivered to instance A — its thumbnail too — is served by instance B
 * after A and its folder are gone, B can hand it to a process by path (enhancement), and B's
 * retention removes it from the store.
 */
describe('pictures written by instance A are served by instance B after A is gone (STORAGE=nats)', () => {
  const nats = testNatsStorage('pictures');
  const { storage } = nats;
  let database: Database;
  let a: App | undefined;
  let b: App;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pictures-instances-'));
    database = await freshDatabase('postgres');
    const opts = { database, jwtSecret: TEST_JWT_SECRET };
    a = await buildApp({ ...opts, seedDemo: true, recorder: { settings: { dir: join(dir, 'a', 'recordings') }, storage }, pictures: { dir: join(dir, 'a', 'pictures') } });
    b = await buildApp({ ...opts, recorder: { settings: { dir: join(dir, 'b', 'recordings') }, storage }, pictures: { dir: join(dir, 'b', 'pictures') } });
    await a.listen({ port: 0, host: '127.0.0.1' });
    await b.ready();
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
    await nats.destroy();
  });

  it('B serves the picture and its thumbnail from the store, fetches it to a path, and its retention deletes it there', async () => {
    const picture = await noiseJpeg(320, 180);
    const id = 'pic-shared-0001';
    const meta: PictureMeta = {
      pictureId: id,
      cameraId: CAMERA,
      time: Date.now() - 60_000,
      mime: 'image/jpeg',
      bytes: picture.length,
      width: 320,
      height: 180,
      origin: 'manual',
      sha256: createHash('sha256').update(picture).digest('hex'),
    };
    const instanceA = a!;
    const address = instanceA.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const ship = await RawAgent.connect(address.port, SHIP, await instanceA.agentKeys.issue(SHIP), { hello: {}, capabilities: ['live', 'pictures'], asks: ['pictures'] });
    await ship.until(() => ship.of('pictures.inbox').length > 0, 'pictures.inbox');
    const streamId = ship.of('pictures.inbox')[0]!.streamId;
    ship.send({ type: 'pictures.offer', streamId, picture: meta });
    await ship.until(() => ship.of('pictures.resume').length > 0, 'pictures.resume');
    for (let at = 0; at < picture.length; at += 4_000) ship.sendFrame(BINARY_KIND.pictures, streamId, encodePictureChunk(at, picture.subarray(at, at + 4_000)));
    await ship.until(() => ship.of('pictures.stored').length > 0, 'pictures.stored');
    const row = await instanceA.pictures.index.get(id);
    expect(row).toBeDefined();
    const thumbOnA = readFileSync(join(dir, 'a', 'pictures', row!.thumbFile!));
    await ship.close();

    // A goes, and its folder with it.
    await instanceA.close();
    a = undefined;
    rmSync(join(dir, 'a'), { recursive: true, force: true });

    const token = (await logon(b, 'demo')).token;
    const get = (query = '') => b.inject({ method: 'GET', url: `/cctvv3-server/v3/th/getById/${id}${query}`, headers: { [TOKEN_HEADER]: token } });
    const whole = await get();
    expect(whole.statusCode, whole.body).toBe(200);
    expect(whole.headers['content-type']).toBe('image/jpeg');
    expect(whole.rawPayload.equals(picture)).toBe(true);
    const thumb = await get('?thumb=1');
    expect(thumb.statusCode).toBe(200);
    expect(thumb.rawPayload.equals(thumbOnA)).toBe(true);
    expect(existsSync(join(dir, 'b', 'pictures', row!.file))).toBe(false);

    // An enhancement on B reads the picture by path: fetched from the store into B's folder.
    const path = await b.pictures.files.local(row!.file);
    expect(readFileSync(path).equals(picture)).toBe(true);

    // Retention on B (its age limit passed) deletes the row, its files here and the shared copies.
    const objects = () => b.recorder.shared!.store.list('pictures/');
    expect((await objects()).map((o) => o.key).sort()).toEqual([PictureFiles.key(row!.file), PictureFiles.key(row!.thumbFile!)].sort());
    expect(await b.pictures.sweep(Date.now() + 400 * 86_400_000)).toBe(1);
    expect(await objects()).toEqual([]);
    expect(existsSync(path)).toBe(false);
    expect((await get()).statusCode).toBe(404);
  }, 60_000);
});
