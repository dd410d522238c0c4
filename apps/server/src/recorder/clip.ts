import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { ClipJob } from '@ship-cctv/protocol';
import { RelaySplitter, type InitSegment, type MediaFragment } from '../media/fmp4.ts';
import { CLIPS_FOLDER } from './recovery.ts';
import type { SegmentRow } from './store.ts';

/**
 * Clips: a range of a recording exported as one MP4 with `moov` at the front (plays while it
 * downloads). The covering segments' fragments are fed to ffmpeg on stdin as one fMP4 stream
 * (their common init segment once), from the last keyframe at or before the start. With keyframes
 * at most a second apart the stream is copied (the clip may begin up to a second early);
 * otherwise it is re-encoded from the exact start.
 */

/** A keyframe further than this before the start makes the clip re-encode rather than copy. */
export const COPY_TOLERANCE_MS = 1_000;
const STDERR_TAIL = 2_000;
const TIMEOUT_MS = 10 * 60_000;

export interface ClipPlan {
  /** Seconds from the first fed frame to the requested start (re-encode only). */
  offsetSeconds: number;
  /** Seconds of output. */
  durationSeconds: number;
  reencode: boolean;
}

/** ffmpeg's arguments for a clip read from stdin (pure; tested against exact command lines). */
export function clipArgs(output: string, plan: ClipPlan): string[] {
  const codec = plan.reencode
    ? ['-ss', plan.offsetSeconds.toFixed(3), '-t', plan.durationSeconds.toFixed(3), '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p']
    : ['-c', 'copy'];
  return [
    '-hide_banner', '-nostdin', '-nostats', '-loglevel', 'error',
    '-f', 'mp4', '-i', 'pipe:0',
    '-map', '0:v:0', '-an', '-sn', '-dn',
    ...codec,
    '-movflags', '+faststart',
    '-progress', 'pipe:1',
    '-y', '-f', 'mp4', output,
  ];
}

interface TimedFragment {
  time: number;
  fragment: MediaFragment;
}

/** A segment file's init and fragments, each fragment with its recorded time (epoch ms). */
export async function readSegmentUnits(root: string, segment: Pick<SegmentRow, 'file' | 'startMs'>): Promise<{ init: InitSegment; fragments: TimedFragment[] }> {
  const splitter = new RelaySplitter();
  const units = splitter.push(await readFile(join(root, segment.file)));
  splitter.end();
  let init: InitSegment | undefined;
  const fragments: TimedFragment[] = [];
  let firstTick: number | undefined;
  for (const u of units) {
    if (u.kind === 'init') init = u;
    else if (u.kind === 'fragment' && init) {
      firstTick ??= u.baseMediaDecodeTime;
      fragments.push({ time: segment.startMs + ((u.baseMediaDecodeTime - firstTick) * 1000) / init.timescale, fragment: u });
    }
  }
  if (!init) throw new Error(`segment ${segment.file} has no init segment`);
  return { init, fragments };
}

interface JobState extends ClipJob {
  orgId: string;
  /** Who asked: each user's jobs take turns with everyone else's. */
  userId: string;
  fileName: string;
  output: string;
  finishedAt: number | undefined;
}

export interface ClipServiceDeps {
  root: string;
  segments(recordingId: string): Promise<SegmentRow[]>;
  /** How long a finished clip stays downloadable. */
  keepMs: number;
  log: FastifyBaseLogger;
  now?: () => number;
  /** Clips one user may have queued or running at once (default 3). */
  perUserLimit?: number;
}

/** A user asked for more clips than may wait at once. */
export class ClipLimitError extends Error {
  constructor(readonly limit: number) {
    super(`you already have ${limit} clips waiting or being exported; wait for one to finish`);
    this.name = 'ClipLimitError';
  }
}

/**
 * Clip jobs of this server instance: queued per user, run one at a time taking turns between users
 * (one user queuing many clips delays nobody else by more than one clip), kept for a while once done.
 */
export class ClipService {
  private readonly jobs = new Map<string, JobState>();
  /** Waiting jobs per user, in the order each user asked. */
  private readonly waiting = new Map<string, JobState[]>();
  /** Users in turn order: the next clip comes from the first user here with one waiting. */
  private readonly turns: string[] = [];
  private active: Promise<void> | undefined;
  private idleWaiters: (() => void)[] = [];
  private readonly running = new Set<ReturnType<typeof spawn>>();
  private closed = false;

  constructor(private readonly deps: ClipServiceDeps) {}

  private get now(): number {
    return (this.deps.now ?? Date.now)();
  }

