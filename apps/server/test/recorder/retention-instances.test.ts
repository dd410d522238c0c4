import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.ts';
import { type Database } from '../../src/core/db/client.ts';
import { RETENTION_JOB_KIND } from '../../src/modules/recorder/local-retention.ts';
import { segmentFileName } from '../../src/modules/recorder/segment-file.ts';
import { TEST_JWT_SECRET } from '../helpers/build.ts';
import { freshDatabase } from '../helpers/database.ts';
import { testNatsStorage } from '../helpers/nats-store.ts';
import { STANDARD, fakeSource, feed, liveStream } from './helpers.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const HOUR = 3_600_000;

/** The segment files under an instance's recordings folder, by recording. */
function segmentFiles(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .flatMap((e) => readdirSync(join(root, e.name)).filter((n) => n.endsWith('.mp4')).map((n) => `${e.name}/${n}`));
}

/**
 * Shore recording retention with two instances on the machine's PostgreSQL, Redis and NATS: the
 * run of a minute is enqueued once however many instances fire it, one instance deletes the index
 * rows and the shared copies, and each instance then drops the retired files of its own disk —
 * leaving a newer file that has no index row yet.
 */
describe('recording retention once across instances', () => {
  const nats = testNatsStorage('retention');
  const { storage } = nats;
  const redisPrefix = `shipcctv-test-${randomBytes(4).toString('hex')}:`;
  let database: Database;
  let a: App;
  let b: App;
  let dir: string;
  // Both instances' recorder clock: moved two hours on, what they recorded is past the one-hour age limit.
  let offset = 0;
  const now = () => Date.now() + offset;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'retention-instances-'));
    database = await freshDatabase('postgres');
    const opts = { database, redisUrl: REDIS_URL, redisPrefix, jwtSecret: TEST_JWT_SECRET };
    const settings = { segmentSeconds: 2, maxAgeMs: HOUR, retentionEveryMs: 300 };
    a = await buildApp({ ...opts, seedDemo: true, recorder: { settings: { ...settings, dir: join(dir, 'a') }, storage, now } });
    b = await buildApp({ ...opts, recorder: { settings: { ...settings, dir: join(dir, 'b') }, storage, now } });
    await a.ready();
    await b.ready();
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
    await nats.destroy();
  });

  it('one run deletes rows and shared copies; each instance drops its own retired files, not a newer unindexed one', async () => {
    // A records one camera, B another: each one's files are on its own disk only.
    const stream = await liveStream(dir, 'live', 5);
    for (const [app, camera] of [
      [a, 'S1001-C01-1'],
      [b, 'S1001-C02-1'],
    ] as const) {
      const source = fakeSource(camera, 'S1001');
      feed(app.recorder, source, stream, STANDARD, false);
      await app.recorder.settled();
      app.recorder.end(source);
      await app.recorder.settled();
    }
    const writtenA = segmentFiles(a.recorder.root);
    const writtenB = segmentFiles(b.recorder.root);
    expect(writtenA.length).toBeGreaterThanOrEqual(2);
    expect(writtenB.length).toBeGreaterThanOrEqual(2);
    const indexed = await a.recordings.oldestSegments(100);
    expect(indexed).toHaveLength(writtenA.length + writtenB.length);
    expect(await a.recorder.shared!.store.list('recordings/')).toHaveLength(indexed.length);

    // A file on A's disk still waiting for its index row (written after everything above).
    const late = join(a.recorder.root, 'late-recording');
    mkdirSync(late, { recursive: true });
    const lateName = segmentFileName(0, now() + 60_000, now() + 62_000);
    writeFileSync(join(late, lateName), 'not indexed yet');

    offset = 2 * HOUR;
    const spec = { name: 'recordings-retention', pattern: '* * * * *', kind: RETENTION_JOB_KIND };
    const slot = new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 600_000);
    const fired = await Promise.all([a.jobs.schedules.fire(spec, slot), b.jobs.schedules.fire(spec, slot), a.jobs.schedules.fire(spec, slot)]);
    expect(fired.filter(Boolean)).toHaveLength(1);

    await expect.poll(async () => (await a.jobs.runner.store.latestResult(RETENTION_JOB_KIND))?.segments, { timeout: 15_000 }).toBe(indexed.length);
    const result = await a.jobs.runner.store.latestResult(RETENTION_JOB_KIND);
    expect(result?.retiredUpTo).toBe(Math.max(...indexed.map((s) => s.startMs)));
    expect(await a.recordings.oldestSegments(100)).toEqual([]);
    expect(await a.recorder.shared!.store.list('recordings/')).toEqual([]);

    // Each instance's own timer drops what the run retired from its disk, whichever instance ran it.
    await expect.poll(() => [...segmentFiles(a.recorder.root), ...segmentFiles(b.recorder.root)], { timeout: 10_000 }).toEqual([`late-recording/${lateName}`]);
    for (const f of [...writtenA, ...writtenB]) expect(existsSync(join(dir, f.split('/')[0]!))).toBe(false);
  }, 90_000);
});
