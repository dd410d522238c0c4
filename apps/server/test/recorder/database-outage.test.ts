import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.ts';
import { type Database, openDatabase } from '../../src/core/db/client.ts';
import { POSTGRES_ADMIN_URL } from '../helpers/database.ts';
import { tcpProxy } from '../helpers/tcp-proxy.ts';
import { STANDARD, decodesCleanly, fakeSource, liveStream, segmentFilesIn } from './helpers.ts';

const CAMERA = 'S1001-C01-1';

const until = async (what: string, fn: () => boolean, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!fn()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('shore recorder through a database outage', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  async function setup() {
    const dir = mkdtempSync(join(tmpdir(), 'recorder-outage-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const name = `shipcctv_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    cleanups.push(async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    });
    const target = new URL(POSTGRES_ADMIN_URL);
    const proxy = await tcpProxy(target.hostname, Number(target.port || 5432));
    cleanups.push(() => proxy.cut());
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${name}`;
    url.port = String(proxy.port);
    url.hostname = '127.0.0.1';
    const open = () => openDatabase({ url: url.toString() });
    const root = join(dir, 'recordings');
    const start = async (database: Database): Promise<App> => {
      const app = await buildApp({ seedDemo: true, database, recorder: { settings: { dir: root, segmentSeconds: 2 } } });
      await app.ready();
      return app;
    };
    return { dir, root, proxy, open, start };
  }

  /** Every segment file on disk is indexed, plays cleanly and has the size the index says. */
  async function expectAllIndexed(app: App, root: string) {
    const recordings = (await app.recordings.query([...new Set(['blueocean', 'blueocean-tankers', 'njzsz'])], {}, 1, 50)).records;
    const onDisk = readdirSync(root, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .flatMap((e) => segmentFilesIn(join(root, e.name)).map((f) => `${e.name}/${f}`))
      .sort();
    const indexed = (await Promise.all(recordings.map((r) => app.recordings.segments(r.id)))).flat();
    expect(indexed.map((s) => s.file).sort()).toEqual(onDisk);
    for (const s of indexed) {
      expect(await decodesCleanly(join(root, s.file))).toBe(true);
      expect(statSync(join(root, s.file)).size).toBe(s.bytes);
    }
    return { indexed, onDisk };
  }

  it('indexes the segments written while the database was away once it is back', async () => {
    const { dir, root, proxy, open, start } = await setup();
    const stream = await liveStream(dir, 'live', 12);
    const database = await open();
    const app = await start(database);
    cleanups.push(async () => {
      await app.close();
      await database.close();
    });
    const source = fakeSource(CAMERA, 'S1001');
    const third = Math.floor(stream.fragments.length / 3);
    app.recorder.init(source, stream.init, STANDARD);
    for (const f of stream.fragments.slice(0, third)) app.recorder.fragment(source, f);
    await app.recorder.settled();
    const filesBefore = () => readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.mp4')).length;
    const before = filesBefore();

    await proxy.cut();
    for (const f of stream.fragments.slice(third, 2 * third)) app.recorder.fragment(source, f);
    // Segments keep reaching the disk while the database is away.
    await until('segments written during the outage', () => filesBefore() >= before + 1);
    await proxy.restore();
    for (const f of stream.fragments.slice(2 * third)) app.recorder.fragment(source, f);
    app.recorder.end(source);
    await app.recorder.settled();

    const { indexed } = await expectAllIndexed(app, root);
    expect(indexed.length).toBeGreaterThanOrEqual(5);
  }, 90_000);

  it('a recording that began and ended while the database was away is indexed at the next start, nothing deleted', async () => {
    const { dir, root, proxy, open, start } = await setup();
    const stream = await liveStream(dir, 'live', 8);
    const database = await open();
    const app = await start(database);
    const source = fakeSource(CAMERA, 'S1001');

    await proxy.cut();
    app.recorder.init(source, stream.init, STANDARD);
    for (const f of stream.fragments) app.recorder.fragment(source, f);
    app.recorder.end(source);
    const written = () => readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.mp4')).length;
    await until('segments on disk', () => written() >= 3);
    // The server stops with the database still away…
    await app.close();
    await database.close().catch(() => undefined);
    const files = written();

    // …and starts again once it is back.
    await proxy.restore();
    const database2 = await open();
    const app2 = await start(database2);
    cleanups.push(async () => {
      await app2.close();
      await database2.close();
    });
    const { indexed, onDisk } = await expectAllIndexed(app2, root);
    expect(onDisk).toHaveLength(files);
    expect(indexed.length).toBe(files);
  }, 90_000);
});
