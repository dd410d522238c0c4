import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClipJob, EnvelopeOf, RecordQueryPage, RecordingSegment } from '@ship-cctv/protocol';
import { type App, buildApp } from '../../src/app.ts';
import { type Database, openDatabase } from '../../src/core/db/client.ts';
import { TEST_JWT_SECRET, logon } from '../helpers/build.ts';
import { freshDatabase } from '../helpers/database.ts';
import { testNatsStorage } from '../helpers/nats-store.ts';
import { STANDARD, fakeSource, feed, liveStream, probeFile } from './helpers.ts';
import { applyRetention } from '../../src/modules/recorder/retention.ts';
import { CLIPS_FOLDER } from '../../src/modules/recorder/recovery.ts';

const CAMERA = 'S1001-C01-1';

describe('a recording written by instance A is served by instance B after A is gone (STORAGE=nats)', () => {
  const nats = testNatsStorage('recorder');
  const { storage } = nats;
  let database: Database & { url?: string };
  // Instance B's own connection pool: two instances share the database, not a client.
  let databaseOfB: Database | undefined;
  let a: App | undefined;
  let b: App;
  let dir: string;
  let token: string;
  let recordingId: string;
  let segments: RecordingSegment[];
  const api = async <T>(method: 'GET' | 'POST', url: string, payload?: object) =>
    (await b.inject({ method, url, headers: { 'cas-jwt': token }, ...(payload ? { payload } : {}) })).json<EnvelopeOf<T>>().data;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shared-segments-'));
    // Several instances need a database server: the machine's PostgreSQL.
    database = await freshDatabase('postgres');
    databaseOfB = await openDatabase({ url: database.url });
    const opts = { database, jwtSecret: TEST_JWT_SECRET };
    a = await buildApp({ ...opts, seedDemo: true, recorder: { settings: { dir: join(dir, 'a'), segmentSeconds: 2 }, storage } });
    b = await buildApp({ ...opts, database: databaseOfB, recorder: { settings: { dir: join(dir, 'b'), segmentSeconds: 2 }, storage } });
    await a.ready();
    await b.ready();
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await databaseOfB?.close();
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
    await nats.destroy();
  });

  it('copies finished segments to the object store and B answers whole and Range requests from it', async () => {
    const recorderA = a!;
    const source = fakeSource(CAMERA, 'S1001');
    feed(recorderA.recorder, source, await liveStream(dir, 'live', 6), STANDARD, false);
    await recorderA.recorder.settled();
    recorderA.recorder.end(source);
    await recorderA.recorder.settled();

    token = (await logon(b, 'demo')).token;
    const page = await api<RecordQueryPage>('POST', '/api/v1/cctv/record/complexQuery/1/20', { cameraId: CAMERA });
    expect(page.total).toBe(1);
    recordingId = page.records[0]!.id;
    segments = await api<RecordingSegment[]>('GET', `/api/v1/cctv/record/segments/${recordingId}`);
    expect(segments.length).toBeGreaterThanOrEqual(2);
    // What A wrote on its own disk, before A and its folder go away.
    const written = readdirFiles(join(dir, 'a', page.records[0]!.id));
    await recorderA.close();
    a = undefined;
    rmSync(join(dir, 'a'), { recursive: true, force: true });
    expect(existsSync(join(dir, 'b', page.records[0]!.id))).toBe(false);

    for (const s of segments) {
      const url = `/api/v1/cctv/record/segment/${s.id}`;
      const whole = await b.inject({ method: 'GET', url, headers: { 'cas-jwt': token } });
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['content-type']).toBe('video/mp4');
      expect(whole.headers['accept-ranges']).toBe('bytes');
      expect(whole.rawPayload.length).toBe(s.bytes);
      expect(written.some((f) => f.equals(whole.rawPayload))).toBe(true);

      const part = await b.inject({ method: 'GET', url, headers: { 'cas-jwt': token, range: 'bytes=100-1099' } });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 100-1099/${s.bytes}`);
      expect(part.headers['content-length']).toBe('1000');
      expect(part.rawPayload.equals(whole.rawPayload.subarray(100, 1100))).toBe(true);

      const tail = await b.inject({ method: 'GET', url, headers: { 'cas-jwt': token, range: 'bytes=-10' } });
      expect(tail.statusCode).toBe(206);
      expect(tail.headers['content-range']).toBe(`bytes ${s.bytes - 10}-${s.bytes - 1}/${s.bytes}`);
      expect(tail.rawPayload.equals(whole.rawPayload.subarray(s.bytes - 10))).toBe(true);

      const outside = await b.inject({ method: 'GET', url, headers: { 'cas-jwt': token, range: `bytes=${s.bytes}-` } });
      expect(outside.statusCode).toBe(416);
      expect(outside.headers['content-range']).toBe(`bytes */${s.bytes}`);
    }
  }, 60_000);

  it('B exports a clip from segments only the object store holds, and the clip is downloadable from the store', async () => {
    const start = segments[0]!.start + 1_000;
    let job = await api<ClipJob>('POST', `/api/v1/cctv/record/clip/${recordingId}`, { start, end: start + 3_000 });
    while (job.state === 'queued' || job.state === 'running') {
      await new Promise((r) => setTimeout(r, 100));
      job = await api<ClipJob>('GET', `/api/v1/cctv/record/clip/status/${job.id}`);
    }
    expect(job).toMatchObject({ state: 'done', progress: 100 });
    // The clip file is in the object store too: B hands it out without its own copy, as any instance would.
    rmSync(join(dir, 'b', CLIPS_FOLDER), { recursive: true, force: true });
    expect(existsSync(join(dir, 'b', CLIPS_FOLDER, `${job.id}.mp4`))).toBe(false);
    const download = await b.inject({ method: 'GET', url: job.downloadUrl!, headers: { 'cas-jwt': token } });
    expect(download.statusCode).toBe(200);
    const file = join(dir, 'clip.mp4');
    writeFileSync(file, download.rawPayload);
    expect(Math.abs((await probeFile(file)).duration - 3)).toBeLessThanOrEqual(1);
  }, 60_000);

  it("B's retention deletes the segments from the object store too", async () => {
    const objects = () => b.recorder.shared!.store.list(`recordings/${recordingId}/`);
    expect((await objects()).length).toBe(segments.length);
    await applyRetention(b.recordings, b.recorder.root, { maxAgeMs: 1, maxBytes: Number.MAX_SAFE_INTEGER }, Date.now() + 86_400_000, b.recorder.shared);
    expect(await objects()).toEqual([]);
    const gone = await b.inject({ method: 'GET', url: `/api/v1/cctv/record/segment/${segments[0]!.id}`, headers: { 'cas-jwt': token } });
    expect(gone.statusCode).toBe(404);
  });
});

function readdirFiles(folder: string): Buffer[] {
  return readdirSyncSafe(folder)
    .filter((n) => n.endsWith('.mp4'))
    .map((n) => readFileSync(join(folder, n)));
}

function readdirSyncSafe(folder: string): string[] {
  return existsSync(folder) ? readdirSync(folder) : [];
}
