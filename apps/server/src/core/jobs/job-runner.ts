import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { backoffMs, isTransientStorageError } from '../storage/transient.ts';
import { type JobRow, type JobStore, type NewJob } from './repo.ts';

/** How long a stopping runner waits for its running jobs to be given back to the queue. */
const GIVE_BACK_WAIT_MS = 2_000;

/** What a handler gets to run one job. */
export interface JobContext {
  job: JobRow;
  /** Aborted when the job is cancelled, the instance stops, or the job was taken from it. */
  signal: AbortSignal;
  /** 0–100; written with the next lease renewal. */
  progress(percent: number): void;
}

export interface JobHandler {
  /** Runs the job; its resolved value is the job's result. Throwing fails the job (with the error's message). */
  run(ctx: JobContext): Promise<Record<string, unknown> | void>;
  /** Jobs of this kind one instance runs at once. Default 1. */
  concurrency?: number;
  /** Times a run that failed on a transient storage error is tried again. Default the runner's `transientRetries`. */
  transientRetries?: number;
}

export interface JobRunnerOptions {
  log: FastifyBaseLogger;
  /** How long a claim holds without renewal; a dead instance's jobs are taken up after it. Default 30 s. */
  leaseMs?: number;
  /** How often the lease is renewed and progress written. Default leaseMs / 3. */
  heartbeatMs?: number;
  /** How often the table is looked at for work (new work enqueued here wakes it at once). Default 1 s. */
  pollMs?: number;
  /** Names this instance in the table. Default a random id. */
  instance?: string;
  /**
   * A run that fails on a transient storage error (the store timed out, its connection dropped) is
   * tried again this many times, keeping its claim, after `retryFirstMs` doubling up to
   * `retryMaxMs`. Defaults 6, 2 s and 60 s (about two minutes of waiting in all).
   */
  transientRetries?: number;
  retryFirstMs?: number;
  retryMaxMs?: number;
}

/**
 * Runs persisted jobs. Features register a handler per kind (clip export, picture transfer, …);
 * the runner claims jobs of those kinds from the jobs table — each job by exactly one instance,
 * taking turns between owners — runs them with progress and cancel, and renews their leases, so a
 * job whose instance died is taken up again elsewhere (or here after a restart). A run that fails
 * because storage did not answer (a timeout, a dropped connection) is tried again with backoff
 * while the job stays claimed (its message says so); any other error fails the job at once.
 */
export class JobRunner {
  readonly store: JobStore;
  readonly instance: string;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly running = new Map<string, { kind: string; abort: AbortController; done: Promise<void> }>();
  private readonly leaseMs: number;
  private readonly heartbeatMs: number;
  private readonly pollMs: number;
  private timer: NodeJS.Timeout | undefined;
  private pumping: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private idleWaiters: (() => void)[] = [];
  private readonly givingBack = new Set<Promise<void>>();

  constructor(
    store: JobStore,
    private readonly opts: JobRunnerOptions,
  ) {
    this.store = store;
    this.instance = opts.instance ?? randomUUID();
    this.leaseMs = opts.leaseMs ?? 30_000;
    this.heartbeatMs = opts.heartbeatMs ?? Math.max(50, Math.floor(this.leaseMs / 3));
    this.pollMs = opts.pollMs ?? 1_000;
  }

  register(kind: string, handler: JobHandler): void {
    if (this.handlers.has(kind)) throw new Error(`a handler for ${kind} jobs is registered already`);
    this.handlers.set(kind, handler);
    this.wake();
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.wake();
  }

  /** Adds a job and looks for work at once. */
  async enqueue(job: NewJob): Promise<JobRow | undefined> {
    const row = await this.store.enqueue(job);
    this.wake();
    return row;
  }

  /**
   * Cancels a job: a queued one never runs; one running on this instance stops at once (its
   * handler's signal is aborted), one running elsewhere at that instance's next heartbeat.
   */
  async cancel(id: string): Promise<JobRow | undefined> {
    const row = await this.store.cancel(id);
    this.running.get(id)?.abort.abort(new Error('cancelled'));
    return row;
  }

  /**
   * Stops claiming; running jobs are aborted and given back to the queue (another instance, or this
   * one restarted, takes them up). Does not wait for the database: with it away (an outage) a claim
   * in flight could hang, and a job it returns later is given back.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const r of this.running.values()) r.abort.abort(new Error('the server is stopping'));
    await Promise.all([...this.running.values()].map((r) => r.done));
    // Give-backs get a moment (so a restart takes the jobs up at once), not forever.
    await Promise.race([Promise.all(this.givingBack), new Promise((r) => setTimeout(r, GIVE_BACK_WAIT_MS).unref())]);
    this.wakeIdle();
  }

  /** Resolves when this instance runs nothing and found nothing more to claim. */
  idle(): Promise<void> {
    if (this.running.size === 0 && !this.pumping) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Looks for work now (after an enqueue, a finished job, or the poll interval). */
  private wake(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pumping = this.pump()
      .catch((err: unknown) => this.opts.log.error({ err }, 'claiming jobs failed'))
      .finally(() => {
        this.pumping = undefined;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.wake();
          return;
        }
        if (this.running.size === 0) this.wakeIdle();
        this.timer = setTimeout(() => this.wake(), this.pollMs);
        this.timer.unref();
      });
  }

