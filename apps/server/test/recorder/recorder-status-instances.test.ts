import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IMessage } from '@stomp/stompjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS, dest } from '@ship-cctv/protocol';
import { type App, buildApp } from '../../src/app.ts';
import { type Database } from '../../src/core/db/client.ts';
import { TEST_JWT_SECRET, logon } from '../helpers/build.ts';
import { freshDatabase } from '../helpers/database.ts';
import { Inbox, connected, listenStomp, stompClient, subscribe } from '../stomp/helpers.ts';
import { STANDARD, fakeSource, feed, liveStream } from './helpers.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('shore recording status across instances', () => {
  const redisPrefix = `shipcctv-test-${randomBytes(4).toString('hex')}:`;
  let database: Database;
  let a: App;
  let b: App;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'recorder-instances-'));
    database = await freshDatabase('pglite');
    const opts = { database, redisUrl: REDIS_URL, redisPrefix, jwtSecret: TEST_JWT_SECRET };
    a = await buildApp({ ...opts, seedDemo: true, recorder: { settings: { dir: join(dir, 'a'), segmentSeconds: 2 } } });
    b = await buildApp({ ...opts, recorder: { settings: { dir: join(dir, 'b'), segmentSeconds: 2 } } });
    await a.ready();
    await b.ready();
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a subscriber on instance B hears that instance A started recording', async () => {
    const token = (await logon(b, 'demo')).token;
    const client = stompClient(await listenStomp(b, PATHS.stomp), { connectHeaders: { 'cas-jwt': token } });
    await connected(client);
    const inbox = new Inbox<IMessage>();
    await subscribe(client, dest.mediaList('蓝海之星'), inbox);
    try {
      feed(a.recorder, fakeSource('S1001-C01-1', 'S1001'), await liveStream(dir, 'live', 3), STANDARD, false);
      await a.recorder.settled();
      const shore = async () => {
        for (;;) {
          const body = JSON.parse((await inbox.next()).body) as { recorder?: string; remoteRecord?: boolean; sourceId?: string };
          if (body.recorder === 'shore') return body;
        }
      };
      expect(await shore()).toMatchObject({ sourceId: 'S1001-C01-1', remoteRecord: true, recorder: 'shore' });
    } finally {
      await client.deactivate();
    }
  });
});
