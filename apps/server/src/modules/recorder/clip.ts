import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { ClipJob } from '@ship-cctv/protocol';
import type { JobRunner } from '../../core/jobs/job-runner.ts';
import { type JobRow, OwnerLimitError } from '../../core/jobs/repo.ts';
import { RelaySplitter, type InitSegment, type MediaFragment } from '../../core/media/fmp4.ts';
import { CLIPS_FOLDER } from './recovery.ts';
import type { SegmentRow } from './repo.ts';
import type { SharedSegments } from './shared-segments.ts';
import { type ExportFacts, type ExportKey, signExport } from './export-signing.ts';

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

/** A segment's bytes: from this instance's disk, else (written by another instance) from the shared store. */
async function readSegmentBytes(root: string, file: string, shared: SharedSegments | undefined): Promise<Buffer> {
  try {
    return await readFile(join(root, file));
  } catch (err) {
    if (!shared || (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return shared.get(file);
  }
}

/** A segment file's init and fragments, each fragment with its recorded time (epoch ms). */
export async function readSegmentUnits(
  root: string,
  segment: Pick<SegmentRow, 'file' | 'startMs'>,
  shared?: SharedSegments,
): Promise<{ init: InitSegment; fragments: TimedFragment[] }> {
  const splitter = new RelaySplitter();
  const units = splitter.push(await readSegmentBytes(root, segment.file, shared));
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

/** What a clip job holds in the jobs table. */
interface ClipPayload {
  recordingId: string;
  start: number;
  end: number;
  fileName: string;
  /** What the signed manifest names besides the span (absent in jobs queued by an earlier version). */
  party?: ClipParty;
  [key: string]: unknown;
}

/** The ship, camera and user a clip's manifest names. */
export interface ClipParty {
  ship: { id: string; name: string };
  camera: { id: string; name: string };
  exportedBy: { id: string; username: string; displayName: string };
}

/** The job a clip is being made by: the range, and where the file goes. */
interface ClipWork extends ClipPayload {
  id: string;
  output: string;
}

export const CLIP_JOB_KIND = 'clip.export';

export interface ClipServiceDeps {
  root: string;
  segments(recordingId: string): Promise<SegmentRow[]>;
  /** How long a finished clip stays downloadable. */
  keepMs: number;
  log: FastifyBaseLogger;
  jobs: JobRunner;
  /** Clips one user may have queued or running at once (default 3). */
  perUserLimit?: number;
  /** Where segments written by other instances are read from (STORAGE=nats). */
  shared?: SharedSegments | undefined;
  /** The installation's key every finished clip's manifest is signed with. */
  exportKey: ExportKey;
}

/** A user asked for more clips than may wait at once. */
export class ClipLimitError extends Error {
  constructor(readonly limit: number) {
    super(`you already have ${limit} clips waiting or being exported; wait for one to finish`);
    this.name = 'ClipLimitError';
  }
}

/**
 * Clip export on the job runner: each clip is a persisted job (kind `clip.export`) that one
 * instance runs, with progress and cancel, taking turns between users (one user queuing many clips
 * delays nobody else by more than one clip); an instance that stops gives its clip back to the
 * queue. Finished clips stay downloadable for `keepMs`, then a scheduled sweep removes them.
 */
export class ClipService {
  private readonly running = new Set<ReturnType<typeof spawn>>();

  constructor(private readonly deps: ClipServiceDeps) {
    deps.jobs.register(CLIP_JOB_KIND, {
      concurrency: 1,
      run: async ({ job, signal, progress }) => {
        const payload = job.payload as ClipPayload;
        const work: ClipWork = { ...payload, id: job.id, output: this.output(job.id) };
        try {
          await this.produce(work, signal, progress);
          await signExport(work.output, work.fileName, this.facts(work, job.owner), this.deps.exportKey);
          await this.deps.shared?.putClip(job.id, work.output);
        } catch (err) {
          await rm(work.output, { force: true });
          throw err;
        }
        return { downloadUrl: downloadUrl(job.id) };
      },
    });
  }

  private facts(work: ClipWork, owner: string | null): ExportFacts {
    const shipId = work.party?.ship.id ?? '';
    return {
      exportId: work.id,
      recordingId: work.recordingId,
      ship: work.party?.ship ?? { id: shipId, name: shipId },
      camera: work.party?.camera ?? { id: '', name: '' },
      start: work.start,
      end: work.end,
      exportedBy: work.party?.exportedBy ?? { id: owner ?? '', username: '', displayName: '' },
    };
  }

  private output(id: string): string {
    return join(this.deps.root, CLIPS_FOLDER, `${id}.mp4`);
  }

  async create(recording: { id: string; orgId: string; cameraId: string }, start: number, end: number, userId: string, party?: ClipParty): Promise<ClipJob> {
    const limit = this.deps.perUserLimit ?? 3;
    const stamp = new Date(start).toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15);
    const payload: ClipPayload = {
      recordingId: recording.id,
      start,
      end,
      fileName: `${recording.cameraId}_${stamp}Z_${Math.round((end - start) / 1000)}s.mp4`,
      ...(party ? { party } : {}),
    };
    const row = await this.deps.jobs
      .enqueue({ kind: CLIP_JOB_KIND, owner: userId, orgId: recording.orgId, payload, maxAttempts: 2, ownerLimit: limit })
      .catch((err: unknown) => {
        throw err instanceof OwnerLimitError ? new ClipLimitError(limit) : err;
      });
    if (!row) throw new Error('the clip job was not created');
    return view(row);
  }

  /** The job with the organisation that owns it (for the access check), or undefined. */
  async get(id: string): Promise<{ job: ClipJob; orgId: string; fileName: string; output: string } | undefined> {
    const row = await this.deps.jobs.store.get(id);
    if (!row || row.kind !== CLIP_JOB_KIND) return undefined;
    return { job: view(row), orgId: row.orgId ?? '', fileName: (row.payload as ClipPayload).fileName, output: this.output(row.id) };
  }

  /** Asks a clip job to stop (a queued one never runs; a running one stops at its next heartbeat). */
  async cancel(id: string): Promise<ClipJob | undefined> {
    const row = await this.deps.jobs.store.cancel(id);
    return row && row.kind === CLIP_JOB_KIND ? view(row) : undefined;
  }

  /** Resolves when this instance runs no clip and has none more to claim. */
  idle(): Promise<void> {
    return this.deps.jobs.idle();
  }

  async close(): Promise<void> {
    for (const p of this.running) p.kill('SIGKILL');
  }

  /** Forgets finished clips older than the keep time, and their files (run by a schedule). */
  async sweep(): Promise<number> {
    const old = await this.deps.jobs.store.finishedBefore(CLIP_JOB_KIND, this.deps.keepMs);
    await Promise.all(old.map((row) => rm(this.output(row.id), { force: true })));
    await Promise.all(old.map((row) => this.deps.shared?.deleteClip(row.id).catch(() => undefined)));
    await this.deps.jobs.store.remove(old.map((row) => row.id));
    return old.length;
  }

  private async produce(job: ClipWork, signal: AbortSignal, progress: (percent: number) => void): Promise<void> {
    const segments = (await this.deps.segments(job.recordingId)).filter((s) => s.endMs > job.start && s.startMs < job.end);
    const [firstSegment, ...rest] = segments;
    if (!firstSegment) throw new Error('nothing was recorded in the requested range');
    const first = await readSegmentUnits(this.deps.root, firstSegment, this.deps.shared);
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
      progress(Math.min(99, Math.floor(Math.max(fed, made))));
    };

    signal.throwIfAborted();
    const ff = spawn('ffmpeg', clipArgs(job.output, plan), { stdio: ['pipe', 'pipe', 'pipe'] });
    this.running.add(ff);
    const stop = () => ff.kill('SIGKILL');
    signal.addEventListener('abort', stop);
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
        const units = await readSegmentUnits(this.deps.root, segment, this.deps.shared);
        for (const f of units.fragments) {
          if (f.time >= job.end) break;
          await feed(f.fragment.data);
        }
      }
      ff.stdin.end();
      const code = await exited;
      signal.throwIfAborted();
      if (code !== 0) throw new Error(`ffmpeg failed (exit ${code ?? 'killed'}): ${stderr.trim() || 'no message'}`);
    } finally {
      signal.removeEventListener('abort', stop);
      clearTimeout(timer);
      this.running.delete(ff);
      if (ff.exitCode === null) ff.kill('SIGKILL');
    }
  }
}

const downloadUrl = (id: string) => `/api/v1/cctv/record/clip/download/${id}`;

/** The API's view of a clip job. */
function view(row: JobRow): ClipJob {
  const p = row.payload as ClipPayload;
  const state = row.state as ClipJob['state'];
  return {
    id: row.id,
    recordingId: p.recordingId,
    start: p.start,
    end: p.end,
    state,
    progress: row.progress,
    downloadUrl: state === 'done' ? downloadUrl(row.id) : null,
    message: row.message,
  };
}
