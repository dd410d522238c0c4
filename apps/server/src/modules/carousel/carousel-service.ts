import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  CODES,
  type Carousel,
  type CarouselCell,
  type CarouselDetail,
  type CarouselEstimate,
  type CarouselEstimateInput,
  type CarouselKind,
  type CarouselSettings,
  type CarouselStatus,
  type SimpleCarouselInput,
  type TaskCarouselInput,
  carouselPages,
  dest,
  isTimeZone,
  shipDisplayName,
} from '@ship-cctv/protocol';
import type { Db } from '../../core/db/client.ts';
import type { JobContext, JobRunner } from '../../core/jobs/job-runner.ts';
import { ApiError, badRequest, forbidden, notFound } from '../../core/http/envelope.ts';
import type { Access } from '../../core/orgs/access.ts';
import { type OrgTree, visibleSubtreeOrgIds } from '../../core/orgs/org-tree.ts';
import { loadOrgTree } from '../../core/orgs/repo.ts';
import { type FleetService, chooseTemplate } from '../fleet/index.ts';
import type { StatusService } from '../status/index.ts';
import { pageAt, taskPosition } from './carousel-clock.ts';
import { CarouselRepo, type CarouselRow } from './repo.ts';

/** The job kind whose one holder publishes a running task's pages. */
export const CAROUSEL_RUN_JOB = 'carousel.run';
/** Running tasks one instance publishes at once (each is a timer, not work). */
const RUN_CONCURRENCY = 1_000;
/** A running task's status is published at least this often (a screen that missed one catches up). */
const REPUBLISH_MS = 60_000;

export interface CarouselServiceOptions {
  db: Db;
  fleet: FleetService;
  status: StatusService;
  jobs: JobRunner;
  publish(destination: string, body: string): void;
  log: FastifyBaseLogger;
  /** Whether `seconds` may override minutes (CAROUSEL_SECONDS=1). */
  secondsAllowed: boolean;
  /** Seconds the next page's streams start before a switch. */
  prewarmSeconds: number;
  now?: () => number;
}

const conflict = (message: string) => new ApiError(CODES.conflict, message);

/**
 * Carousels: configs (simple and task) kept per organisation, their channels resolved into cells,
 * task start/stop/status, and the `carousel.run` job that publishes a running task's pages on
 * `/carousel/{id}` — one holder across instances, taken up elsewhere when its instance dies.
 */
export class CarouselService {
  private readonly now: () => number;

  private readonly repo: CarouselRepo;

  constructor(private readonly o: CarouselServiceOptions) {
    this.repo = new CarouselRepo(o.db);
    this.now = o.now ?? Date.now;
    o.jobs.register(CAROUSEL_RUN_JOB, { concurrency: RUN_CONCURRENCY, run: (ctx) => this.run(ctx) });
  }

  settings(): CarouselSettings {
    return { secondsAllowed: this.o.secondsAllowed, prewarmSeconds: this.o.prewarmSeconds };
  }

  async list(access: Access, kind: CarouselKind, orgId: string | undefined): Promise<Carousel[]> {
    const orgIds = orgId ? visibleSubtreeOrgIds(access, orgId) : [...access.visibleOrgIds];
    if (orgIds.length === 0) return [];
    const rows = await this.repo.list(kind, orgIds);
    return rows.map((r) => this.view(r, access.orgs));
  }

