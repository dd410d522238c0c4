import { existsSync, statSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import { type EnhanceJob, ENHANCE_MAX_INPUT } from '@ship-cctv/protocol';
import type { JobContext, JobRunner } from '../../../core/jobs/job-runner.ts';
import { type JobRow, OwnerLimitError } from '../../../core/jobs/repo.ts';
import { ApiError, badRequest, forbidden, notFound } from '../../../core/http/envelope.ts';
import type { Access } from '../../../core/orgs/access.ts';
import type { PictureFiles } from '../picture-files.ts';
import type { PictureIndex } from '../repo.ts';
import { forkEnhancement } from './enhance-child.ts';
import type { Scale } from './esrgan.ts';

export const ENHANCE_JOB_KIND = 'picture.enhance';
/** Enhancements one user may have waiting or running. */
export const ENHANCE_PER_USER = 4;

interface EnhancePayload {
  pictureId: string;
  scale: Scale;
  /** The result, relative to the pictures folder. */
  output: string;
}

export interface EnhanceServiceDeps {
  files: PictureFiles;
  index: PictureIndex;
  jobs: JobRunner;
  log: FastifyBaseLogger;
  /** Enhancements this instance runs at once (each in a process of its own). Default 1. */
  concurrency?: number;
}

/** Where an enhancement is kept: beside the picture, `<id>.x2.jpg`. */
export function enhancedPath(pictureFile: string, scale: Scale): string {
  return pictureFile.replace(/\.jpg$/, `.x${scale}.jpg`);
}

/**
 * AI super-resolution of pictures on shore (spec §7 "AI super-resolution"): each request is a
 * persisted job (`picture.enhance`), run one (or `concurrency`) at a time per instance, each in a
 * child process (enhance-process.ts) that reports progress per tile; cancel kills that process at
 * once. A job interrupted by a restart goes back to the queue (the job runner's leases) and runs
 * again, at most twice in all. The result is stored beside the picture.
 */
export class EnhanceService {
  /** Progress of the jobs running here, as the tiles go (the jobs table has it at each heartbeat). */
  private readonly live = new Map<string, number>();

  constructor(private readonly deps: EnhanceServiceDeps) {
    deps.jobs.register(ENHANCE_JOB_KIND, { concurrency: deps.concurrency ?? 1, run: (ctx) => this.run(ctx) });
  }

  /** Queues an enhancement of a picture shore holds; 400 for a picture too large for the scale. */
  async commit(access: Access, pictureId: string, scale: Scale, owner: string): Promise<EnhanceJob> {
    const picture = await this.deps.index.get(pictureId);
    if (!picture) throw notFound('Picture');
    if (!access.visibleOrgIds.has(picture.orgId)) throw forbidden();
    const max = ENHANCE_MAX_INPUT[scale];
    if (picture.width * picture.height > max.width * max.height) {
      throw badRequest(`×${scale} takes pictures of up to ${max.width}×${max.height} (a ${max.width * scale}×${max.height * scale} result); this one is ${picture.width}×${picture.height}`);
    }
    const payload: EnhancePayload = { pictureId, scale, output: enhancedPath(picture.file, scale) };
    const row = await this.deps.jobs
      .enqueue({ kind: ENHANCE_JOB_KIND, owner, orgId: picture.orgId, payload: { ...payload }, maxAttempts: 2, ownerLimit: ENHANCE_PER_USER })
      .catch((err: unknown) => {
        throw err instanceof OwnerLimitError ? new ApiError(429, `at most ${ENHANCE_PER_USER} enhancements of yours can wait or run at once`) : err;
      });
    if (!row) throw new ApiError(500, 'the enhancement could not be queued');
    return view(row);
  }

  async status(access: Access, jobId: string): Promise<EnhanceJob> {
    const job = view(await this.require(access, jobId));
    const live = this.live.get(jobId);
    return job.state === 'running' && live !== undefined ? { ...job, progress: Math.max(job.progress, live) } : job;
  }

  async cancel(access: Access, jobId: string): Promise<EnhanceJob> {
    await this.require(access, jobId);
    const row = await this.deps.jobs.cancel(jobId);
    if (!row) throw notFound('Enhancement');
    return view(row);
  }

  /** The enhanced JPEG of a finished job. */
  async result(access: Access, jobId: string): Promise<{ bytes: Buffer; fileName: string }> {
    const row = await this.require(access, jobId);
    const payload = row.payload as unknown as EnhancePayload;
    if (row.state !== 'done') throw notFound(`The enhancement's result (it is ${row.state})`);
    const bytes = await this.deps.files.read(payload.output);
    if (!bytes) throw notFound('The enhanced picture (removed with its picture)');
    return { bytes, fileName: `${payload.pictureId}-x${payload.scale}.jpg` };
  }

  private async require(access: Access, jobId: string): Promise<JobRow> {
    const row = await this.deps.jobs.store.get(jobId);
    if (!row || row.kind !== ENHANCE_JOB_KIND) throw notFound('Enhancement');
    if (!access.visibleOrgIds.has(row.orgId ?? '')) throw forbidden();
    return row;
  }

  private async run(ctx: JobContext): Promise<Record<string, unknown>> {
    const payload = ctx.job.payload as unknown as EnhancePayload;
    const picture = await this.deps.index.get(payload.pictureId);
    if (!picture) throw new Error('the picture is gone (retention)');
    // The picture may have been stored by another instance: the process reads it from this one's folder.
    const input = await this.deps.files.local(picture.file);
    const output = this.deps.files.path(payload.output);
    // Already made (a job given back after it wrote its result): nothing to do again.
    if (existsSync(output) && statSync(output).size > 0) {
      await this.deps.files.share(payload.output);
      return { output: payload.output, bytes: statSync(output).size };
    }
    const child = forkEnhancement();
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    return new Promise((resolve, reject) => {
      let settled = false;
      let made = false;
      const finish = (err: Error | undefined, value?: Record<string, unknown>) => {
        if (settled) return;
        settled = true;
        ctx.signal.removeEventListener('abort', onAbort);
        this.live.delete(ctx.job.id);
        if (child.exitCode === null) child.kill('SIGKILL');
        if (err) reject(err);
        else resolve(value ?? {});
      };
      const onAbort = () => finish(ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error('cancelled'));
      ctx.signal.addEventListener('abort', onAbort);
      child.on('message', (m: { progress?: number; finished?: boolean; width?: number; height?: number; bytes?: number; failed?: string }) => {
        if (typeof m.progress === 'number') {
          ctx.progress(Math.min(99, m.progress));
          this.live.set(ctx.job.id, Math.min(99, m.progress));
        }
        else if (m.finished) {
          made = true;
          const result = { output: payload.output, width: m.width, height: m.height, bytes: m.bytes };
          // Shared before the job is done, so the result is there for whichever instance is asked for it.
          this.deps.files.share(payload.output).then(
            () => finish(undefined, result),
            (err: unknown) => finish(new Error(`the shared store did not take the result: ${err instanceof Error ? err.message : String(err)}`)),
          );
        }
        else if (m.failed) finish(new Error(`the model failed: ${m.failed}`));
      });
      // Once the result is made, the process may end while the result is being shared.
      child.on('exit', (code, signal) => made || finish(new Error(`the enhancement process ended (${signal ?? `exit ${code}`}) ${stderr.trim()}`.trim())));
      child.send({ input, output, scale: payload.scale });
      if (ctx.signal.aborted) onAbort();
    });
  }
}

function view(row: JobRow): EnhanceJob {
  const payload = row.payload as unknown as EnhancePayload;
  const result = (row.result ?? {}) as { width?: number; height?: number; bytes?: number };
  return {
    jobId: row.id,
    pictureId: payload.pictureId,
    scale: payload.scale,
    state: row.state as EnhanceJob['state'],
    progress: row.state === 'done' ? 100 : row.progress,
    message: row.message,
    width: result.width ?? null,
    height: result.height ?? null,
    bytes: result.bytes ?? null,
  };
}
