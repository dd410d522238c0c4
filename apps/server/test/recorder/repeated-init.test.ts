import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EnvelopeOf, type RecordQueryPage, TOKEN_HEADER } from '@ship-cctv/protocol';
import { type TestApp, build, logon } from '../helpers/build.ts';
import { type LiveStream, STANDARD, fakeSource, liveStream } from './helpers.ts';

const CAMERA = 'S1001-C01-1';

/**
 * The shore recorder at a stream's start: told the init segment it records again (byte for byte),
 * one recording goes on; a recording cut short within its first second (the stream changed at
 * once) is not kept beside the real one.
 */
describe('shore recorder and a repeated init segment', () => {
  let t: TestApp;
  let dir: string;
  let stream: LiveStream;
  let other: LiveStream;
  let clock = Date.now() - 3_600_000;

  const recordings = async (token: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/cctv/record/complexQuery/1/20', headers: { [TOKEN_HEADER]: token }, payload: { cameraId: CAMERA } });
    return res.json<EnvelopeOf<RecordQueryPage>>().data.records;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'repeated-init-'));
    stream = await liveStream(dir, 'live', 6);
    other = await liveStream(dir, 'other', 4);
    t = await build({ recorder: { settings: { dir: join(dir, 'recordings'), segmentSeconds: 2 }, now: () => clock } });
  }, 120_000);
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
    const page = { records: await recordings(token) };
    expect(page.records).toHaveLength(1);
    expect(page.records[0]!.end - page.records[0]!.start).toBeGreaterThanOrEqual(5_500);
  });

  it('keeps no recording of a stream that changed within its first second, only the one after', async () => {
    const source = fakeSource(CAMERA, 'S1001');
    const tap = t.app.recorder;
    const token = (await logon(t.app, 'demo')).token;
    const before = await recordings(token);
    clock += 3_600_000;
    // One picture (0.1 s) of a stream, then another init (another definition): a new recording starts.
    tap.init(source, stream.init, STANDARD);
    tap.fragment(source, stream.fragments[0]!);
    tap.init(source, other.init, { ...STANDARD, id: 5, displayName: 'Low 320×180' });
    for (const f of other.fragments) {
      clock += 100;
      tap.fragment(source, f);
    }
    tap.end(source);
    await tap.settled();
    const after = await recordings(token);
    const added = after.filter((r) => !before.some((b) => b.id === r.id));
    expect(added.map((r) => r.end - r.start)).toHaveLength(1);
    expect(added[0]!.end - added[0]!.start).toBeGreaterThanOrEqual(3_500);
    // Nothing of the short one is left on disk either.
    expect(readdirSync(join(dir, 'recordings')).sort()).toEqual([...before, ...added].map((r) => r.id).sort());
  });
});