  /** `add1` / `add2`: creates, or with `id` updates, after every check (nothing is half-saved). */
  async save(access: Access, kind: CarouselKind, input: SimpleCarouselInput | TaskCarouselInput, userId: string): Promise<Carousel> {
    const task = kind === 'task' ? (input as TaskCarouselInput) : undefined;
    const mode = task?.mode ?? 'channels';
    const orgIds = visibleSubtreeOrgIds(access, input.orgId);
    if (!input.name.trim()) throw badRequest('a carousel needs a name');
    if (input.seconds !== undefined && !this.o.secondsAllowed) {
      throw badRequest('a dwell in seconds is allowed only on a server started with CAROUSEL_SECONDS=1 (tests and demonstrations); give minutes');
    }
    const shipIds = mode === 'ships' ? (task?.shipIds ?? []) : [];
    const channelIds = mode === 'channels' ? input.channelIds : [];
    if (mode === 'channels' && channelIds.length === 0) throw badRequest('a carousel needs at least one channel');
    if (mode === 'ships' && shipIds.length === 0) throw badRequest('a carousel by ship needs at least one ship');
    await this.checkChannels(channelIds, orgIds, input.orgId);
    await this.checkShips(shipIds, orgIds, input.orgId);
    if (input.templateId !== undefined) await this.checkTemplate(input.templateId, orgIds);
    const schedule = task?.schedule ?? null;
    if (schedule && !isTimeZone(schedule.timeZone)) throw badRequest(`unknown time zone "${schedule.timeZone}"`);

    const values = {
      orgId: input.orgId,
      kind,
      name: input.name.trim(),
      layout: input.layout,
      minutes: input.minutes,
      seconds: input.seconds ?? null,
      templateId: input.templateId ?? null,
      channelIds,
      mode,
      shipIds,
      schedule,
    };
    if (input.id) {
      const existing = await this.require(access, input.id);
      if (existing.kind !== kind) throw badRequest(`carousel ${input.id} is a ${existing.kind} carousel`);
      const row = await this.repo.update(input.id, { ...values, updatedAt: new Date(this.now()) });
      if (!row) throw notFound('Carousel');
      if (row.startedAt) await this.publishStatus(row, access.orgs);
      return this.view(row, access.orgs);
    }
    const row = await this.repo.insert({ id: randomUUID(), ...values, createdBy: userId, createdAt: new Date(this.now()), updatedAt: new Date(this.now()) });
    if (!row) throw new Error('carousel insert returned nothing');
    return this.view(row, access.orgs);
  }

  async detail(access: Access, id: string, kind: CarouselKind): Promise<CarouselDetail> {
    const row = await this.require(access, id);
    if (row.kind !== kind) throw notFound(kind === 'simple' ? 'Simple carousel' : 'Carousel task');
    return { carousel: this.view(row, access.orgs), cells: await this.cellsOf(row, access.orgs), prewarmSeconds: this.o.prewarmSeconds };
  }

  /** `del/{id}`: a running task stops first (its screens hear it). */
  async remove(access: Access, id: string): Promise<Carousel> {
    const row = await this.require(access, id);
    if (row.startedAt) await this.stopRow(row, access.orgs);
    await this.repo.remove(id);
    return this.view({ ...row, startedAt: null, runJobId: null }, access.orgs);
  }

  async start(access: Access, id: string): Promise<CarouselStatus> {
    const row = await this.requireTask(access, id);
    if (row.startedAt) throw conflict('the carousel task is running already');
    const startedAt = new Date(this.now());
    // The task names its job before the job exists: a runner may claim the job the moment it is
    // enqueued, and a job its task does not name ends at once (it was stopped or replaced).
    const runJobId = randomUUID();
    // Only one start wins a race: the update takes a stopped task only.
    const started = await this.repo.start(id, startedAt, runJobId);
    if (!started) throw conflict('the carousel task is running already');
    try {
      await this.o.jobs.enqueue({
        id: runJobId,
        kind: CAROUSEL_RUN_JOB,
        owner: access.userId,
        orgId: row.orgId,
        payload: { carouselId: id, startedAt: startedAt.getTime() },
        maxAttempts: 1_000_000,
      });
    } catch (err) {
      // No job, no pages: the task is not left looking started.
      await this.repo.unstart(id, runJobId);
      throw err;
    }
    return this.publishStatus(started, access.orgs);
  }

  async stop(access: Access, id: string): Promise<CarouselStatus> {
    const row = await this.requireTask(access, id);
    if (!row.startedAt) throw conflict('the carousel task is not running');
    return this.stopRow(row, access.orgs);
  }

  /** `task/stopAll/{orgId}`: every running task of the organisation and its sub-organisations. */
  async stopAll(access: Access, orgId: string): Promise<{ stopped: number }> {
    const orgIds = visibleSubtreeOrgIds(access, orgId);
    if (orgIds.length === 0) return { stopped: 0 };
    const rows = await this.repo.runningTasks(orgIds);
    for (const row of rows) await this.stopRow(row, access.orgs);
    return { stopped: rows.length };
  }

