import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IMessage } from '@stomp/stompjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClipJob,
  type EnvelopeOf,
  type MediaListMessage,
  PATHS,
  type RecordQueryPage,
  type RecordingSegment,
  dest,
} from '@ship-cctv/protocol';
import { applyRetention } from '../../src/modules/recorder/retention.ts';
import { type TestApp, build, logon } from '../helpers/build.ts';
import { Inbox, connected, listenStomp, stompClient, subscribe } from '../stomp/helpers.ts';
import { type LiveStream, STANDARD, decodesCleanly, fakeSource, feed, liveStream, probeFile, segmentFilesIn } from './helpers.ts';

const CAMERA = 'S1001-C01-1';
const SHIP = 'S1001';
const UNCONFIGURED_CAMERA = 'S1002-C01-1';

describe.each(['pglite', 'postgres'] as const)('shore recorder on %s', (kind) => {
  let t: TestApp;
  let dir: string;
  let root: string;
  let stream: LiveStream;
  let token: string;
  let njzszToken: string;
  let recordingId: string;
  let segments: RecordingSegment[];
  /** The recorder's clock: each fed stream is recorded as if shot just before `clock`. */
  let clock = Date.now() - 3_600_000;

  const api = async <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, as = token) => {
    const res = await t.app.inject({ method, url, headers: { 'cas-jwt': as }, ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: res.statusCode, body: res.json<EnvelopeOf<T>>(), res };
  };
  const query = (filter: object, as = token, page = 1, size = 20) => api<RecordQueryPage>('POST', `/api/v1/cctv/record/complexQuery/${page}/${size}`, filter, as);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'recorder-test-'));
    root = join(dir, 'recordings');
    stream = await liveStream(dir, 'live', 10);
    t = await build({ kind, recorder: { settings: { dir: root, segmentSeconds: 2, clipMaxMs: 6_000 }, now: () => clock } });
    token = (await logon(t.app, 'demo')).token;
    njzszToken = (await logon(t.app, 'njzsz')).token;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes a watched stream of a configured camera as self-contained fMP4 segments, indexed, and announces it on STOMP', async () => {
    const url = await listenStomp(t.app, PATHS.stomp);
    const client = stompClient(url, { connectHeaders: { 'cas-jwt': token } });
    await connected(client);
    const inbox = new Inbox<IMessage>();
    await subscribe(client, dest.mediaList('蓝海之星'), inbox);

    const source = fakeSource(CAMERA, SHIP);
    feed(t.app.recorder, source, stream, STANDARD, false);
    await t.app.recorder.settled();
    const started = await nextShore(inbox);
    expect(started).toMatchObject({ sourceId: CAMERA, remoteRecord: true, remoteEnd: null, argId: `rc-${CAMERA}`, recorder: 'shore' });
    // A new subscriber is told at once that the camera is being recorded.
    expect(await t.app.recorder.snapshot(dest.mediaList('蓝海之星'))).toEqual([JSON.stringify(started)]);

    t.app.recorder.end(source);
    await t.app.recorder.settled();
    const stopped = await nextShore(inbox);
    expect(stopped).toMatchObject({ sourceId: CAMERA, remoteRecord: false, remoteStart: started.remoteStart, argId: `rc-${CAMERA}` });
    expect(stopped.remoteEnd! - stopped.remoteStart!).toBeGreaterThanOrEqual(9_500);
    expect(await t.app.recorder.snapshot(dest.mediaList('蓝海之星'))).toEqual([]);
    await client.deactivate();

    const page = await query({ cameraId: CAMERA });
    expect(page.status).toBe(200);
    expect(page.body.data.total).toBe(1);
    const rec = page.body.data.records[0]!;
    expect(rec).toMatchObject({ orgId: 'blueocean', shipId: SHIP, cameraId: CAMERA, recordConfigId: `rc-${CAMERA}`, templateId: 6, segments: 5 });
    expect(rec.end - rec.start).toBeGreaterThanOrEqual(9_900);
    expect(rec.end - rec.start).toBeLessThanOrEqual(10_100);
    recordingId = rec.id;

    const seg = await api<RecordingSegment[]>('GET', `/api/v1/cctv/record/segments/${rec.id}`);
    segments = seg.body.data;
    expect(segments).toHaveLength(5);
    expect(segments.reduce((n, s) => n + s.bytes, 0)).toBe(rec.bytes);
    let frames = 0;
    for (const [i, s] of segments.entries()) {
      expect(s.mime).toMatch(/^video\/mp4; codecs="avc1\./);
      // Contiguous: each segment starts where the one before ended, 2 s (20 frames) each.
      if (i > 0) expect(s.start).toBe(segments[i - 1]!.end);
      expect(s.end - s.start).toBe(2_000);
      const file = join(dir, `seg-${i}.mp4`);
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/cctv/record/segment/${s.id}`, headers: { 'cas-jwt': token } });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.subarray(4, 8).toString('latin1')).toBe('ftyp');
      writeFileSync(file, res.rawPayload);
      const p = await probeFile(file);
      expect(p.codec).toBe('h264');
      expect(await decodesCleanly(file)).toBe(true); // starts at a keyframe: nothing references a missing frame
      frames += p.frames;
    }
    expect(frames).toBe(stream.fragments.length);
    // Nothing half-written is left behind.
    expect(readdirSync(join(root, rec.id)).filter((n) => n.endsWith('.part'))).toEqual([]);
  });

  it('does not record a camera without an active configuration', async () => {
    feed(t.app.recorder, fakeSource(UNCONFIGURED_CAMERA, 'S1002'), stream);
    await t.app.recorder.settled();
    expect((await query({ cameraId: UNCONFIGURED_CAMERA })).body.data.total).toBe(0);
  });

  it('filters recordings by organisation, ship, channel and time, and only shows what the user may see', async () => {
    const rec = (await query({})).body.data.records.find((r) => r.id === recordingId)!;
    expect((await query({ orgId: 'blueocean' })).body.data.records.map((r) => r.id)).toContain(recordingId);
    expect((await query({ orgId: 'njzsz' })).body.data.total).toBe(0);
    expect((await query({ shipId: SHIP })).body.data.total).toBe(1);
    expect((await query({ shipId: 'S1003' })).body.data.total).toBe(0);
    expect((await query({ start: rec.start + 1_000, end: rec.start + 2_000 })).body.data.total).toBe(1);
    expect((await query({ start: rec.end, end: rec.end + 60_000 })).body.data.total).toBe(0);
    expect((await query({ start: rec.start - 60_000, end: rec.start })).body.data.total).toBe(0);
    expect((await query({ start: rec.start, end: rec.start })).status).toBe(400);
    // Another organisation's operator sees nothing of it and may not ask about it.
    expect((await query({}, njzszToken)).body.data.records.map((r) => r.id)).not.toContain(recordingId);
    expect((await query({ shipId: SHIP }, njzszToken)).status).toBe(403);
    expect((await query({ orgId: 'blueocean' }, njzszToken)).status).toBe(403);
    expect((await api('GET', `/api/v1/cctv/record/segments/${recordingId}`, undefined, njzszToken)).status).toBe(403);
    expect((await api('GET', `/api/v1/cctv/record/segment/${segments[0]!.id}`, undefined, njzszToken)).status).toBe(403);
    expect((await api('GET', '/api/v1/cctv/record/segments/nope')).status).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/cctv/record/complexQuery/1/20', payload: {} })).statusCode).toBe(401);
    expect((await api('POST', '/api/v1/cctv/record/complexQuery/0/20', {})).status).toBe(400);
  });

  it('serves a segment with HTTP Range (206 and Content-Range), by cookie too', async () => {
    const s = segments[1]!;
    const url = `/api/v1/cctv/record/segment/${s.id}`;
    const whole = await t.app.inject({ method: 'GET', url, headers: { cookie: `newOrgToken=${token}` } });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.rawPayload.length).toBe(s.bytes);

    const part = await t.app.inject({ method: 'GET', url, headers: { cookie: `newOrgToken=${token}`, range: 'bytes=100-1099' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-1099/${s.bytes}`);
    expect(part.headers['content-length']).toBe('1000');
    expect(Buffer.compare(part.rawPayload, whole.rawPayload.subarray(100, 1100))).toBe(0);

    const tail = await t.app.inject({ method: 'GET', url, headers: { 'cas-jwt': token, range: 'bytes=-10' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.headers['content-range']).toBe(`bytes ${s.bytes - 10}-${s.bytes - 1}/${s.bytes}`);
    expect(Buffer.compare(tail.rawPayload, whole.rawPayload.subarray(s.bytes - 10))).toBe(0);

    const open = await t.app.inject({ method: 'GET', url, headers: { 'cas-jwt': token, range: `bytes=${s.bytes - 5}-` } });
    expect(open.statusCode).toBe(206);
    expect(open.rawPayload.length).toBe(5);

    const outside = await t.app.inject({ method: 'GET', url, headers: { 'cas-jwt': token, range: `bytes=${s.bytes}-` } });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${s.bytes}`);
  });

  it('exports a clip as a faststart MP4 of the requested duration, with progress and a download', async () => {
    const start = segments[0]!.start + 2_500;
    const end = start + 5_000;
    const created = await api<ClipJob>('POST', `/api/v1/cctv/record/clip/${recordingId}`, { start, end });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ recordingId, start, end, downloadUrl: null });
    const progress: number[] = [];
    let job = created.body.data;
    while (job.state === 'queued' || job.state === 'running') {
      await new Promise((r) => setTimeout(r, 100));
      job = (await api<ClipJob>('GET', `/api/v1/cctv/record/clip/status/${job.id}`)).body.data;
      progress.push(job.progress);
    }
    expect(job.state).toBe('done');
    expect(job.progress).toBe(100);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect((await api('GET', `/api/v1/cctv/record/clip/status/${job.id}`, undefined, njzszToken)).status).toBe(403);

    const download = await t.app.inject({ method: 'GET', url: job.downloadUrl!, headers: { 'cas-jwt': token } });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename=".+\.mp4"$/);
    const file = join(dir, 'clip.mp4');
    writeFileSync(file, download.rawPayload);
    const p = await probeFile(file);
    expect(p.codec).toBe('h264');
    expect(Math.abs(p.duration - 5)).toBeLessThanOrEqual(1);
    expect(await decodesCleanly(file)).toBe(true);
    // faststart: the movie header comes before the media data.
    const bytes = readFileSync(file);
    expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'));
  });

  it('cancels a clip waiting behind another: it never runs, and there is nothing to download', async () => {
    const start = segments[0]!.start + 2_500;
    const first = (await api<ClipJob>('POST', `/api/v1/cctv/record/clip/${recordingId}`, { start, end: start + 5_000 })).body.data;
    const second = (await api<ClipJob>('POST', `/api/v1/cctv/record/clip/${recordingId}`, { start, end: start + 4_000 })).body.data;
    expect((await api('POST', `/api/v1/cctv/record/clip/cancel/${second.id}`, undefined, njzszToken)).status).toBe(403);
    const cancelled = await api<ClipJob>('POST', `/api/v1/cctv/record/clip/cancel/${second.id}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ id: second.id, state: 'cancelled', downloadUrl: null, message: 'cancelled' });
    let job = first;
    while (job.state === 'queued' || job.state === 'running') {
      await new Promise((r) => setTimeout(r, 100));
      job = (await api<ClipJob>('GET', `/api/v1/cctv/record/clip/status/${job.id}`)).body.data;
    }
    expect(job.state).toBe('done');
    expect((await api<ClipJob>('GET', `/api/v1/cctv/record/clip/status/${second.id}`)).body.data.state).toBe('cancelled');
    const download = await t.app.inject({ method: 'GET', url: `/api/v1/cctv/record/clip/download/${second.id}`, headers: { 'cas-jwt': token } });
    expect(download.statusCode).toBe(409);
    expect((await api('POST', '/api/v1/cctv/record/clip/cancel/no-such-job')).status).toBe(404);
  });

  it('answers bad clip ranges with clear 400s', async () => {
    const rec = segments[0]!;
    const clip = (body: object) => api('POST', `/api/v1/cctv/record/clip/${recordingId}`, body);
    const r1 = await clip({ start: rec.start + 2_000, end: rec.start + 1_000 });
    expect(r1.status).toBe(400);
    expect(r1.body.message).toBe('end must be after start');
    const r2 = await clip({ start: rec.start, end: rec.start + 8_000 });
    expect(r2.status).toBe(400);
    expect(r2.body.message).toMatch(/at most/);
    const r3 = await clip({ start: rec.start - 5_000, end: rec.start + 1_000 });
    expect(r3.status).toBe(400);
    expect(r3.body.message).toMatch(/within the recording/);
    expect((await clip({ start: 'soon' })).status).toBe(400);
    expect((await api('POST', '/api/v1/cctv/record/clip/nope', { start: 1, end: 2 })).status).toBe(404);
  });

  it('lists and changes recording configurations, and records only while one is active', async () => {
    const list = await api<{ id: string; cameraId: string }[]>('GET', `/api/v1/cctv/record/config/list?shipId=${SHIP}`);
    expect(list.body.data.map((c) => c.cameraId)).toContain(CAMERA);
    expect((await api<unknown[]>('GET', '/api/v1/cctv/record/config/list?shipId=S3001', undefined, njzszToken)).body.data).toHaveLength(3);
    expect((await api<unknown[]>('GET', `/api/v1/cctv/record/config/list?shipId=${SHIP}`, undefined, njzszToken)).body.data).toHaveLength(0);

    const camera = 'S1003-C01-1';
    expect((await api('POST', '/api/v1/cctv/record/config', { cameraId: camera, mode: 'scheduled', schedule: [] })).status).toBe(400);
    const badZone = await api<unknown>('POST', '/api/v1/cctv/record/config', { cameraId: camera, mode: 'scheduled', schedule: [{ from: 480, to: 1050 }], timeZone: 'Mars/Olympus_Mons' });
    expect(badZone.status).toBe(400);
    expect(JSON.stringify(badZone.body)).toContain('unknown time zone \\"Mars/Olympus_Mons\\"');
    const zoned = await api<{ id: string; timeZone: string; schedule: unknown }>('POST', '/api/v1/cctv/record/config', { cameraId: camera, mode: 'scheduled', schedule: [{ from: 480, to: 1050 }], timeZone: 'Asia/Shanghai', enabled: false });
    expect(zoned.status).toBe(200);
    expect(zoned.body.data).toMatchObject({ timeZone: 'Asia/Shanghai', schedule: [{ from: 480, to: 1050 }] });
    const listed = await api<{ id: string; timeZone: string }[]>('GET', `/api/v1/cctv/record/config/list?cameraId=${camera}`);
    expect(listed.body.data.find((c) => c.id === zoned.body.data.id)?.timeZone).toBe('Asia/Shanghai');
    expect((await api('DELETE', `/api/v1/cctv/record/config/${zoned.body.data.id}`)).status).toBe(200);
    expect((await api('POST', '/api/v1/cctv/record/config', { cameraId: camera, mode: 'continuous' }, njzszToken)).status).toBe(403);
    const made = await api<{ id: string }>('POST', '/api/v1/cctv/record/config', { cameraId: camera, mode: 'continuous' });
    expect(made.status).toBe(200);
    feed(t.app.recorder, fakeSource(camera, 'S1003'), stream);
    await t.app.recorder.settled();
    const recorded = (await query({ cameraId: camera })).body.data;
    expect(recorded.total).toBe(1);
    expect(recorded.records[0]!.recordConfigId).toBe(made.body.data.id);

    // Disabled: the same stream is no longer recorded.
    expect((await api('PUT', `/api/v1/cctv/record/config/${made.body.data.id}`, { cameraId: camera, mode: 'continuous', enabled: false })).status).toBe(200);
    feed(t.app.recorder, fakeSource(camera, 'S1003'), stream);
    await t.app.recorder.settled();
    expect((await query({ cameraId: camera })).body.data.total).toBe(1);
  });

  it('deletes by age and by disk budget, oldest first, files and index together', async () => {
    const store = t.app.recordings;
    const camera = 'S1001-C02-1';
    // Start from an empty store: what the earlier tests recorded is past any age limit far ahead.
    await applyRetention(store, root, { maxAgeMs: 1, maxBytes: Number.MAX_SAFE_INTEGER }, Date.now() + 86_400_000);
    expect(await store.totalBytes()).toBe(0);
    for (let i = 0; i < 2; i++) {
      clock += 60_000;
      feed(t.app.recorder, fakeSource(camera, SHIP), stream);
      await t.app.recorder.settled();
    }
    const recs = (await query({ cameraId: camera })).body.data.records.sort((a, b) => a.start - b.start);
    expect(recs).toHaveLength(2);
    const [older, newer] = recs as [typeof recs[0], typeof recs[0]];
    const total = await store.totalBytes();

    // Budget: keep only what fits in total − older.bytes − a bit → the older recording and one segment of the newer go.
    const newerSegs = await store.segments(newer.id);
    const budget = total - older.bytes - 1;
    const res = await applyRetention(store, root, { maxAgeMs: 365 * 86_400_000, maxBytes: budget }, Date.now());
    expect(await store.totalBytes()).toBeLessThanOrEqual(budget);
    expect(res.bytes).toBe(total - (await store.totalBytes()));
    expect(await store.recording(older.id)).toBeUndefined();
    expect(readdirSync(join(root, older.id)).filter((n) => n.endsWith('.mp4'))).toEqual([]);
    const left = await store.segments(newer.id);
    expect(left.map((s) => s.seq)).toEqual(newerSegs.slice(1).map((s) => s.seq));
    expect((await store.recording(newer.id))?.startMs).toBe(left[0]!.startMs);
    expect(segmentFilesIn(join(root, newer.id))).toEqual(left.map((s) => s.file.split('/')[1]).sort());

    // Age: everything that ended more than an hour before "now" goes.
    const later = newer.end + 2 * 3_600_000;
    await applyRetention(store, root, { maxAgeMs: 3_600_000, maxBytes: Number.MAX_SAFE_INTEGER }, later);
    expect(await store.totalBytes()).toBe(0);
    expect((await query({})).body.data.total).toBe(0);
  });
});

async function nextShore(inbox: Inbox<IMessage>): Promise<MediaListMessage> {
  for (;;) {
    const m = JSON.parse((await inbox.next(10_000)).body) as MediaListMessage;
    if (m.recorder === 'shore') return m;
  }
}