  private async pump(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const kinds = [...this.handlers.entries()].filter(([kind, h]) => this.runningOf(kind) < (h.concurrency ?? 1)).map(([kind]) => kind);
      const job = await this.store.claim(kinds, this.instance, this.leaseMs);
      if (!job) return;
      if (this.stopped) {
        this.giveBack(job);
        return;
      }
      this.begin(job);
    }
  }

  private runningOf(kind: string): number {
    let n = 0;
    for (const r of this.running.values()) if (r.kind === kind) n++;
    return n;
  }

  private begin(job: JobRow): void {
    const handler = this.handlers.get(job.kind);
    if (!handler) return;
    const abort = new AbortController();
    let progress = job.progress;
    const beat = setInterval(() => {
      this.store
        .heartbeat(job.id, this.instance, this.leaseMs, progress)
        .then(({ cancel }) => {
          if (cancel && !abort.signal.aborted) abort.abort(new Error('cancelled'));
        })
        .catch((err: unknown) => this.opts.log.warn({ err, jobId: job.id }, 'renewing a job lease failed'));
    }, this.heartbeatMs);
    beat.unref();
    const done = (async () => {
      try {
        const result = await this.runWithRetries(handler, { job, signal: abort.signal, progress: (p) => (progress = Math.max(progress, p)) });
        await this.store.finish(job.id, this.instance, { state: 'done', ...(result ? { result } : {}) });
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        if (this.stopped && abort.signal.aborted) {
          // Stopping: back to the queue, for another instance (or this one restarted) to take up.
          this.giveBack(job);
        } else if (abort.signal.aborted && (await this.store.get(job.id))?.cancelRequested) {
          await this.store.finish(job.id, this.instance, { state: 'cancelled', message: 'cancelled' });
        } else {
          this.opts.log.warn({ err, jobId: job.id, kind: job.kind }, 'job failed');
          await this.store.finish(job.id, this.instance, { state: 'failed', message });
        }
      } finally {
        clearInterval(beat);
        this.running.delete(job.id);
        this.wake();
      }
    })();
    this.running.set(job.id, { kind: job.kind, abort, done });
  }

  /**
   * Runs the handler; a run that fails on a transient storage error is run again after a backoff
   * (the lease is renewed meanwhile, cancel and stop still abort it). Out of tries, the job fails
   * with what storage last said and how long it was tried.
   */
  private async runWithRetries(handler: JobHandler, ctx: JobContext): Promise<Record<string, unknown> | void> {
    const retries = handler.transientRetries ?? this.opts.transientRetries ?? 6;
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        return await handler.run(ctx);
      } catch (err) {
        if (ctx.signal.aborted || !isTransientStorageError(err)) throw err;
        const message = err instanceof Error ? err.message : String(err);
        if (attempt > retries) {
          throw new Error(`storage did not answer (${message}) in ${attempt} tries over ${Math.round((Date.now() - started) / 1000)} s; gave up`, { cause: err });
        }
        const wait = backoffMs(attempt, this.opts.retryFirstMs ?? 2_000, this.opts.retryMaxMs ?? 60_000);
        this.opts.log.warn({ err, jobId: ctx.job.id, kind: ctx.job.kind, attempt, retryInMs: wait }, 'job: storage did not answer; trying again');
        await this.store
          .note(ctx.job.id, this.instance, `storage did not answer (${message}); trying again in ${Math.ceil(wait / 1000)} s (try ${attempt + 1} of ${retries + 1})`)
          .catch(() => undefined);
        await abortableSleep(wait, ctx.signal);
      }
    }
  }

  /** Back to the queue without waiting (the database may be away; then the lease ends instead). */
  private giveBack(job: JobRow): void {
    const done = this.store
      .release(job.id, this.instance)
      .then(() => this.opts.log.info({ jobId: job.id, kind: job.kind }, 'job given back to the queue: the server is stopping'))
      .catch((err: unknown) => this.opts.log.warn({ err, jobId: job.id }, 'giving a job back failed; its lease will end'))
      .finally(() => this.givingBack.delete(done));
    this.givingBack.add(done);
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}

/** Waits `ms`; rejects with the signal's reason as soon as it is aborted. */
function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
