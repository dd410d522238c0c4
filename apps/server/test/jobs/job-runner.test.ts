import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/core/db/client.ts';
import { type JobContext, JobRunner } from '../../src/core/jobs/job-runner.ts';
import { JobStore, OwnerLimitError } from '../../src/core/jobs/repo.ts';
import { Schedules } from '../../src/core/jobs/schedules.ts';
import { type DatabaseKind, freshDatabase } from '../helpers/database.ts';

const log = pino({ level: 'silent' });

/** A handler the test steers: each job waits for the test to let it finish (or fail). */
function steered() {
  const started: JobContext[] = [];
  const release = new Map<string, (r: 'ok' | Error) => void>();
  const handler = {
    run(ctx: JobContext) {
      started.push(ctx);
      return new Promise<Record<string, unknown>>((resolve, reject) => {
        release.set(ctx.job.id, (r) => (r === 'ok' ? resolve({ by: ctx.job.instance }) : reject(r)));
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error));
      });
    },
  };
  return { handler, started, finish: (id: string, r: 'ok' | Error = 'ok') => release.get(id)?.(r) };
}

describe.each<DatabaseKind>(['pglite', 'postgres'])('the job runner on %s', (kind) => {
  let database: Database & { url?: string };
  let store: JobStore;
  const runners: JobRunner[] = [];
  const runner = (opts: Partial<ConstructorParameters<typeof JobRunner>[1]> = {}, on = store) => {
    const r = new JobRunner(on, { log, leaseMs: 600, heartbeatMs: 50, pollMs: 50, ...opts });
    runners.push(r);
    return r;
  };
  const state = async (id: string) => (await store.get(id))?.state;

  beforeAll(async () => {
    database = await freshDatabase(kind);
    store = new JobStore(database.db);
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
  });
  afterAll(async () => {
    await database?.close();
  });

  it('runs a job once with its progress, and keeps its result', async () => {
    const s = steered();
    const r = runner();
    r.register('test.progress', s.handler);
    r.start();
    const job = await r.enqueue({ kind: 'test.progress', owner: 'u1', payload: { n: 1 } });
    if (!job) throw new Error('not enqueued');
    await expect.poll(() => s.started.length).toBe(1);
    s.started[0]?.progress(40);
    await expect.poll(async () => (await store.get(job.id))?.progress).toBe(40);
    expect(await state(job.id)).toBe('running');
    s.finish(job.id);
    await expect.poll(() => state(job.id)).toBe('done');
    expect(await store.get(job.id)).toMatchObject({ progress: 100, attempts: 1, result: { by: r.instance }, payload: { n: 1 } });
    expect(s.started).toHaveLength(1);
  });

  it('cancels a queued job before it runs, and a running one through its signal', async () => {
    const s = steered();
    const r = runner();
    r.register('test.cancel', s.handler);
    r.start();
    const running = await r.enqueue({ kind: 'test.cancel', owner: 'u1', payload: {} });
    const queued = await r.enqueue({ kind: 'test.cancel', owner: 'u1', payload: {} });
    if (!running || !queued) throw new Error('not enqueued');
    await expect.poll(() => s.started.length).toBe(1);
    expect((await store.cancel(queued.id))?.state).toBe('cancelled');
    await store.cancel(running.id);
    await expect.poll(() => state(running.id)).toBe('cancelled');
    expect(s.started[0]?.signal.aborted).toBe(true);
    await r.idle();
    expect(s.started.map((c) => c.job.id)).toEqual([running.id]); // the queued one never ran
    expect((await store.get(queued.id))?.message).toBe('cancelled');
  });

  it('fails a job whose handler throws, with its message', async () => {
    const s = steered();
    const r = runner();
    r.register('test.fail', s.handler);
    r.start();
    const job = await r.enqueue({ kind: 'test.fail', owner: 'u1', payload: {} });
    if (!job) throw new Error('not enqueued');
    await expect.poll(() => s.started.length).toBe(1);
    s.finish(job.id, new Error('nothing was recorded in the requested range'));
    await expect.poll(() => state(job.id)).toBe('failed');
    expect((await store.get(job.id))?.message).toBe('nothing was recorded in the requested range');
  });

  it('takes up a job whose instance died when its lease ends, and one given back by a stopping instance at once', async () => {
    // An instance claimed a job and died: no heartbeat renews its lease.
    const dead = await store.enqueue({ kind: 'test.restart', owner: 'u1', payload: {} });
    if (!dead) throw new Error('not enqueued');
    expect((await store.claim(['test.restart'], 'dead-instance', 300))?.id).toBe(dead.id);
    const s = steered();
    const after = runner({ instance: 'restarted' });
    after.register('test.restart', s.handler);
    after.start();
    await expect.poll(() => s.started.length, { timeout: 5_000 }).toBe(1);
    expect(s.started[0]?.job).toMatchObject({ id: dead.id, instance: 'restarted', attempts: 2 });
    s.finish(dead.id);
    await expect.poll(() => state(dead.id)).toBe('done');

    // A stopping instance gives its running job back; the next one runs it without waiting for a lease.
    const job = await after.enqueue({ kind: 'test.restart', owner: 'u1', payload: {} });
    if (!job) throw new Error('not enqueued');
    await expect.poll(() => s.started.length).toBe(2);
    await after.stop();
    await expect.poll(async () => (await store.get(job.id))?.state).toBe('queued');
    expect(await store.get(job.id)).toMatchObject({ state: 'queued', attempts: 0, instance: null });
    const s2 = steered();
    const next = runner({ instance: 'next', leaseMs: 60_000 });
    next.register('test.restart', s2.handler);
    next.start();
    await expect.poll(() => s2.started.length).toBe(1);
    s2.finish(job.id);
    await expect.poll(() => state(job.id)).toBe('done');
    expect((await store.get(job.id))?.attempts).toBe(1);
  });

  it('gives up on a job whose instances keep dying', async () => {
    const job = await store.enqueue({ kind: 'test.doomed', owner: 'u1', payload: {}, maxAttempts: 2 });
    if (!job) throw new Error('not enqueued');
    await store.claim(['test.doomed'], 'dies-1', 1);
    await new Promise((r) => setTimeout(r, 20));
    await store.claim(['test.doomed'], 'dies-2', 1);
    await new Promise((r) => setTimeout(r, 20));
    expect(await store.claim(['test.doomed'], 'third', 1_000)).toBeUndefined();
    expect(await store.get(job.id)).toMatchObject({ state: 'failed', attempts: 2, message: 'gave up after 2 attempts (the instance running it stopped)' });
  });

  it('takes turns between owners: one owner queuing many delays another by one job at most', async () => {
    const order: string[] = [];
    const r = runner();
    r.register('test.turns', { run: async ({ job }) => void order.push(`${job.owner}:${String(job.payload.n)}`) });
    for (let n = 1; n <= 4; n++) await store.enqueue({ kind: 'test.turns', owner: 'busy', payload: { n } });
    await store.enqueue({ kind: 'test.turns', owner: 'other', payload: { n: 1 } });
    r.start();
    await expect.poll(() => order.length).toBe(5);
    expect(order.indexOf('other:1')).toBeLessThanOrEqual(1);
    expect(order.filter((o) => o.startsWith('busy'))).toEqual(['busy:1', 'busy:2', 'busy:3', 'busy:4']);
  });

  it('runs each job exactly once with two instances on one database, sharing the work', async () => {
    // A second connection pool where the database has one (PostgreSQL); PGlite is one process's.
    const second = database.url ? await openDatabase({ url: database.url }) : undefined;
    try {
      const ran: string[] = [];
      const by = new Map<string, string>();
      const work = (instance: string) => ({
        concurrency: 3,
        run: async ({ job }: JobContext) => {
          ran.push(job.id);
          by.set(job.id, instance);
          await new Promise((res) => setTimeout(res, 20));
        },
      });
      // Leases long enough that none lapses on a loaded machine (one embedded database serves both
      // instances' claims and renewals in turn): a lapsed lease is rightly taken up again, which
      // is another test's subject.
      const a = runner({ instance: 'a', leaseMs: 10_000 });
      const b = runner({ instance: 'b', leaseMs: 10_000 }, second ? new JobStore(second.db) : store);
      a.register('test.shared', work('a'));
      b.register('test.shared', work('b'));
      const ids: string[] = [];
      for (let n = 0; n < 40; n++) {
        const job = await store.enqueue({ kind: 'test.shared', owner: `u${n % 4}`, payload: { n } });
        if (job) ids.push(job.id);
      }
      a.start();
      b.start();
      await expect.poll(async () => (await Promise.all(ids.map(state))).every((s) => s === 'done'), { timeout: 20_000 }).toBe(true);
      expect([...ran].sort()).toEqual([...ids].sort()); // each once
      expect(new Set(by.values())).toEqual(new Set(['a', 'b'])); // both took part
    } finally {
      await Promise.all(runners.splice(0).map((r) => r.stop()));
      await second?.close();
    }
  });

  it("holds an owner's limit of open jobs when two instances enqueue at once", async () => {
    const second = database.url ? await openDatabase({ url: database.url }) : undefined;
    try {
      const stores = [store, second ? new JobStore(second.db) : store];
      const asked = await Promise.allSettled(
        Array.from({ length: 8 }, (_, n) => stores[n % 2]?.enqueue({ kind: 'test.limited', owner: 'ann', payload: { n }, ownerLimit: 3 })),
      );
      expect(asked.filter((a) => a.status === 'fulfilled')).toHaveLength(3);
      for (const a of asked.filter((a) => a.status === 'rejected')) expect(a.reason).toBeInstanceOf(OwnerLimitError);
      expect(await store.openCount('test.limited', 'ann')).toBe(3);
      // Another owner is not held by ann's limit; a finished job frees a place.
      expect(await store.enqueue({ kind: 'test.limited', owner: 'bob', payload: {}, ownerLimit: 3 })).toBeDefined();
      const first = asked.find((a) => a.status === 'fulfilled')?.value;
      if (!first) throw new Error('nothing enqueued');
      await store.cancel(first.id);
      expect(await store.enqueue({ kind: 'test.limited', owner: 'ann', payload: {}, ownerLimit: 3 })).toBeDefined();
      await expect(store.enqueue({ kind: 'test.limited', owner: 'ann', payload: {}, ownerLimit: 3 })).rejects.toThrow(OwnerLimitError);
    } finally {
      await second?.close();
    }
  });

  it('runs a job again with backoff after a transient storage error; any other error, or running out of tries, fails it with a clear message', async () => {
    const timeout = () => Object.assign(new Error('timeout'), { name: 'TimeoutError' });
    const runs = new Map<string, number[]>();
    const notes: (string | null)[] = [];
    const r = runner({ transientRetries: 3, retryFirstMs: 100, retryMaxMs: 400 });
    r.register('test.flaky', {
      concurrency: 3,
      run: async ({ job }) => {
        const times = runs.get(job.id) ?? [];
        times.push(Date.now());
        runs.set(job.id, times);
        notes.push((await store.get(job.id))?.message ?? null);
        const { failures, permanent } = job.payload as { failures: number; permanent?: boolean };
        if (permanent) throw new Error('no such recording');
        if (times.length <= failures) throw timeout();
        return { runs: times.length };
      },
    });
    r.start();
    const recovers = await r.enqueue({ kind: 'test.flaky', owner: 'u1', payload: { failures: 2 } });
    const permanent = await r.enqueue({ kind: 'test.flaky', owner: 'u2', payload: { failures: 0, permanent: true } });
    const never = await r.enqueue({ kind: 'test.flaky', owner: 'u3', payload: { failures: 99 } });
    if (!recovers || !permanent || !never) throw new Error('not enqueued');

    await expect.poll(() => state(recovers.id), { timeout: 10_000 }).toBe('done');
    expect(await store.get(recovers.id)).toMatchObject({ result: { runs: 3 }, message: null, attempts: 1 });
    const [t0, t1, t2] = runs.get(recovers.id)!;
    // Backoff: 100 ms, then 200 ms.
    expect(t1! - t0!).toBeGreaterThanOrEqual(90);
    expect(t2! - t1!).toBeGreaterThanOrEqual(190);
    expect(notes).toContain('storage did not answer (timeout); trying again in 1 s (try 2 of 4)');

    await expect.poll(() => state(permanent.id)).toBe('failed');
    expect((await store.get(permanent.id))?.message).toBe('no such recording');
    expect(runs.get(permanent.id)).toHaveLength(1);

    await expect.poll(() => state(never.id), { timeout: 10_000 }).toBe('failed');
    expect((await store.get(never.id))?.message).toMatch(/^storage did not answer \(timeout\) in 4 tries over \d+ s; gave up$/);
    expect(runs.get(never.id)).toHaveLength(4);
  });

  it('enqueues a scheduled run once however many instances fire it', async () => {
    const r1 = runner({ instance: 's1' });
    const r2 = runner({ instance: 's2' });
    const spec = { name: 'nightly-sweep', pattern: '0 3 * * *', timeZone: 'Asia/Shanghai', kind: 'test.sweep' };
    const at = new Date('2026-11-24T19:00:00.000Z'); // 03:00 in Shanghai
    const fired = await Promise.all([new Schedules(r1, log).fire(spec, at), new Schedules(r2, log).fire(spec, at), new Schedules(r1, log).fire(spec, new Date(at.getTime() + 400))]);
    expect(fired.filter(Boolean)).toHaveLength(1);
    const schedules = new Schedules(r1, log);
    const cron = schedules.add(spec);
    // Read in the schedule's time zone: 03:00 Shanghai is 19:00 UTC the day before.
    expect(cron.nextRun(new Date('2026-11-24T12:00:00Z'))?.toISOString()).toBe('2026-11-24T19:00:00.000Z');
    schedules.stop();
  });
});
