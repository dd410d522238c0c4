import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type SnapshotTaskSpec, type TaskShotReport, taskShotCount } from '@ship-cctv/protocol';

export interface TaskRunnerDeps {
  now: () => number;
  /** Takes shot `index` of a task for one camera; resolves with the picture id or why it failed. */
  shoot(task: SnapshotTaskSpec, cameraId: string, index: number): Promise<{ pictureId: string } | { reason: string }>;
  /** A shot's outcome, to tell shore (when the link is up). */
  report(taskId: string, shots: TaskShotReport[]): void;
  /** How often due shots are looked for. Default 5 s. */
  tickMs?: number;
}

interface TaskFile {
  tasks: SnapshotTaskSpec[];
  /** Per task: the next shot index to consider, and every shot's outcome so far. */
  progress: Record<string, { next: number; shots: TaskShotReport[] }>;
}

/** A shot this much later than planned was missed (the agent was not running): reported, not taken late. */
export function missedAfterMs(task: SnapshotTaskSpec): number {
  return Math.min(task.everyMs, 15 * 60_000);
}

/**
 * The ship's snapshot tasks, run on the ship's clock whether or not the link is up: each shot at
 * start + k × everyMs of each camera, once (its outcome is kept in `pictures/tasks.json` with the
 * tasks, written through a rename at every change, so a restart neither repeats nor forgets one).
 * Shore sends the whole set of tasks; one it no longer lists is dropped (deleted: no more shots;
 * pictures taken stay). A shot due while the agent was not running is reported missed.
 */
export class TaskRunner {
  private state: TaskFile = { tasks: [], progress: {} };
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly file: string | undefined,
    private readonly deps: TaskRunnerDeps,
  ) {
    if (file) {
      mkdirSync(dirname(file), { recursive: true });
      this.state = readState(file);
    }
  }

  get tasks(): readonly SnapshotTaskSpec[] {
    return this.state.tasks;
  }

  /** Every shot outcome of a task so far. */
  shots(taskId: string): readonly TaskShotReport[] {
    return this.state.progress[taskId]?.shots ?? [];
  }

  /** The tasks shore says the ship runs; answers the ids held. */
  replace(tasks: readonly SnapshotTaskSpec[]): string[] {
    const ids = new Set(tasks.map((t) => t.taskId));
    const progress: TaskFile['progress'] = {};
    for (const t of tasks) progress[t.taskId] = this.state.progress[t.taskId] ?? { next: 0, shots: [] };
    this.state = { tasks: tasks.map((t) => ({ ...t, cameraIds: [...t.cameraIds] })), progress };
    this.save();
    void this.tick();
    return [...ids];
  }

  start(): void {
    clearInterval(this.timer);
    this.timer = setInterval(() => void this.tick(), this.deps.tickMs ?? 5_000);
    this.timer.unref();
    void this.tick();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Takes every shot that is due (one at a time, after any run in progress); resolves when they are done. */
  tick(): Promise<void> {
    const run = (this.running ?? Promise.resolve()).then(() => this.runDue());
    const settled = run.catch(() => undefined);
    this.running = settled;
    void settled.then(() => {
      if (this.running === settled) this.running = undefined;
    });
    return run;
  }

  private async runDue(): Promise<void> {
    for (;;) {
      const due = this.nextDue();
      if (!due) return;
      const { task, index } = due;
      const plannedAt = task.start + index * task.everyMs;
      const late = this.deps.now() - plannedAt > missedAfterMs(task);
      const shots: TaskShotReport[] = [];
      for (const cameraId of task.cameraIds) {
        if (late) {
          shots.push({ cameraId, index, outcome: 'failed', reason: `missed: the agent was not running at ${new Date(plannedAt).toISOString()}` });
          continue;
        }
        const result = await this.deps.shoot(task, cameraId, index);
        shots.push('pictureId' in result ? { cameraId, index, outcome: 'taken', pictureId: result.pictureId } : { cameraId, index, outcome: 'failed', reason: result.reason.slice(0, 4000) });
      }
      // The task may have been dropped while its shot was taken: its outcome is still kept with it only if it is still held.
      const progress = this.state.progress[task.taskId];
      if (!progress) continue;
      progress.next = index + 1;
      progress.shots.push(...shots);
      this.save();
      this.deps.report(task.taskId, shots);
    }
  }

  /** The earliest due shot of any task. */
  private nextDue(): { task: SnapshotTaskSpec; index: number } | undefined {
    const now = this.deps.now();
    let best: { task: SnapshotTaskSpec; index: number; at: number } | undefined;
    for (const task of this.state.tasks) {
      const progress = this.state.progress[task.taskId];
      if (!progress) continue;
      const index = progress.next;
      if (index >= taskShotCount(task)) continue;
      const at = task.start + index * task.everyMs;
      if (at > now) continue;
      if (!best || at < best.at) best = { task, index, at };
    }
    return best;
  }

  private save(): void {
    if (!this.file) return;
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.state));
    renameSync(tmp, this.file);
  }
}

function readState(file: string): TaskFile {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<TaskFile>;
    return { tasks: Array.isArray(parsed.tasks) ? parsed.tasks : [], progress: parsed.progress && typeof parsed.progress === 'object' ? parsed.progress : {} };
  } catch {
    return { tasks: [], progress: {} };
  }
}