  async status(access: Access, id: string): Promise<CarouselStatus> {
    return this.statusOf(await this.requireTask(access, id), access.orgs);
  }

  /** STOMP `/carousel/{id}`: the carousel's organisation must be the user's. */
  async canSubscribe(access: Access, id: string): Promise<boolean> {
    const row = await this.repo.carousel(id);
    return row !== undefined && access.visibleOrgIds.has(row.orgId);
  }

  /**
   * Whether a live view of `cameraId` runs for carousel `id` the user may see, with the camera one
   * of its cells: such a view is not held to the continuous-watching limit.
   */
  async runsCamera(access: Access, id: string, cameraId: string): Promise<boolean> {
    const row = await this.repo.carousel(id);
    if (!row || !access.visibleOrgIds.has(row.orgId)) return false;
    return (await this.cellsOf(row, access.orgs)).some((c) => c.cameraId === cameraId);
  }

  /** What a carousel would cost the uplinks per hour, from each channel's definition model. */
  async estimate(access: Access, input: CarouselEstimateInput): Promise<CarouselEstimate> {
    const orgIds = visibleSubtreeOrgIds(access, input.orgId);
    const channelIds = input.mode === 'channels' ? input.channelIds : [];
    const shipIds = input.mode === 'ships' ? (input.shipIds ?? []) : [];
    await this.checkChannels(channelIds, orgIds, input.orgId);
    await this.checkShips(shipIds, orgIds, input.orgId);
    const cells = await this.resolve({ orgId: input.orgId, mode: input.mode, channelIds, shipIds }, orgIds, access.orgs);
    const kbpsOfShip = new Map<string, number>();
    for (const shipId of new Set(cells.map((c) => c.shipId))) {
      const orgId = cells.find((c) => c.shipId === shipId)?.orgId ?? input.orgId;
      const choice = chooseTemplate(await this.o.fleet.shipConfig(access, orgId, shipId), input.templateId);
      kbpsOfShip.set(shipId, choice.ok ? choice.requested.bitrateKbps : 0);
    }
    const kbps = cells.map((c) => kbpsOfShip.get(c.shipId) ?? 0);
    const pages = carouselPages(kbps, input.layout);
    const pageCount = Math.max(1, pages.length);
    const dwellS = input.seconds ?? input.minutes * 60;
    const prewarm = pageCount > 1 ? Math.min(this.o.prewarmSeconds, dwellS) : 0;
    // Each page streams for its dwell, and for the prewarm before it comes on screen.
    const bitsPerCycle = pages.reduce((bits, page) => bits + page.reduce((a, b) => a + b, 0) * 1000 * (dwellS + prewarm), 0);
    const cycleS = dwellS * pageCount;
    const all = kbps.reduce((a, b) => a + b, 0);
    return {
      channels: cells.length,
      pageCount,
      bytesPerHour: Math.round(((bitsPerCycle / cycleS) * 3600) / 8),
      alwaysOnBytesPerHour: Math.round((all * 1000 * 3600) / 8),
      prewarmSeconds: prewarm,
    };
  }

  // ── the running task's publisher ─────────────────────────────────────────────────────────────

  /**
   * The `carousel.run` job: while its task runs (and this job is the task's), publishes the status
   * at each page switch and schedule change, and at least every minute. Ends when the task stops or
   * is deleted; the runner gives it back to the queue when this instance stops.
   */
  private async run(ctx: JobContext): Promise<{ ended: string }> {
    const id = String(ctx.job.payload.carouselId);
    let last = '';
    let lastAt = 0;
    while (!ctx.signal.aborted) {
      const row = await this.repo.carousel(id);
      if (!row) return { ended: 'deleted' };
      if (!row.startedAt || row.runJobId !== ctx.job.id) return { ended: 'stopped' };
      let wait = 1_000;
      try {
        // No user asks: the organisations are read here, once a round.
        const status = await this.statusOf(row, await loadOrgTree(this.o.db));
        const key = `${status.state}:${status.page}:${status.switchAt}:${status.cells.map((c) => `${c.cameraId}${c.online ? '' : '-'}`).join(',')}`;
        if (key !== last || this.now() - lastAt >= REPUBLISH_MS) {
          this.publish(status);
          last = key;
          lastAt = this.now();
        }
        wait = Math.max(20, Math.min((status.switchAt ?? this.now() + REPUBLISH_MS) - this.now(), REPUBLISH_MS));
      } catch (err) {
        this.o.log.warn({ err, carouselId: id }, 'carousel: publishing the page failed; trying again');
      }
      await sleep(wait, ctx.signal);
    }
    // Aborted: the runner gives the job back to the queue (stopping) or marks it cancelled.
    throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error('aborted');
  }

