import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClipJob, EnvelopeOf, ExportVerdict, RecordQueryPage } from '@ship-cctv/protocol';
import { type TestApp, build, logon } from '../helpers/build.ts';
import { STANDARD, decodesCleanly, fakeSource, feed, liveStream } from './helpers.ts';

const CAMERA = 'S1001-C01-1';
const SHIP = 'S1001';
const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '../../../..');

/** The offline check, as `npm run verify-export -- FILE --key KEY` runs it. */
async function verifyOffline(file: string, key: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'apps/server/src/verify-export.ts', file, '--key', key, '--json'], { cwd: repoRoot });
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

const flipped = (bytes: Buffer, at: number): Buffer => {
  const copy = Buffer.from(bytes);
  copy[at] = copy[at]! ^ 0x01;
  return copy;
};

describe('signed clip exports', () => {
  let t: TestApp;
  let dir: string;
  let token: string;
  let exported: Buffer;
  let keyFile: string;

  const verifyOnline = async (bytes: Buffer, as = token) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cctv/record/export/verify',
      headers: { 'cas-jwt': as, 'content-type': 'application/octet-stream' },
      payload: bytes,
    });
    return { status: res.statusCode, body: res.json<EnvelopeOf<ExportVerdict>>() };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'signed-export-test-'));
    const stream = await liveStream(dir, 'live', 4);
    const clock = Date.now() - 3_600_000;
    t = await build({ recorder: { settings: { dir: join(dir, 'recordings'), segmentSeconds: 2 }, now: () => clock } });
    token = (await logon(t.app, 'demo')).token;
    feed(t.app.recorder, fakeSource(CAMERA, SHIP), stream, STANDARD);
    await t.app.recorder.settled();
    const page = await t.app.inject({ method: 'POST', url: '/api/v1/cctv/record/complexQuery/1/5', headers: { 'cas-jwt': token }, payload: { cameraId: CAMERA } });
    const rec = page.json<EnvelopeOf<RecordQueryPage>>().data.records[0]!;
    const created = await t.app.inject({ method: 'POST', url: `/api/v1/cctv/record/clip/${rec.id}`, headers: { 'cas-jwt': token }, payload: { start: rec.start, end: rec.start + 3_000 } });
    let job = created.json<EnvelopeOf<ClipJob>>().data;
    while (job.state === 'queued' || job.state === 'running') {
      await new Promise((r) => setTimeout(r, 50));
      job = (await t.app.inject({ method: 'GET', url: `/api/v1/cctv/record/clip/status/${job.id}`, headers: { 'cas-jwt': token } })).json<EnvelopeOf<ClipJob>>().data;
    }
    expect(job.state).toBe('done');
    exported = (await t.app.inject({ method: 'GET', url: job.downloadUrl!, headers: { 'cas-jwt': token } })).rawPayload;
    const key = (await t.app.inject({ method: 'GET', url: '/api/v1/cctv/record/export/key', headers: { 'cas-jwt': token } })).json<EnvelopeOf<{ publicKeyPem: string }>>();
    keyFile = join(dir, 'export-signing.pub');
    writeFileSync(keyFile, key.data.publicKeyPem);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an intact export verifies and says what it holds; the signed file still plays', async () => {
    const { status, body } = await verifyOnline(exported);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ intact: true, problem: null });
    const m = body.data.manifest!;
    expect(m).toMatchObject({ ship: { id: SHIP }, camera: { id: CAMERA }, exportedBy: { username: 'demo' }, keyId: body.data.keyId });
    expect(m.end - m.start).toBe(3_000);
    expect(m.ship.name).not.toBe('');
    expect(m.files).toHaveLength(1);
    expect(m.files[0]!.bytes).toBeLessThan(exported.length); // the manifest box follows the media it hashes
    expect(m.files[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
    const file = join(dir, 'export.mp4');
    writeFileSync(file, exported);
    expect(await decodesCleanly(file)).toBe(true);
  });

  it('the operation finds a changed byte in the video, in the manifest and in the signature', async () => {
    const mediaBytes = (await verifyOnline(exported)).body.data.manifest!.files[0]!.bytes;
    const manifestAt = exported.indexOf('"exportedBy"', mediaBytes);
    const checks: [number, string][] = [
      [Math.floor(mediaBytes / 2), 'contentChanged'],
      [mediaBytes - 1, 'contentChanged'],
      [manifestAt + 3, 'badSignature'],
      [exported.length - 1, 'badSignature'],
    ];
    for (const [at, problem] of checks) {
      const { status, body } = await verifyOnline(flipped(exported, at));
      expect(status).toBe(200);
      expect(body.data, `byte ${at}`).toMatchObject({ intact: false, problem });
    }
    // The box's own header changed: no manifest is found where it should be.
    expect((await verifyOnline(flipped(exported, mediaBytes + 3))).body.data.intact).toBe(false);
    // A byte more or less is found too.
    expect((await verifyOnline(Buffer.concat([exported, Buffer.from([0])]))).body.data.intact).toBe(false);
    expect((await verifyOnline(exported.subarray(0, exported.length - 1))).body.data.intact).toBe(false);
    // Something never exported here is not signed.
    expect((await verifyOnline(Buffer.from('not a clip'))).body.data).toMatchObject({ intact: false, problem: 'malformed' });
    // Every upload's temporary file is gone once answered.
    await expect.poll(() => readdirSync(tmpdir()).filter((n) => n.startsWith('ship-cctv-verify-'))).toEqual([]);
  });

  it('refuses a caller without a session, and a body that is not a file, in both languages', async () => {
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/v1/cctv/record/export/verify', headers: { 'content-type': 'application/octet-stream' }, payload: exported });
    expect(anonymous.statusCode).toBe(401);
    const json = await t.app.inject({ method: 'POST', url: '/api/v1/cctv/record/export/verify', headers: { 'cas-jwt': token }, payload: { file: 'x' } });
    expect(json.statusCode).toBe(415);
    expect(json.json<EnvelopeOf<null>>().message).toMatch(/请以.*\(send the export file/);
    // No other route takes a file (nothing is written for it).
    const elsewhere = await t.app.inject({ method: 'POST', url: '/api/v1/cctv/record/complexQuery/1/5', headers: { 'cas-jwt': token, 'content-type': 'application/octet-stream' }, payload: exported });
    expect(elsewhere.statusCode).toBe(415);
  });

  it('the operation is in the OpenAPI document: the export as a binary body, the verdict in the envelope', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json<{ paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> }; responses: Record<string, unknown> }>> }>();
    const verify = Object.entries(doc.paths).filter(([path]) => path.includes('verify'));
    expect(verify.map(([path]) => path)).toEqual(['/api/v1/cctv/record/export/verify']);
    const post = verify[0]![1].post!;
    expect(Object.keys(post.requestBody!.content)).toEqual(['application/octet-stream']);
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['200', '401', '413', '415']));
  });

  it('npm run verify-export checks an export offline with the public key', async () => {
    const good = join(dir, 'good.mp4');
    const bad = join(dir, 'bad.mp4');
    writeFileSync(good, exported);
    writeFileSync(bad, flipped(exported, Math.floor(exported.length / 3)));
    const [intact, changed] = await Promise.all([verifyOffline(good, keyFile), verifyOffline(bad, keyFile)]);
    expect(intact.code, intact.out).toBe(0);
    expect(JSON.parse(intact.out)).toMatchObject({ intact: true, manifest: { camera: { id: CAMERA } } });
    expect(changed.code, changed.out).toBe(1);
    expect(JSON.parse(changed.out)).toMatchObject({ intact: false });
    expect(readFileSync(bad).length).toBe(exported.length);
  }, 30_000);
});
