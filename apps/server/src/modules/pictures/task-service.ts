import { randomUUID } from 'node:crypto';
import {
  type SnapshotTaskDetail,
  type SnapshotTaskRequest,
  type SnapshotTaskSpec,
  type SnapshotTaskStatus,
  TASK_MAX_SHOTS,
  TASK_MAX_WINDOW_MS,
  TASK_RATE_HOURS,
  type TaskShot,
  type TaskShotReport,
  type TaskState,
  taskShotCount,
} from '@ship-cctv/protocol';
import type { Db } from '../../core/db/client.ts';
import { badRequest, forbidden, notFound } from '../../core/http/envelope.ts';
import type { Access } from '../../core/orgs/access.ts';
import { visibleSubtreeOrgIds } from '../../core/orgs/org-tree.ts';
import type { FleetService } from '../fleet/index.ts';
import { type ShotRow, TaskRepo, type TaskRow } from './repo.ts';


export interface TaskServiceDeps {
  db: Db;
  fleet: FleetService;
  /** Whether some instance holds the ship's link now (a handed-over task is active, else its link is down). */
  linkUp(shipId: string): boolean | Promise<boolean>;
  /** The box a template's pictures fit into (404/400 for a template the ship lacks). */
  pictureSize(access: Access, orgId: string, shipId: string, templateId: number): Promise<{ width: number; height: number }>;
  /** Sends a ship its current set of tasks, if its inbox is open. */
  pushTasks(shipId: string): Promise<void>;
  now?: () => number;
}

/**
 * Snapshot tasks on shore: what an operator planned (kept in `snapshot_tasks`), handed to the
 * ship as the whole set of its tasks whenever its inbox opens or the set changes, and what the
 * ship reported of each shot (`snapshot_shots`). The ship runs them on its own clock; shore only
 * learns of shots when the link is up, and of their pictures when they arrive.
 */
export class TaskService {
  private readonly now: () => number;

  private readonly repo: TaskRepo;

  constructor(private readonly deps: TaskServiceDeps) {
    this.repo = new TaskRepo(deps.db);
    this.now = deps.now ?? Date.now;
  }

  async submit(access: Access, req: SnapshotTaskRequest, owner: string): Promise<SnapshotTaskStatus> {
    const ship = await this.deps.fleet.requireShip(access, req.shipId);
    const channels = await this.deps.fleet.channels(access, req.shipId);
    const byId = new Map(channels.map((c) => [c.id, c]));
    const unique = [...new Set(req.channelIds)];
    const foreign = unique.filter((id) => !byId.has(id));
    if (foreign.length > 0) throw badRequest(`channels ${foreign.join(', ')} are not channels of ship ${req.shipId}`);
    const cameraIds = unique.flatMap((id) => byId.get(id)?.cameras.map((c) => c.id) ?? []);
    if (cameraIds.length === 0) throw badRequest('the channels chosen have no cameras');
    if (req.rateHours < TASK_RATE_HOURS.min - 1e-9) throw badRequest(`the rate is at least ${TASK_RATE_HOURS.min.toFixed(4)} hours (one minute) per shot`);
    const everyMs = Math.round(req.rateHours * 3_600_000);
    const now = this.now();
    if (!(req.end > req.start)) throw badRequest('the window must end after it starts');
    if (req.end <= now) throw badRequest('the window is over already: choose an end in the future');
    if (req.end - req.start > TASK_MAX_WINDOW_MS) throw badRequest('a task window is at most 366 days');
    const total = taskShotCount({ start: req.start, end: req.end, everyMs }) * cameraIds.length;
    if (total > TASK_MAX_SHOTS) throw badRequest(`the task would take ${total} pictures; at most ${TASK_MAX_SHOTS}: a lower rate, a shorter window or fewer channels`);
    const templateId = req.templateId ?? 720;
    const size = await this.deps.pictureSize(access, ship.orgId, ship.id, templateId);
    const id = randomUUID();
    await this.repo.add({
      id,
      orgId: ship.orgId,
      shipId: ship.id,
      owner,
      channelIds: unique,
      cameraIds,
      everyMs,
      startAt: new Date(req.start),
      endAt: new Date(req.end),
      templateId,
      ...size,
    });
    await this.deps.pushTasks(ship.id);
    return this.status(access, id);
  }