  // ── internals ────────────────────────────────────────────────────────────────────────────────

  private async stopRow(row: CarouselRow, orgs: OrgTree): Promise<CarouselStatus> {
    const stopped = await this.repo.stop(row.id);
    if (!stopped) throw conflict('the carousel task is not running');
    if (row.runJobId) await this.o.jobs.cancel(row.runJobId);
    return this.publishStatus(stopped, orgs);
  }

  /** Tells every screen showing the task where it is now; answers that status. */
  private async publishStatus(row: CarouselRow, orgs: OrgTree): Promise<CarouselStatus> {
    const status = await this.statusOf(row, orgs);
    this.publish(status);
    return status;
  }

  private publish(status: CarouselStatus): void {
    this.o.publish(dest.carousel(status.id), JSON.stringify(status));
  }

  private async statusOf(row: CarouselRow, orgs: OrgTree): Promise<CarouselStatus> {
    const dwellMs = dwellOf(row);
    const now = this.now();
    const base = { id: row.id, layout: row.layout, dwellMs, serverTime: now, prewarmSeconds: this.o.prewarmSeconds };
    if (!row.startedAt) return { ...base, state: 'stopped', page: 0, pageCount: 0, cells: [], next: [], startedAt: null, switchAt: null };
    const pages = carouselPages(await this.cellsOf(row, orgs), row.layout);
    const pageCount = Math.max(1, pages.length);
    const at = taskPosition({ startedAt: row.startedAt.getTime(), dwellMs, pageCount, schedule: row.schedule }, now);
    return {
      ...base,
      state: at.state,
      page: at.page,
      pageCount,
      cells: at.state === 'running' ? pageAt(pages, at.page) : [],
      next: pageCount > 1 || at.state === 'waiting' ? pageAt(pages, at.state === 'running' ? at.page + 1 : 0) : [],
      startedAt: row.startedAt.getTime(),
      switchAt: at.switchAt,
    };
  }

  /** A stored carousel's cells: its scope is its organisation and all the sub-organisations (not only those the user sees). */
  private async cellsOf(row: CarouselRow, orgs: OrgTree): Promise<CarouselCell[]> {
    const orgIds = [...orgs.subtree([row.orgId])];
    return this.resolve({ orgId: row.orgId, mode: row.mode as TaskCarouselInput['mode'], channelIds: row.channelIds, shipIds: row.shipIds }, orgIds, orgs);
  }

