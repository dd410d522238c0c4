import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import * as t from '../db/schema.ts';

export type JobRow = typeof t.jobs.$inferSelect;
export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
export const OPEN_STATES: readonly JobState[] = ['queued', 'running'];

export interface NewJob {
  /** The job's id when the caller must name it before it exists (a row pointing at its job). Default a random UUID. */
  id?: string;
  kind: string;
  owner: string;
  orgId?: string | null;
  payload: Record<string, unknown>;
  maxAttempts?: number;
  /** A scheduled run's key: a second job with the same key is not created. */
  uniqueKey?: string;
  /** Jobs of this kind the owner may have queued or running at once; one more throws {@link OwnerLimitError}. */
  ownerLimit?: number;
}

/** An owner already has as many open jobs of a kind as its enqueue allowed. */
export class OwnerLimitError extends Error {
  constructor(
    readonly kind: string,
    readonly owner: string,
    readonly limit: number,
  ) {
    super(`${owner} already has ${limit} ${kind} jobs queued or running`);
    this.name = 'OwnerLimitError';
  }
}

/**
 * The jobs table: enqueue, claim (one instance per job, `FOR UPDATE SKIP LOCKED`, fair between
 * owners), renew a lease with progress, finish, cancel. Times of leases are the database's
 * (`now()`), so instances whose clocks differ agree on when a lease has ended.
 */
export class JobStore {
  constructor(private readonly db: Db) {}

