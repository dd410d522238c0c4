import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EnvelopeOf, type RecordQueryPage, TOKEN_HEADER } from '@ship-cctv/protocol';
import { type TestApp, build, logon } from '../helpers/build.ts';
import { type LiveStream, STANDARD, fakeSource, liveStream } from './helpers.ts';

const CAMERA = 'S1001-C01-1';

/** The shore recorder told the init segment it records again (byte for byte): one recording goes on. */
describe('shore recorder and a repeated init segment', () => {
  let t: TestApp;
  let dir: string;
  let stream: LiveStream;
  let clock = Date.now() - 3_600_000;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'repeated-init-'));
    stream = await liveStream(dir, 'live', 6);
    t = await build({ recorder: { settings: { dir: join(dir, 'recordings'), segmentSeconds: 2 }, now: () => clock } });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps one recording across an identical init', async () => {
    const source = fakeSource(CAMERA, 'S1001');
    const tap = t.app.recorder;
    const half = stream.fragments.length / 2;
    tap.init(source, stream.init, STANDARD);
    for (const f of stream.fragments.slice(0, half)) tap.fragment(source, f);
    tap.init(source, { ...stream.init, data: new Uint8Array(stream.init.data) }, STANDARD);
    for (const f of stream.fragments.slice(half)) {
      clock += 100;
      tap.fragment(source, f);
    }
    tap.end(source);
    await tap.settled();
    const token = (await logon(t.app, 'demo')).token;
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/cctv/record/complexQuery/1/20', headers: { [TOKEN_HEADER]: token }, payload: { cameraId: CAMERA } });
    const page = res.json<EnvelopeOf<RecordQueryPage>>().data;
    expect(page.records).toHaveLength(1);
    expect(page.records[0]!.end - page.records[0]!.start).toBeGreaterThanOrEqual(5_500);
  });
});
