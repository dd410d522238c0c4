import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINARY_KIND, type PictureMeta, type ShoreMessage, encodePictureChunk } from '@ship-cctv/protocol';
import { type App, buildApp } from '../../src/app.ts';
import { type Database } from '../../src/core/db/client.ts';
import { PictureFiles } from '../../src/modules/pictures/picture-files.ts';
import { RawAgent } from '../agent-link/raw-agent.ts';
import { TEST_JWT_SECRET } from '../helpers/build.ts';
import { freshDatabase } from '../helpers/database.ts';
import { NATS_URL, testNatsStorage } from '../helpers/nats-store.ts';
import { type TcpProxy, tcpProxy } from '../helpers/tcp-proxy.ts';

const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
const CHUNK = 4_000;
/** The emulated ship offers a picture again when shore has not answered within this (the real one: 120 s). */
const SHIP_ANSWER_MS = 2_000;

async function noiseJpeg(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  let x = 7;
  for (let i = 0; i < raw.length; i++) {
    x = (x * 1_103_515_245 + 12_345) & 0x7fffffff;
    raw[i] = x >> 16;
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 80 }).toBuffer();
}

/**
 * A slow object store (STORAGE=nats, the machine's NATS behind a proxy that holds all traffic):
 * a picture the ship sends while the store does not answer crosses the link once — shore holds
 * it whole, tells the ship it is storing it, and stores it once the store answers again — instead
 * of being refused after the store's 5 s timeout and sent again from the first byte.
 */
describe('a picture sent while the object store is stalled crosses the link once', () => {
  const nats = testNatsStorage('picture_stall');
  let proxy: TcpProxy;
  let database: Database;
  let app: App;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'picture-stall-'));
    const natsUrl = new URL(NATS_URL);
    proxy = await tcpProxy(natsUrl.hostname, Number(natsUrl.port || 4222));
    const storage = { ...nats.storage, natsUrl: `nats://127.0.0.1:${proxy.port}` };
    database = await freshDatabase('postgres');
    app = await buildApp({
      database,
      jwtSecret: TEST_JWT_SECRET,
      seedDemo: true,
      recorder: { settings: { dir: join(dir, 'recordings') }, storage },
      pictures: { dir: join(dir, 'pictures'), storeRetry: { firstMs: 500, maxMs: 2_000 } },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
  }, 180_000);
  afterAll(async () => {
    proxy?.resume();
    await app?.close();
    await database?.close();
    await proxy?.cut();
    rmSync(dir, { recursive: true, force: true });
    await nats.destroy();
  });

  it('is held whole on shore while the store stalls and stored when it answers again', async () => {
    const picture = await noiseJpeg(240, 160);
    const id = 'pic-stall-0001';
    const meta: PictureMeta = {
      pictureId: id,
      cameraId: CAMERA,
      time: Date.now() - 60_000,
      mime: 'image/jpeg',
      bytes: picture.length,
      width: 240,
      height: 160,
      origin: 'manual',
      sha256: createHash('sha256').update(picture).digest('hex'),
    };
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');

    // The ship's outbox, reduced to what it does for one picture: offer it, send the bytes from
    // where shore says, offer it again when refused or when shore has not answered in time.
    let crossings = 0;
    let pictureBytes = 0;
    let offers = 0;
    let answerTimer: NodeJS.Timeout | undefined;
    let done = false;
    const offer = (ship: RawAgent, streamId: number) => {
      offers++;
      ship.send({ type: 'pictures.offer', streamId, picture: meta });
      clearTimeout(answerTimer);
      answerTimer = setTimeout(() => offer(ship, streamId), SHIP_ANSWER_MS);
    };
    const onMessage = (msg: ShoreMessage, ship: RawAgent) => {
      if (done || !('pictureId' in msg) || msg.pictureId !== id) return;
      if (msg.type === 'pictures.resume') {
        if (msg.offset < picture.length) crossings++;
        for (let at = msg.offset; at < picture.length; at += CHUNK) {
          const chunk = picture.subarray(at, at + CHUNK);
          pictureBytes += chunk.length;
          ship.sendFrame(BINARY_KIND.pictures, msg.streamId, encodePictureChunk(at, chunk));
        }
      } else if (msg.type === 'pictures.rejected') {
        offer(ship, msg.streamId);
      } else if (msg.type === 'pictures.stored') {
        done = true;
        clearTimeout(answerTimer);
      }
    };
    const ship = await RawAgent.connect(address.port, SHIP, await app.agentKeys.issue(SHIP), { hello: {}, capabilities: ['live', 'pictures'], asks: ['pictures'], onMessage });
    try {
      await ship.until(() => ship.of('pictures.inbox').length > 0, 'pictures.inbox');
      const streamId = ship.of('pictures.inbox')[0]!.streamId;

      proxy.stall();
      const stalledAt = Date.now();
      offer(ship, streamId);
      // The store's put times out (5 s): shore holds the picture instead of refusing it — or,
      // as before, refuses it and the ship sends it all again.
      await ship.until(() => ship.of('pictures.storing').length > 0 || crossings > 1, 'storing (or a second crossing)', 30_000);
      // The ship, hearing nothing more, offers it again: no byte of it is asked for.
      const offersBefore = offers;
      await ship.until(() => (offers > offersBefore && ship.of('pictures.storing').length > 1) || crossings > 1, 'a second offer answered storing', 30_000);
      expect(crossings).toBe(1);
      expect(await app.pictures.index.get(id)).toBeUndefined();
      const stalledMs = Date.now() - stalledAt;

      proxy.resume();
      const resumedAt = Date.now();
      await ship.until(() => done, 'pictures.stored', 30_000);
      const storedMs = Date.now() - resumedAt;
      console.log(
        `picture of ${picture.length} B, store stalled ${stalledMs} ms: ${crossings} crossing(s), ${pictureBytes} picture bytes sent, ` +
          `${ship.sentBytes} B on the wire in all, ${offers} offers; stored ${storedMs} ms after the store answered again`,
      );
      expect(crossings).toBe(1);
      expect(pictureBytes).toBe(picture.length);
      expect(ship.of('pictures.rejected')).toEqual([]);

      const row = await app.pictures.index.get(id);
      expect(row).toBeDefined();
      const stored = await app.recorder.shared!.store.get(PictureFiles.key(row!.file));
      expect(stored.equals(picture)).toBe(true);
      expect(existsSync(join(dir, 'pictures', 'incoming', SHIP, `${id}.part`))).toBe(false);
      expect(app.pictures.inbox.waitingForStore).toBe(0);
    } finally {
      done = true;
      clearTimeout(answerTimer);
      await ship.close();
    }
  }, 120_000);
});