  /**
   * Adds a job; with a `uniqueKey` already taken, nothing is added and undefined returned. With an
   * `ownerLimit`, the count and the insert hold a lock on the owner and kind (a transaction-scoped
   * advisory lock), so requests arriving together, on one instance or several, cannot pass it.
   */
  async enqueue(job: NewJob): Promise<JobRow | undefined> {
    const limit = job.ownerLimit;
    if (limit === undefined) return this.insert(this.db, job);
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`jobs:${job.kind}:${job.owner}`}))`);
      if ((await this.openCount(job.kind, job.owner, tx)) >= limit) throw new OwnerLimitError(job.kind, job.owner, limit);
      return this.insert(tx, job);
    });
  }

  private async insert(db: Pick<Db, 'insert'>, job: NewJob): Promise<JobRow | undefined> {
    const [row] = await db
      .insert(t.jobs)
      .values({
        id: job.id ?? randomUUID(),
        kind: job.kind,
        owner: job.owner,
        orgId: job.orgId ?? null,
        payload: job.payload,
        maxAttempts: job.maxAttempts ?? 3,
        uniqueKey: job.uniqueKey ?? null,
      })
      .onConflictDoNothing({ target: t.jobs.uniqueKey })
      .returning();
    return row;
  }

  get(id: string): Promise<JobRow | undefined> {
    return this.db.query.jobs.findFirst({ where: eq(t.jobs.id, id) });
  }

  /** Jobs of a kind an owner has queued or running. */
  async openCount(kind: string, owner: string, db: Pick<Db, 'select'> = this.db): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(t.jobs)
      .where(and(eq(t.jobs.kind, kind), eq(t.jobs.owner, owner), inArray(t.jobs.state, [...OPEN_STATES])));
    return row?.n ?? 0;
  }

  /**
   * Claims the next job of these kinds for `instance`: a queued one, or a running one whose lease
   * has ended (its instance died). Owners take turns: the job comes from the owner whose last job
   * started longest ago (or never), then the first of theirs enqueued. A job out of attempts is failed
   * instead of claimed.
   */
  async claim(kinds: readonly string[], instance: string, leaseMs: number): Promise<JobRow | undefined> {
    if (kinds.length === 0) return undefined;
    // One statement, no explicit transaction: a connection lost mid-claim (a database outage)
    // fails the statement and nothing is left half done.
    const lastStart = sql`(select max(j2.started_at) from ${t.jobs} j2 where j2.owner = ${t.jobs.owner})`;
    const next = this.db
      .select({ id: t.jobs.id })
      .from(t.jobs)
      .where(
        and(
          inArray(t.jobs.kind, [...kinds]),
          or(eq(t.jobs.state, 'queued'), and(eq(t.jobs.state, 'running'), lt(t.jobs.leaseUntil, sql`now()`))),
        ),
      )
      .orderBy(sql`${lastStart} asc nulls first`, asc(t.jobs.seq))
      .limit(1)
      .for('update', { skipLocked: true });
    const spent = sql`${t.jobs.attempts} >= ${t.jobs.maxAttempts}`;
    for (;;) {
      const [row] = await this.db
        .update(t.jobs)
        .set({
          state: sql`case when ${spent} then 'failed' else 'running' end`,
          message: sql`case when ${spent} then 'gave up after ' || ${t.jobs.attempts} || ' attempts (the instance running it stopped)' else ${t.jobs.message} end`,
          finishedAt: sql`case when ${spent} then now() else null end`,
          instance: sql`case when ${spent} then null else ${instance} end`,
          attempts: sql`case when ${spent} then ${t.jobs.attempts} else ${t.jobs.attempts} + 1 end`,
          leaseUntil: sql`case when ${spent} then null else now() + ${`${leaseMs} milliseconds`}::interval end`,
          startedAt: sql`case when ${spent} then ${t.jobs.startedAt} else now() end`,
        })
        .where(inArray(t.jobs.id, next))
        .returning();
      // Out of attempts: failed instead of claimed; look for the next one.
      if (row?.state === 'failed') continue;
      return row;
    }
  }

  /** Renews the lease of a job this instance runs and records its progress; says whether cancel was asked (or the job was lost). */
  async heartbeat(id: string, instance: string, leaseMs: number, progress: number): Promise<{ cancel: boolean }> {
    const [row] = await this.db
      .update(t.jobs)
      .set({ leaseUntil: sql`now() + ${`${leaseMs} milliseconds`}::interval`, progress: Math.max(0, Math.min(100, Math.floor(progress))) })
      .where(and(eq(t.jobs.id, id), eq(t.jobs.instance, instance), eq(t.jobs.state, 'running')))
      .returning({ cancel: t.jobs.cancelRequested });
    return { cancel: row === undefined || row.cancel };
  }

  /** Says what a running job is doing (e.g. waiting to try again) in its message, which finishing replaces. */
  async note(id: string, instance: string, message: string): Promise<void> {
    await this.db
      .update(t.jobs)
      .set({ message })
      .where(and(eq(t.jobs.id, id), eq(t.jobs.instance, instance), eq(t.jobs.state, 'running')));
  }

  async finish(id: string, instance: string, outcome: { state: 'done'; result?: Record<string, unknown> } | { state: 'failed' | 'cancelled'; message: string }): Promise<void> {
    await this.db
      .update(t.jobs)
      .set({
        state: outcome.state,
        ...(outcome.state === 'done' ? { progress: 100, result: outcome.result ?? null, message: null } : { message: outcome.message }),
        finishedAt: sql`now()`,
        leaseUntil: null,
      })
      .where(and(eq(t.jobs.id, id), eq(t.jobs.instance, instance), eq(t.jobs.state, 'running')));
  }

  /** Gives a running job back to the queue (the instance is stopping): another instance, or this one restarted, takes it up at once. */
  async release(id: string, instance: string): Promise<void> {
    await this.db
      .update(t.jobs)
      .set({ state: 'queued', instance: null, leaseUntil: null, attempts: sql`greatest(${t.jobs.attempts} - 1, 0)` })
      .where(and(eq(t.jobs.id, id), eq(t.jobs.instance, instance), eq(t.jobs.state, 'running')));
  }

  /** Asks a job to stop: a queued one is cancelled at once, a running one by its instance at its next heartbeat. */
  async cancel(id: string): Promise<JobRow | undefined> {
    const [queued] = await this.db
      .update(t.jobs)
      .set({ state: 'cancelled', message: 'cancelled', cancelRequested: true, finishedAt: sql`now()` })
      .where(and(eq(t.jobs.id, id), eq(t.jobs.state, 'queued')))
      .returning();
    if (queued) return queued;
    const [running] = await this.db.update(t.jobs).set({ cancelRequested: true }).where(and(eq(t.jobs.id, id), eq(t.jobs.state, 'running'))).returning();
    return running ?? (await this.get(id));
  }

  /** Finished jobs of a kind older than `ms`, for their owner to clean up after. */
  async finishedBefore(kind: string, ms: number): Promise<JobRow[]> {
    return this.db
      .select()
      .from(t.jobs)
      .where(and(eq(t.jobs.kind, kind), inArray(t.jobs.state, ['done', 'failed', 'cancelled']), lt(t.jobs.finishedAt, sql`now() - ${`${ms} milliseconds`}::interval`)));
  }

  /** The result of the kind's job that finished last with success (a scheduled job's running total). */
  async latestResult(kind: string): Promise<Record<string, unknown> | undefined> {
    const [row] = await this.db
      .select({ result: t.jobs.result })
      .from(t.jobs)
      .where(and(eq(t.jobs.kind, kind), eq(t.jobs.state, 'done')))
      .orderBy(desc(t.jobs.finishedAt))
      .limit(1);
    return row?.result ?? undefined;
  }

  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.db.delete(t.jobs).where(inArray(t.jobs.id, [...ids]));
  }
}
