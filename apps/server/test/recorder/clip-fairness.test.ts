import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { JobRunner } from '../../src/core/jobs/job-runner.ts';
import { JobStore } from '../../src/core/jobs/repo.ts';
import { ClipLimitError, ClipService } from '../../src/modules/recorder/clip.ts';
import { loadExportKey } from '../../src/modules/recorder/export-signing.ts';
import { type DatabaseKind, freshDatabase } from '../helpers/database.ts';

type Db = Awaited<ReturnType<typeof freshDatabase>>;

/** Clip jobs that end at once (nothing recorded in their range): what matters here is their order. */
describe.each<DatabaseKind>(['pglite', 'postgres'])('clip jobs between users on %s', (kind) => {
  let database: Db;
  let runner: JobRunner | undefined;
  beforeAll(async () => {
    database = await freshDatabase(kind);
  });
  afterEach(async () => {
    await runner?.stop();
  });
  afterAll(async () => {
    await database?.close();
  });

  function service(perUserLimit: number) {
    const order: string[] = [];
    runner = new JobRunner(new JobStore(database.db), { log: pino({ level: 'silent' }), pollMs: 20 });
    const clips = new ClipService({
      root: '/nonexistent',
      keepMs: 60_000,
      log: pino({ level: 'silent' }),
      jobs: runner,
      perUserLimit,
      exportKey: loadExportKey({}),
      segments: async (recordingId) => {
        order.push(recordingId);
        await new Promise((r) => setTimeout(r, 2));
        return [];
      },
    });
    const ask = (user: string, n: number) => clips.create({ id: `${user}-${n}`, orgId: 'o', cameraId: 'c' }, 0, 1_000, user);
    return { clips, order, ask, runner };
  }

  it("one user's flood of clips delays another user's by at most one clip", async () => {
    const { order, ask, runner, clips } = service(500);
    let last: Awaited<ReturnType<typeof ask>> | undefined;
    for (let i = 0; i < 200; i++) last = await ask('flood', i);
    await ask('other', 0);
    await ask('third', 0);
    runner.start();
    await expect.poll(() => order.length, { timeout: 20_000 }).toBe(202);
    // The last clip ends too before the runner stops: a job still running at stop goes back to the
    // queue, and the next test's runner would take it up.
    await expect.poll(async () => (await clips.get(last?.id ?? ''))?.job.state, { timeout: 10_000 }).toBe('failed');
    // The flood's first clip goes first; the others' clips come right after it.
    expect(order.indexOf('other-0')).toBeLessThanOrEqual(2);
    expect(order.indexOf('third-0')).toBeLessThanOrEqual(3);
    // Each user's own clips keep their order.
    const flood = order.filter((id) => id.startsWith('flood-'));
    expect(flood).toEqual(Array.from({ length: 200 }, (_, i) => `flood-${i}`));
  });

  it('refuses a user more clips waiting or running than the limit, and takes more once one is done', async () => {
    const { clips, ask, runner, order } = service(3);
    const ann = await Promise.all([0, 1, 2].map((i) => ask('ann', i)));
    await expect(ask('ann', 3)).rejects.toThrow(ClipLimitError);
    await expect(ask('ann', 3)).rejects.toThrow(/3 clips waiting/);
    // Another user is not held by ann's limit.
    expect((await ask('bob', 0)).state).toBe('queued');
    runner.start();
    await expect.poll(() => order.length, { timeout: 10_000 }).toBe(4);
    await expect.poll(async () => (await clips.get(ann[2]?.id ?? ''))?.job.state).toBe('failed');
    expect((await clips.get(ann[0]?.id ?? ''))?.job.message).toBe('nothing was recorded in the requested range');
    expect((await ask('ann', 4)).state).toBe('queued');
  });

  it('holds the limit when a user asks for many clips at once', async () => {
    const { ask } = service(3);
    const asked = await Promise.allSettled([0, 1, 2, 3, 4, 5].map((i) => ask('eve', i)));
    expect(asked.filter((a) => a.status === 'fulfilled')).toHaveLength(3);
    const refused = asked.filter((a) => a.status === 'rejected');
    expect(refused).toHaveLength(3);
    for (const r of refused) expect(r.reason).toBeInstanceOf(ClipLimitError);
  });
});
