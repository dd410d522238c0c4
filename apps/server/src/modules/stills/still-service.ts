import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { LIMITS, policyLinkOf, type StillAnswer, type StillTakeState } from '@ship-cctv/protocol';
import type { Db } from '../../core/db/client.ts';
import { ShipAskError } from '../../core/ship-link/index.ts';
import type { LinkPolicyService } from '../link-policies/index.ts';
import type { PictureService } from '../pictures/index.ts';
import type { Access } from '../../core/orgs/access.ts';
import type { FleetService } from '../fleet/index.ts';
import type { StatusService } from '../status/index.ts';
import { StillRepo, type StillRow } from './repo.ts';
import { STILL_TIMING, type StillTiming, type TakeRecord, onItsWay, stillDue } from './still-rules.ts';

export interface StillServiceDeps {
  db: Db;
  fleet: FleetService;
  pictures: PictureService;
  linkPolicy: LinkPolicyService;
  status: Pick<StatusService, 'shipStatuses'>;
  /** Whether the ship's pictures budget is used up: stills take no new picture then (they are pictures, and count as such). */
  picturesBudgetUsedUp: (shipId: string) => Promise<boolean>;
  log: FastifyBaseLogger;
  now?: () => number;
  timing?: Partial<StillTiming>;
}

/** How many of the camera's last pictures the cost estimate averages. */
const RECENT = 5;

/**
 * Stills mode on shore: the camera's latest still for a cell that shows
 * pictures instead of video. A new picture is taken through the pictures path (snapshot now: it
 * crosses in the ship's outbox and counts as pictures in the link's figures and budgets) only when
 * the newest one is a period old — the period of the ship's current link's policy — and none is on
 * its way. The take is claimed by a compare-and-set on the camera's camera_stills row, so viewers
 * on any instance share it: N viewers, one picture per period.
 */
export class StillService {
  private readonly now: () => number;
  private readonly timing: StillTiming;
  private readonly repo: StillRepo;

  constructor(private readonly deps: StillServiceDeps) {
    this.repo = new StillRepo(deps.db);
    this.now = deps.now ?? Date.now;
    this.timing = { ...STILL_TIMING, ...deps.timing };
  }

  async latest(access: Access, cameraId: string, templateId: number = LIMITS.pictureConfigId): Promise<StillAnswer> {
    const { fleet, pictures, linkPolicy, status } = this.deps;
    const { camera, channel, ship } = await fleet.requireCamera(access, cameraId);
    // A template the ship does not have is the caller's mistake: said before anything is claimed.
    await pictures.pictureSize(access, ship.orgId, ship.id, templateId);
    const [shipStatus] = await status.shipStatuses([{ id: ship.id, name: ship.name }]);
    const linkType = shipStatus?.status ?? 'OFFLINE';
    const online = shipStatus?.online ?? false;
    const policies = await linkPolicy.list(access, ship.orgId);
    const everySeconds = policies.policies.find((p) => p.linkType === policyLinkOf(linkType))?.stillsEverySeconds ?? 30;
    const everyMs = everySeconds * 1000;

    let row = await this.row(camera.id);
    let took = false;
    const now = this.now();
    const newest = await pictures.index.newestOfCamera(camera.id);
    let take = await this.record(row, newest?.id);
    const due = stillDue(now, everyMs, newest?.takenAt.getTime(), take, this.timing);
    let nextInMs = due.nextInMs;
    // Asked only when a take is due: most polls find the newest picture young enough.
    const budgetUsedUp = due.take && online ? await this.deps.picturesBudgetUsedUp(ship.id) : false;
    if (due.take && online && !budgetUsedUp) {
      const pictureId = randomUUID().replaceAll('-', '');
      if (await this.claim(camera.id, row?.pictureId, pictureId, now)) {
        took = true;
        try {
          await pictures.snapshot(
            access,
            { shipId: ship.id, channelId: channel.id, cameraId: camera.id, templateId, source: 'live' },
            { pictureId, outcome: (o) => void this.settle(camera.id, pictureId, o.taken ? { state: 'taken', bytes: o.bytes } : { state: 'failed', code: o.code, message: o.message }) },
          );
        } catch (err) {
          // The ship could not be asked (offline, an agent without pictures): a failed take, told by its reason.
          const failure = err instanceof ShipAskError ? err.reason : undefined;
          await this.settle(camera.id, pictureId, { state: 'failed', code: failure ?? 'failed', message: err instanceof Error ? err.message : String(err) });
          if (!failure) throw err;
        }
      }
      // Ours or another viewer's: the take on its way now.
      row = await this.row(camera.id);
      take = await this.record(row, newest?.id);
    } else if (due.take) {
      nextInMs = everyMs;
    }
    const pending = row && take && !take.stored ? row : undefined;
    return {
      cameraId: camera.id,
      shipId: ship.id,
      shipName: ship.name,
      linkType,
      everySeconds,
      ...(newest ? { picture: { pictureId: newest.id, takenAt: newest.takenAt.getTime(), bytes: newest.bytes, width: newest.width, height: newest.height } } : {}),
      ...(pending
        ? {
            pending: {
              pictureId: pending.pictureId,
              requestedAt: pending.requestedAt.getTime(),
              state: pending.state as StillTakeState,
              ...(pending.bytes !== null ? { bytes: pending.bytes } : {}),
              ...(pending.code !== null ? { code: pending.code } : {}),
              ...(pending.message !== null ? { message: pending.message } : {}),
            },
          }
        : {}),
      recentBytes: newest ? await pictures.index.recentBytes(camera.id, newest.width, newest.height, RECENT) : [],
      took,
      offline: !online,
      picturesBudgetUsedUp: budgetUsedUp,
      nextInMs: take && onItsWay(take, this.now(), this.timing) ? Math.min(everyMs, this.timing.pendingPollMs) : nextInMs,
    };
  }

  private row(cameraId: string): Promise<StillRow | undefined> {
    return this.repo.row(cameraId);
  }

  private async record(row: StillRow | undefined, newestId: string | undefined): Promise<TakeRecord | undefined> {
    if (!row) return undefined;
    const stored = row.pictureId === newestId || (row.state !== 'failed' && (await this.deps.pictures.index.held([row.pictureId])).size > 0);
    return { pictureId: row.pictureId, requestedAt: row.requestedAt.getTime(), state: row.state as StillTakeState, stored };
  }

  /** Claims the next take: true for one caller only, whichever instance it is on (compare-and-set on the previous picture id). */
  private claim(cameraId: string, previous: string | undefined, pictureId: string, now: number): Promise<boolean> {
    return this.repo.claim(cameraId, previous, pictureId, new Date(now));
  }

  /** What the ship said of a take (only while it is still the camera's latest). */
  private async settle(cameraId: string, pictureId: string, outcome: { state: StillTakeState; bytes?: number; code?: string; message?: string }): Promise<void> {
    try {
      await this.repo.settle(cameraId, pictureId, { state: outcome.state, bytes: outcome.bytes ?? null, code: outcome.code ?? null, message: outcome.message?.slice(0, 500) ?? null });
    } catch (err) {
      this.deps.log.warn({ err, cameraId, pictureId }, 'stills: recording what became of a take failed');
    }
  }
}