  async status(access: Access, id: string): Promise<SnapshotTaskStatus> {
    const { task, shipName } = await this.require(access, id);
    const rows = await this.shotRows(task.id);
    return this.view(task, shipName, rows, await this.onShore(rows), await this.shipsUp([task]));
  }

  async detail(access: Access, id: string): Promise<SnapshotTaskDetail> {
    const { task, shipName } = await this.require(access, id);
    const rows = await this.shotRows(task.id);
    const onShore = await this.onShore(rows);
    const reported = new Map(rows.map((r) => [`${r.cameraId}\u0000${r.idx}`, r]));
    const shots: TaskShot[] = [];
    const count = taskShotCount(spanOf(task));
    for (let index = 0; index < count; index++) {
      for (const cameraId of task.cameraIds) {
        const r = reported.get(`${cameraId}\u0000${index}`);
        shots.push({
          cameraId,
          index,
          plannedAt: task.startAt.getTime() + index * task.everyMs,
          state: shotState(r, onShore),
          pictureId: r?.pictureId ?? null,
          reason: r?.reason ?? null,
        });
      }
    }
    return { task: this.view(task, shipName, rows, onShore, await this.shipsUp([task])), shots };
  }

  /** Deletes a task: the ship stops it when it next hears its tasks (at once if its link is up); pictures taken stay. */
  async remove(access: Access, id: string): Promise<SnapshotTaskStatus> {
    const { task } = await this.require(access, id);
    if (!task.deletedAt) {
      await this.repo.mark(id, { deletedAt: new Date() });
      await this.deps.pushTasks(task.shipId);
    }
    return this.status(access, id);
  }

  /** The tasks of the ships the user may see (of one organisation's subtree, or one ship), newest first. */
  async list(access: Access, filter: { orgId?: string | undefined; shipId?: string | undefined }): Promise<SnapshotTaskStatus[]> {
    const orgIds = filter.orgId ? visibleSubtreeOrgIds(access, filter.orgId) : [...access.visibleOrgIds];
    if (filter.shipId) await this.deps.fleet.requireShip(access, filter.shipId);
    if (orgIds.length === 0) return [];
    const rows = await this.repo.tasksWithShips(orgIds, filter.shipId);
    rows.sort((a, b) => b.task.createdAt.getTime() - a.task.createdAt.getTime());
    const shots = rows.length === 0 ? [] : await this.repo.shotsOf(rows.map((r) => r.task.id));
    const onShore = await this.onShore(shots);
    const up = await this.shipsUp(rows.map((r) => r.task));
    return rows.map((r) => this.view(r.task, r.shipName, shots.filter((s) => s.taskId === r.task.id), onShore, up));
  }

  /** What a ship is to hold: its tasks not deleted whose window is not over. */
  async specsFor(shipId: string): Promise<SnapshotTaskSpec[]> {
    const rows = await this.repo.tasksOfShip(shipId, true);
    const now = this.now();
    return rows
      .filter((r) => r.endAt.getTime() > now)
      .map((r) => ({ taskId: r.id, cameraIds: r.cameraIds, everyMs: r.everyMs, start: r.startAt.getTime(), end: r.endAt.getTime(), width: r.width, height: r.height }));
  }

  /** The ship holds exactly these tasks now: they are handed over, deleted ones not among them are dropped. */
  async held(shipId: string, taskIds: readonly string[]): Promise<void> {
    const rows = await this.repo.tasksOfShip(shipId);
    const ids = new Set(taskIds);
    const at = new Date();
    for (const r of rows) {
      if (ids.has(r.id) && !r.handedOverAt) await this.repo.mark(r.id, { handedOverAt: at });
      if (!ids.has(r.id) && r.deletedAt && !r.droppedAt) await this.repo.mark(r.id, { droppedAt: at });
    }
  }