  /**
   * The cells, in order: the channels listed (mode channels), every channel of the ships (ships),
   * or of every ship of the organisation's subtree (organisation). Hidden channels (block 1),
   * channels without a camera and channels that left the organisation are left out.
   */
  private async resolve(
    q: { orgId: string; mode: TaskCarouselInput['mode']; channelIds: readonly string[]; shipIds: readonly string[] },
    orgIds: readonly string[],
    orgs: OrgTree,
  ): Promise<CarouselCell[]> {
    const listed = q.mode === 'channels' ? q.channelIds : q.mode === 'ships' ? q.shipIds : undefined;
    if (orgIds.length === 0 || listed?.length === 0) return [];
    // Mode organisation: the organisation's scope below is the whole choice.
    const found = await this.repo.cells(q.mode === 'channels' ? { channelIds: q.channelIds } : q.mode === 'ships' ? { shipIds: q.shipIds } : {}, orgIds);
    // Each ship's organisation from the tree (the scope came from it, so every one is there).
    const rows = found.flatMap((r) => {
      const org = orgs.get(r.ship.orgId);
      return org ? [{ ...r, org }] : [];
    });
    const byChannel = new Map<string, (typeof rows)[number]>();
    for (const r of rows) if (!byChannel.has(r.channel.id)) byChannel.set(r.channel.id, r);
    const ordered =
      q.mode === 'channels'
        ? q.channelIds.flatMap((id) => byChannel.get(id) ?? [])
        : q.mode === 'ships'
          ? q.shipIds.flatMap((shipId) => [...byChannel.values()].filter((r) => r.ship.id === shipId))
          : [...byChannel.values()];
    const ships = new Map(ordered.map((r) => [r.ship.id, { id: r.ship.id, name: r.ship.name }]));
    const online = new Map((await this.o.status.shipStatuses([...ships.values()])).map((s) => [s.shipId, s.online]));
    return ordered.map((r) => ({
      channelId: r.channel.id,
      channelName: r.channel.name,
      cameraId: r.camera.id,
      shipId: r.ship.id,
      shipName: r.ship.name,
      shipDisplayName: shipDisplayName(r.ship),
      orgId: r.org.id,
      orgName: r.org.name,
      waitTime: r.org.waitTimeSeconds,
      online: online.get(r.ship.id) ?? false,
    }));
  }

  private async checkChannels(channelIds: readonly string[], orgIds: readonly string[], orgId: string): Promise<void> {
    if (channelIds.length === 0) return;
    const rows = await this.repo.channels(channelIds);
    const ok = new Set(rows.filter((r) => orgIds.includes(r.orgId) && r.block === 0).map((r) => r.id));
    const foreign = channelIds.filter((id) => !ok.has(id));
    if (foreign.length > 0) throw badRequest(`channels ${foreign.slice(0, 10).join(', ')}${foreign.length > 10 ? ', …' : ''} are not channels of organisation ${orgId}`);
  }

  private async checkShips(shipIds: readonly string[], orgIds: readonly string[], orgId: string): Promise<void> {
    if (shipIds.length === 0) return;
    const rows = await this.repo.ships(shipIds);
    const ok = new Set(rows.filter((r) => orgIds.includes(r.orgId)).map((r) => r.id));
    const foreign = shipIds.filter((id) => !ok.has(id));
    if (foreign.length > 0) throw badRequest(`ships ${foreign.join(', ')} are not ships of organisation ${orgId}`);
  }

  private async checkTemplate(templateId: number, orgIds: readonly string[]): Promise<void> {
    if (!(await this.repo.modelOf(templateId, orgIds))) throw badRequest(`definition model ${templateId} is not one of the organisation's`);
  }

  private async require(access: Access, id: string): Promise<CarouselRow> {
    const row = await this.repo.carousel(id);
    if (!row) throw notFound('Carousel');
    if (!access.visibleOrgIds.has(row.orgId)) throw forbidden();
    return row;
  }

  private async requireTask(access: Access, id: string): Promise<CarouselRow> {
    const row = await this.require(access, id);
    if (row.kind !== 'task') throw badRequest(`carousel ${id} is a simple carousel: it runs in the browser, not as a task`);
    return row;
  }

  private view(row: CarouselRow, orgs: OrgTree): Carousel {
    return {
      id: row.id,
      kind: row.kind as CarouselKind,
      name: row.name,
      orgId: row.orgId,
      orgName: orgs.get(row.orgId)?.displayName ?? row.orgId,
      layout: row.layout,
      minutes: row.minutes,
      seconds: row.seconds,
      dwellMs: dwellOf(row),
      templateId: row.templateId,
      channelIds: row.channelIds,
      mode: row.mode as Carousel['mode'],
      shipIds: row.shipIds,
      schedule: row.schedule,
      running: row.startedAt !== null,
      createdAt: row.createdAt.getTime(),
      updatedAt: row.updatedAt.getTime(),
    };
  }
}

function dwellOf(row: Pick<CarouselRow, 'minutes' | 'seconds'>): number {
  return (row.seconds ?? row.minutes * 60) * 1000;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