  create(recording: { id: string; orgId: string; cameraId: string }, start: number, end: number, userId: string): ClipJob {
    this.sweep();
    const limit = this.deps.perUserLimit ?? 3;
    const open = [...this.jobs.values()].filter((j) => j.userId === userId && (j.state === 'queued' || j.state === 'running')).length;
    if (open >= limit) throw new ClipLimitError(limit);
    const id = randomUUID();
    const stamp = new Date(start).toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15);
    const job: JobState = {
      id,
      recordingId: recording.id,
      start,
      end,
      state: 'queued',
      progress: 0,
      downloadUrl: null,
      message: null,
      orgId: recording.orgId,
      userId,
      fileName: `${recording.cameraId}_${stamp}Z_${Math.round((end - start) / 1000)}s.mp4`,
      output: join(this.deps.root, CLIPS_FOLDER, `${id}.mp4`),
      finishedAt: undefined,
    };
    this.jobs.set(id, job);
    const queue = this.waiting.get(userId) ?? [];
    queue.push(job);
    this.waiting.set(userId, queue);
    if (!this.turns.includes(userId)) this.turns.push(userId);
    this.pump();
    return this.view(job);
  }

  /** Starts the next waiting clip, round-robin over users, when none is running. */
  private pump(): void {
    if (this.active || this.closed) {
      if (!this.active) this.wakeIdle();
      return;
    }
    const userId = this.turns.shift();
    if (userId === undefined) return this.wakeIdle();
    const queue = this.waiting.get(userId) ?? [];
    const job = queue.shift();
    if (queue.length > 0) this.turns.push(userId);
    else this.waiting.delete(userId);
    if (!job) return this.pump();
    this.active = this.run(job).finally(() => {
      this.active = undefined;
      this.pump();
    });
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  /** The job with the organisation that owns it (for the access check), or undefined. */
  get(id: string): { job: ClipJob; orgId: string; fileName: string; output: string } | undefined {
    const job = this.jobs.get(id);
    return job ? { job: this.view(job), orgId: job.orgId, fileName: job.fileName, output: job.output } : undefined;
  }

  /** Resolves when every queued job has finished. */
  idle(): Promise<void> {
    if (!this.active && this.turns.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.running) p.kill('SIGKILL');
    await this.active?.catch(() => undefined);
    this.wakeIdle();
  }

  /** Forgets finished jobs older than the keep time, and their files. */
  sweep(): void {
    for (const job of this.jobs.values()) {
      if (job.finishedAt !== undefined && this.now - job.finishedAt > this.deps.keepMs) {
        this.jobs.delete(job.id);
        void rm(job.output, { force: true });
      }
    }
  }

  private view(job: JobState): ClipJob {
    const { id, recordingId, start, end, state, progress, downloadUrl, message } = job;
    return { id, recordingId, start, end, state, progress, downloadUrl, message };
  }

  private async run(job: JobState): Promise<void> {
    if (this.closed) return;
    job.state = 'running';
    try {
      await this.produce(job);
      job.state = 'done';
      job.progress = 100;
      job.downloadUrl = `/api/v1/cctv/record/clip/download/${job.id}`;
    } catch (err) {
      job.state = 'failed';
      job.message = err instanceof Error ? err.message : String(err);
      this.deps.log.warn({ err, jobId: job.id, recordingId: job.recordingId }, 'clip failed');
      await rm(job.output, { force: true });
    } finally {
      job.finishedAt = this.now;
    }
  }

  private async produce(job: JobState): Promise<void> {
    const segments = (await this.deps.segments(job.recordingId)).filter((s) => s.endMs > job.start && s.startMs < job.end);
    const [firstSegment, ...rest] = segments;
    if (!firstSegment) throw new Error('nothing was recorded in the requested range');
    const first = await readSegmentUnits(this.deps.root, firstSegment);
    let from = -1;
    first.fragments.forEach((f, i) => {
      if (f.fragment.keyframe && (f.time <= job.start || from < 0)) from = i;
    });
    const head = first.fragments[from];
    if (!head) throw new Error('the recording has no keyframe in the requested range');
    const startOffset = Math.max(0, job.start - head.time);
    const reencode = startOffset > COPY_TOLERANCE_MS;
    const plan: ClipPlan = {
      offsetSeconds: startOffset / 1000,
      durationSeconds: (job.end - Math.max(job.start, head.time)) / 1000,
      reencode,
    };
    await mkdir(join(this.deps.root, CLIPS_FOLDER), { recursive: true });
    const totalBytes = segments.reduce((n, s) => n + s.bytes, 0) || 1;
    let fedBytes = 0;
    let outSeconds = 0;
    const report = () => {
      const fed = (fedBytes / totalBytes) * 90;
      const made = plan.durationSeconds > 0 ? (outSeconds / plan.durationSeconds) * 99 : 0;
      job.progress = Math.max(job.progress, Math.min(99, Math.floor(Math.max(fed, made))));
    };

    const ff = spawn('ffmpeg', clipArgs(job.output, plan), { stdio: ['pipe', 'pipe', 'pipe'] });
    this.running.add(ff);
    let stderr = '';
    ff.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });
    ff.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      for (const m of chunk.matchAll(/out_time_us=(\d+)/g)) outSeconds = Number(m[1]) / 1e6;
      report();
    });
    ff.stdin.on('error', () => undefined); // ffmpeg gone: its exit code and stderr tell why
    const exited = new Promise<number | null>((resolve) => ff.once('close', (code) => resolve(code)));
    const timer = setTimeout(() => ff.kill('SIGKILL'), TIMEOUT_MS);
    try {
      const feed = async (data: Uint8Array) => {
        if (ff.stdin.destroyed) return;
        fedBytes += data.length;
        report();
        if (!ff.stdin.write(data)) await Promise.race([once(ff.stdin, 'drain'), exited]);
      };
      await feed(first.init.data);
      for (const f of first.fragments.slice(from)) {
        if (f.time >= job.end) break;
        await feed(f.fragment.data);
      }
      for (const segment of rest) {
        const units = await readSegmentUnits(this.deps.root, segment);
        for (const f of units.fragments) {
          if (f.time >= job.end) break;
          await feed(f.fragment.data);
        }
      }
      ff.stdin.end();
      const code = await exited;
      if (code !== 0) throw new Error(`ffmpeg failed (exit ${code ?? 'killed'}): ${stderr.trim() || 'no message'}`);
    } finally {
      clearTimeout(timer);
      this.running.delete(ff);
      if (ff.exitCode === null) ff.kill('SIGKILL');
    }
  }
}
