import type { CameraGaps, CameraState, RecordQueryFilter, RecordedSpan } from '@ship-cctv/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { type ShoreGapFacts, shoreGaps } from './gap-causes.ts';
import type { GapFactRow, GapFactsRepo } from './repo.ts';

/**
 * Where the shore learns which times of a camera the ship holds and are on their way to shore
 * (backfill): the spans of [start, end) pending for it. The default knows none.
 */
export type BackfillPendingSource = (shipId: string, cameraId: string, start: number, end: number) => Promise<readonly RecordedSpan[]> | readonly RecordedSpan[];

/** What shore knows of the ship recorder's spans without asking the ship (the ship-end query's cache). */
export type ShipSpansKnown = (shipId: string, cameraId: string, start: number, end: number) => { covered: readonly RecordedSpan[]; spans: readonly RecordedSpan[] } | undefined;

export interface RecordingGapsOptions {
  repo: GapFactsRepo;
  now: () => number;
  /** The shore recorder's age limit. */
  maxAgeMs: number;
  /** Start of the newest segment the shore's retention deleted (null: none yet). */
  retiredUpTo: () => Promise<number | null>;
  shipSpans?: ShipSpansKnown;
  /** Whether some instance holds the ship's link now (a link that moved to another instance is not down). */
  linkHeld?: (shipId: string) => boolean | Promise<boolean>;
  log: FastifyBaseLogger;
}

/** Most cameras one query answers gaps for. */
export const MAX_GAP_CAMERAS = 100;

/**
 * Every gap of the shore's recording has a cause: keeps the facts as the shore hears them (a
 * ship's link coming and going, a camera reported silent while connected, a data budget holding
 * live video) and answers, for the span a recording query asks, each camera's gaps with their
 * cause (gap-causes.ts).
 */
export class RecordingGaps {
  private backfill: BackfillPendingSource = () => [];
  /** Writes in order, so that a link's up never overtakes its down. */
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly opts: RecordingGapsOptions) {}

  /**
   * The source of the spans backfill has still to bring from the ship (shown as `backfillPending`).
   * Backfill plugs in here; until it does, none are pending.
   */
  setBackfillPending(source: BackfillPendingSource): void {
    this.backfill = source;
  }

  /** The ship's link came up: its link-down ends, and the cameras its hello says are not sending start a silence (the others' end). */
  linkUp(shipId: string, cameras: readonly CameraState[]): Promise<void> {
    const at = this.opts.now();
    return this.write(async () => {
      await this.opts.repo.close('linkDown', shipId, '', at);
      // One statement for the cameras that send (most, on every reconnect of a fleet); one each for those that do not.
      await this.opts.repo.close('cameraSilent', shipId, cameras.filter((c) => c.online).map((c) => c.cameraId), at);
      for (const c of cameras) if (!c.online) await this.opts.repo.open('cameraSilent', shipId, c.cameraId, at);
    });
  }

  /** The ship's link went: a link-down starts, and its cameras' silences end (nothing is known of them while it lasts). */
  linkDown(shipId: string): Promise<void> {
    const at = this.opts.now();
    return this.write(async () => {
      // Moved to another instance (which may have said so first): not down.
      if (await this.opts.linkHeld?.(shipId)) return;
      await this.opts.repo.close('cameraSilent', shipId, undefined, at);
      await this.opts.repo.open('linkDown', shipId, '', at);
    });
  }

  /** A connected ship reports a camera sending (online) or not. */
  cameraReport(shipId: string, camera: Pick<CameraState, 'cameraId' | 'online'>): Promise<void> {
    const at = this.opts.now();
    return this.write(() => (camera.online ? this.opts.repo.close('cameraSilent', shipId, camera.cameraId, at) : this.opts.repo.open('cameraSilent', shipId, camera.cameraId, at)));
  }

  /** A data budget refused a live view of the ship: held from now until `until` (the ship's next midnight). */
  budgetHeld(shipId: string, until: number): Promise<void> {
    const at = this.opts.now();
    return this.write(() => this.opts.repo.hold('budgetHeld', shipId, at, Math.max(at + 1, until)));
  }

  /** A live view of the ship was let through: a budget no longer holds it. */
  budgetReleased(shipId: string): Promise<void> {
    const at = this.opts.now();
    return this.write(() => this.opts.repo.cut('budgetHeld', shipId, at));
  }

  /** Forgets the facts of times the recorder no longer keeps (the retention job's pass). */
  prune(): Promise<number> {
    return this.opts.repo.prune(this.opts.now() - this.opts.maxAgeMs);
  }

  /** Resolves once every fact handed in so far is written. */
  settled(): Promise<void> {
    return this.writing;
  }

  /** The gaps of each camera the query covers, in [start, min(end, now)). */
  async forQuery(orgIds: readonly string[], filter: RecordQueryFilter & { start: number; end: number }): Promise<CameraGaps[]> {
    const now = this.opts.now();
    const start = filter.start;
    const end = Math.min(filter.end, now);
    if (end <= start) return [];
    const { repo } = this.opts;
    const cameras = await repo.cameras(orgIds, filter, MAX_GAP_CAMERAS);
    if (cameras.length === 0) return [];
    const [recordings, facts, retiredUpTo] = await Promise.all([
      repo.recordedSpans(
        cameras.map((c) => c.cameraId),
        start,
        end,
      ),
      repo.facts([...new Set(cameras.map((c) => c.shipId))], start, end),
      this.opts.retiredUpTo(),
    ]);
    const retentionBefore = Math.max(now - this.opts.maxAgeMs, retiredUpTo ?? -Infinity);
    return Promise.all(
      cameras.map(async ({ cameraId, shipId }) => {
        // A recording still being written covers up to now: its newest segment is not indexed yet.
        const recorded = recordings.filter((r) => r.cameraId === cameraId).map((r) => ({ start: r.start, end: r.open ? now : r.end }));
        const mine = (kind: GapFactRow['kind'], camera: boolean) =>
          facts.filter((f) => f.kind === kind && f.shipId === shipId && (!camera || f.cameraId === cameraId)).map((f) => ({ start: f.startMs, end: f.endMs ?? now }));
        const ship = this.opts.shipSpans?.(shipId, cameraId, start, end);
        const known: ShoreGapFacts = {
          linkDown: mine('linkDown', false),
          cameraSilent: mine('cameraSilent', true),
          budgetHeld: mine('budgetHeld', false),
          backfillPending: await this.pending(shipId, cameraId, start, end),
          ship,
          retentionBefore,
        };
        return { shipId, cameraId, gaps: shoreGaps(recorded, start, end, known) };
      }),
    );
  }

  private async pending(shipId: string, cameraId: string, start: number, end: number): Promise<readonly RecordedSpan[]> {
    try {
      return await this.backfill(shipId, cameraId, start, end);
    } catch (err) {
      this.opts.log.warn({ err, shipId, cameraId }, 'recording gaps: the backfill source failed; no span is shown pending');
      return [];
    }
  }

  private write(work: () => Promise<void>): Promise<void> {
    const next = this.writing.then(work).catch((err: unknown) => this.opts.log.warn({ err }, 'recording gaps: keeping a fact failed'));
    this.writing = next;
    return next;
  }
}
