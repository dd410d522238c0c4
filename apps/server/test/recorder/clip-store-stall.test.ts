import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClipJob, EnvelopeOf, RecordQueryPage, RecordingSegment } from '@ship-cctv/protocol';
import { type App, buildApp } from '../../src/app.ts';
import { type Database } from '../../src/core/db/client.ts';
import { TEST_JWT_SECRET, logon } from '../helpers/build.ts';
import { freshDatabase } from '../helpers/database.ts';
import { NATS_URL, testNatsStorage } from '../helpers/nats-store.ts';
import { type TcpProxy, tcpProxy } from '../helpers/tcp-proxy.ts';
import { STANDARD, fakeSource, feed, liveStream, probeFile } from './helpers.ts';

const CAMERA = 'S1001-C01-1';

/**
 * Clip export on a slow object store (STORAGE=nats, the machine's NATS behind a proxy that holds
 * all traffic): the clip's put times out (5 s), and the job tries again with backoff instead of
 * failing at once with "timeout" — done once the store answers again; failed with a message that
 * says so when it never does.
 */
describe('a clip exported while the object store is stalled', () => {
  const nats = testNatsStorage('clip_stall');
  let proxy: TcpProxy;
  let database: Database;
  let app: App;
  let dir: string;
  let token: string;
  let recordingId: string;
  let segments: RecordingSegment[];
  const api = async <T>(method: 'GET' | 'POST', url: string, payload?: object) =>
    (await app.inject({ method, url, headers: { 'cas-jwt': token }, ...(payload ? { payload } : {}) })).json<EnvelopeOf<T>>().data;
  const status = (id: string) => api<ClipJob>('GET', `/api/v1/cctv/record/clip/status/${id}`);
  const open = (job: ClipJob) => job.state === 'queued' || job.state === 'running';
  const until = async (id: string, pred: (job: ClipJob) => boolean, what: string, timeoutMs = 40_000): Promise<ClipJob> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = await status(id);
      if (pred(job)) return job;
      if (Date.now() > deadline) throw new Error(`clip ${id}: no ${what} within ${timeoutMs} ms; last ${JSON.stringify(job)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'clip-stall-'));
    const natsUrl = new URL(NATS_URL);
    proxy = await tcpProxy(natsUrl.hostname, Number(natsUrl.port || 4222));
    const storage = { ...nats.storage, natsUrl: `nats://127.0.0.1:${proxy.port}` };
    database = await freshDatabase('postgres');
    app = await buildApp({
      database,
      jwtSecret: TEST_JWT_SECRET,
      seedDemo: true,
      recorder: { settings: { dir: join(dir, 'recordings'), segmentSeconds: 2 }, storage },
      // One retry after 300 ms: a put that times out (5 s) is tried twice before the clip fails.
      jobs: { transientRetries: 1, retryFirstMs: 300, retryMaxMs: 1_000 },
    });
    await app.ready();
    const source = fakeSource(CAMERA, 'S1001');
    feed(app.recorder, source, await liveStream(dir, 'live', 6), STANDARD, false);
    await app.recorder.settled();
    app.recorder.end(source);
    await app.recorder.settled();
    token = (await logon(app, 'demo')).token;
    const page = await api<RecordQueryPage>('POST', '/api/v1/cctv/record/complexQuery/1/20', { cameraId: CAMERA });
    recordingId = page.records[0]!.id;
    segments = await api<RecordingSegment[]>('GET', `/api/v1/cctv/record/segments/${recordingId}`);
  }, 180_000);
  afterAll(async () => {
    proxy?.resume();
    await app?.close();
    await database?.close();
    await proxy?.cut();
    rmSync(dir, { recursive: true, force: true });
    await nats.destroy();
  });

  it('tries again after the store timed out and is done once the store answers', async () => {
    const start = segments[0]!.start + 1_000;
    proxy.stall();
    const stalledAt = Date.now();
    const created = await api<ClipJob>('POST', `/api/v1/cctv/record/clip/${recordingId}`, { start, end: start + 3_000 });
    // The store's timeout: the job waits to try again (or, as before, fails at once with "timeout").
    const waiting = await until(created.id, (j) => !open(j) || /storage did not answer/.test(j.message ?? ''), 'retry');
    expect(waiting).toMatchObject({ state: 'running' });
    expect(waiting.message).toMatch(/^storage did not answer \(timeout\); trying again in 1 s \(try 2 of 2\)$/);
    const stalledMs = Date.now() - stalledAt;
    proxy.resume();
    const resumedAt = Date.now();
    const job = await until(created.id, (j) => !open(j), 'end');
    console.log(`clip export, store stalled ${stalledMs} ms: ${job.state} ${Date.now() - resumedAt} ms after the store answered again`);
    expect(job).toMatchObject({ state: 'done', progress: 100, message: null });
    expect(await app.recorder.shared!.statClip(job.id)).toBeDefined();
    const download = await app.inject({ method: 'GET', url: job.downloadUrl!, headers: { 'cas-jwt': token } });
    expect(download.statusCode).toBe(200);
    const file = join(dir, 'clip.mp4');
    writeFileSync(file, download.rawPayload);
    expect(Math.abs((await probeFile(file)).duration - 3)).toBeLessThanOrEqual(1);
  }, 90_000);

  it('fails with a message saying the store did not answer when it never does', async () => {
    const start = segments[0]!.start;
    proxy.stall();
    try {
      const created = await api<ClipJob>('POST', `/api/v1/cctv/record/clip/${recordingId}`, { start, end: start + 2_000 });
      const job = await until(created.id, (j) => !open(j), 'end');
      console.log(`clip export, store stalled throughout: ${job.state}: ${job.message}`);
      expect(job.state).toBe('failed');
      expect(job.message).toMatch(/^storage did not answer \(timeout\) in 2 tries over \d+ s; gave up$/);
      expect(existsSync(join(dir, 'recordings', 'clips', `${job.id}.mp4`))).toBe(false);
    } finally {
      proxy.resume();
    }
  }, 90_000);
});
