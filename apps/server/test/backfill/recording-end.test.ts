import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSource } from '../../src/modules/live/index.ts';
import { type TestApp, build } from '../helpers/build.ts';
import { type LiveStream, fakeSource, feed, liveStream } from '../recorder/helpers.ts';
import { BackfillRepo } from '../../src/modules/backfill/repo.ts';

/**
 * How a shore recording ended decides whether the time after it is a gap to refill: a recording
 * whose stream stopped because its last viewer left is not followed by a gap; one whose stream
 * ended while watched (the link went, the ship ended it) or that the closing server cut is.
 */
describe('how a shore recording ended', () => {
  let t: TestApp;
  let dir: string;
  let stream: LiveStream;
  const repo = () => new BackfillRepo(t.app.database.db);
  const source = (cameraId: string, stopped: boolean) => ({ ...fakeSource(cameraId, 'S1001'), isStopped: stopped }) as unknown as LiveSource;
  const lastRun = async (cameraId: string) => (await repo().runs(cameraId, 0)).at(-1);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'recording-end-'));
    stream = await liveStream(dir, 'live', 4);
    t = await build({ recorder: { settings: { dir: join(dir, 'rec'), segmentSeconds: 2 } } });
  });
  afterAll(async () => {
    await t?.app.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('marks a recording whose viewers left, and not one cut short by the link', async () => {
    feed(t.app.recorder, source('S1001-C01-1', true), stream);
    feed(t.app.recorder, source('S1001-C02-1', false), stream);
    await t.app.recorder.settled();
    expect(await lastRun('S1001-C01-1')).toMatchObject({ endedUnwatched: true, backfilled: false, open: false });
    expect(await lastRun('S1001-C02-1')).toMatchObject({ endedUnwatched: false, backfilled: false, open: false });
  });

  it('does not mark the recordings a closing server stops, though their streams stop for good', async () => {
    const watched = source('S1001-C03-1', false);
    feed(t.app.recorder, watched, stream, undefined, false);
    // The server closes: the live service tells its taps, then stops every stream for good.
    t.app.recorder.closing();
    Object.assign(watched, { isStopped: true });
    t.app.recorder.end(watched);
    await t.app.recorder.settled();
    expect(await lastRun('S1001-C03-1')).toMatchObject({ endedUnwatched: false, open: false });
  });
});