  /** Shots the ship reported (again, perhaps): kept once each. */
  async shots(shipId: string, taskId: string, shots: readonly TaskShotReport[]): Promise<void> {
    const task = await this.repo.task(taskId);
    // A ship reports only its own tasks' shots, of cameras the task names.
    if (!task || task.shipId !== shipId) return;
    const cameras = new Set(task.cameraIds);
    const reportedAt = new Date();
    const rows = shots
      .filter((s) => cameras.has(s.cameraId))
      .map((s) => ({ taskId, cameraId: s.cameraId, idx: s.index, outcome: s.outcome, pictureId: s.pictureId ?? null, reason: s.reason ?? null, reportedAt }));
    // One statement per report, in slices (a reconnect resends a task's whole log).
    for (let i = 0; i < rows.length; i += 500) {
      await this.repo.reportShots(rows.slice(i, i + 500));
    }
  }

  private async require(access: Access, id: string): Promise<{ task: TaskRow; shipName: string }> {
    const row = await this.repo.taskWithShip(id);
    if (!row) throw notFound('Snapshot task');
    if (!access.visibleOrgIds.has(row.task.orgId)) throw forbidden();
    return row;
  }

  private shotRows(taskId: string): Promise<ShotRow[]> {
    return this.repo.shotsOf([taskId]);
  }

  private async onShore(rows: readonly ShotRow[]): Promise<Set<string>> {
    const ids = rows.map((r) => r.pictureId).filter((id): id is string => id !== null);
    return this.repo.picturesHeld(ids);
  }

  /** The ships of these tasks whose link some instance holds now. */
  private async shipsUp(tasks: readonly TaskRow[]): Promise<Set<string>> {
    const ships = [...new Set(tasks.map((task) => task.shipId))];
    const up = await Promise.all(ships.map((shipId) => this.deps.linkUp(shipId)));
    return new Set(ships.filter((_, i) => up[i]));
  }

  private view(task: TaskRow, shipName: string, rows: readonly ShotRow[], onShore: Set<string>, up: Set<string>): SnapshotTaskStatus {
    const total = taskShotCount(spanOf(task)) * task.cameraIds.length;
    const counts = { total, planned: 0, onItsWay: 0, onShore: 0, failed: 0 };
    for (const r of rows) counts[shotState(r, onShore)]++;
    counts.planned = Math.max(0, total - counts.onItsWay - counts.onShore - counts.failed);
    return {
      id: task.id,
      orgId: task.orgId,
      shipId: task.shipId,
      shipName,
      channelIds: task.channelIds,
      cameraIds: task.cameraIds,
      rateHours: task.everyMs / 3_600_000,
      start: task.startAt.getTime(),
      end: task.endAt.getTime(),
      templateId: task.templateId,
      state: this.stateOf(task, up),
      createdAt: task.createdAt.getTime(),
      handedOverAt: task.handedOverAt?.getTime() ?? null,
      counts,
    };
  }

  private stateOf(task: TaskRow, up: Set<string>): TaskState {
    if (task.deletedAt) return 'deleted';
    if (task.endAt.getTime() <= this.now()) return 'finished';
    if (!task.handedOverAt) return 'pending';
    return up.has(task.shipId) ? 'active' : 'linkDown';
  }
}

function spanOf(task: TaskRow): { start: number; end: number; everyMs: number } {
  return { start: task.startAt.getTime(), end: task.endAt.getTime(), everyMs: task.everyMs };
}

function shotState(row: ShotRow | undefined, onShore: Set<string>): TaskShot['state'] {
  if (!row) return 'planned';
  if (row.outcome === 'failed') return 'failed';
  return row.pictureId && onShore.has(row.pictureId) ? 'onShore' : 'onItsWay';
}
