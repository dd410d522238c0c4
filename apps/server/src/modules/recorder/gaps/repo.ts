import { and, asc, eq, gt, inArray, isNull, lt, lte, or, type SQL } from 'drizzle-orm';
import type { RecordQueryFilter } from '@ship-cctv/protocol';
import type { Db } from '../../../core/db/client.ts';
import * as t from '../../../core/db/schema.ts';

/** A kind of fact the shore keeps about why its recording has gaps. */
export type GapFactKind = 'linkDown' | 'cameraSilent' | 'budgetHeld';

export interface GapFactRow {
  kind: GapFactKind;
  shipId: string;
  /** '' for the whole ship. */
  cameraId: string;
  startMs: number;
  /** Null while it lasts. */
  endMs: number | null;
}

/** The facts of recording gaps (link down, camera silent, budget held) and the recordings' spans per camera. */
export class GapFactsRepo {
  constructor(private readonly db: Db) {}

  /** Opens a fact at `at` unless one of the kind is open already for the ship (and camera). */
  async open(kind: GapFactKind, shipId: string, cameraId: string, at: number): Promise<void> {
    const [openRow] = await this.db
      .select({ id: t.recordingGapFacts.id })
      .from(t.recordingGapFacts)
      .where(and(eq(t.recordingGapFacts.kind, kind), eq(t.recordingGapFacts.shipId, shipId), eq(t.recordingGapFacts.cameraId, cameraId), isNull(t.recordingGapFacts.endMs)))
      .limit(1);
    if (openRow) return;
    await this.db.insert(t.recordingGapFacts).values({ kind, shipId, cameraId, startMs: at, endMs: null });
  }

  /** Ends at `at` the open facts of the kind for the ship: of one camera, of a list of them, or of all of them when `cameraId` is undefined. */
  async close(kind: GapFactKind, shipId: string, cameraId: string | readonly string[] | undefined, at: number): Promise<void> {
    const conds: SQL[] = [eq(t.recordingGapFacts.kind, kind), eq(t.recordingGapFacts.shipId, shipId), isNull(t.recordingGapFacts.endMs)];
    if (typeof cameraId === 'string') conds.push(eq(t.recordingGapFacts.cameraId, cameraId));
    else if (cameraId !== undefined) {
      if (cameraId.length === 0) return;
      conds.push(inArray(t.recordingGapFacts.cameraId, [...cameraId]));
    }
    await this.db.update(t.recordingGapFacts).set({ endMs: at }).where(and(...conds));
  }

  /** A fact known to last [start, end): kept unless one of the kind for the ship already covers `start`. */
  async hold(kind: GapFactKind, shipId: string, start: number, end: number): Promise<void> {
    const [covering] = await this.db
      .select({ id: t.recordingGapFacts.id })
      .from(t.recordingGapFacts)
      .where(and(eq(t.recordingGapFacts.kind, kind), eq(t.recordingGapFacts.shipId, shipId), lte(t.recordingGapFacts.startMs, start), or(isNull(t.recordingGapFacts.endMs), gt(t.recordingGapFacts.endMs, start))))
      .limit(1);
    if (!covering) await this.db.insert(t.recordingGapFacts).values({ kind, shipId, cameraId: '', startMs: start, endMs: end });
  }

  /** Ends at `at` the facts of the kind for the ship that still run past it. */
  async cut(kind: GapFactKind, shipId: string, at: number): Promise<void> {
    await this.db
      .update(t.recordingGapFacts)
      .set({ endMs: at })
      .where(and(eq(t.recordingGapFacts.kind, kind), eq(t.recordingGapFacts.shipId, shipId), lte(t.recordingGapFacts.startMs, at), or(isNull(t.recordingGapFacts.endMs), gt(t.recordingGapFacts.endMs, at))));
  }

  /** Forgets facts that ended before `horizon` (nothing that old is kept to explain); how many. */
  async prune(horizon: number): Promise<number> {
    const gone = await this.db.delete(t.recordingGapFacts).where(lt(t.recordingGapFacts.endMs, horizon)).returning({ id: t.recordingGapFacts.id });
    return gone.length;
  }

  /** The facts of these ships overlapping [start, end). */
  async facts(shipIds: readonly string[], start: number, end: number): Promise<GapFactRow[]> {
    if (shipIds.length === 0) return [];
    const rows = await this.db
      .select()
      .from(t.recordingGapFacts)
      .where(and(inArray(t.recordingGapFacts.shipId, [...shipIds]), lt(t.recordingGapFacts.startMs, end), or(isNull(t.recordingGapFacts.endMs), gt(t.recordingGapFacts.endMs, start))))
      .orderBy(asc(t.recordingGapFacts.startMs));
    return rows.map((r) => ({ kind: r.kind as GapFactKind, shipId: r.shipId, cameraId: r.cameraId, startMs: r.startMs, endMs: r.endMs }));
  }

  /**
   * The cameras a gap query covers, of ships in `orgIds`: the filter's camera (recorded or not),
   * else those matching the filter with a kept recording overlapping [start, end); at most `limit`.
   */
  async cameras(orgIds: readonly string[], filter: RecordQueryFilter & { start: number; end: number }, limit: number): Promise<{ cameraId: string; shipId: string }[]> {
    if (orgIds.length === 0) return [];
    if (filter.cameraId) {
      const conds: SQL[] = [inArray(t.ships.orgId, [...orgIds]), eq(t.cameras.id, filter.cameraId)];
      if (filter.shipId) conds.push(eq(t.ships.id, filter.shipId));
      return this.db
        .select({ cameraId: t.cameras.id, shipId: t.ships.id })
        .from(t.cameras)
        .innerJoin(t.channels, eq(t.channels.id, t.cameras.channelId))
        .innerJoin(t.ships, eq(t.ships.id, t.channels.shipId))
        .where(and(...conds));
    }
    const recorded: SQL[] = [inArray(t.ships.orgId, [...orgIds]), gt(t.recordings.segments, 0), gt(t.recordings.endMs, filter.start), lt(t.recordings.startMs, filter.end)];
    if (filter.shipId) recorded.push(eq(t.recordings.shipId, filter.shipId));
    return this.db
      .selectDistinct({ cameraId: t.recordings.cameraId, shipId: t.recordings.shipId })
      .from(t.recordings)
      .innerJoin(t.ships, eq(t.ships.id, t.recordings.shipId))
      .where(and(...recorded))
      .orderBy(asc(t.recordings.cameraId))
      .limit(limit);
  }

  /** Kept recordings of these cameras overlapping [start, end): their spans, and whether still being written. */
  async recordedSpans(cameraIds: readonly string[], start: number, end: number): Promise<{ cameraId: string; start: number; end: number; open: boolean }[]> {
    if (cameraIds.length === 0) return [];
    return this.db
      .select({ cameraId: t.recordings.cameraId, start: t.recordings.startMs, end: t.recordings.endMs, open: t.recordings.open })
      .from(t.recordings)
      .where(and(inArray(t.recordings.cameraId, [...cameraIds]), gt(t.recordings.segments, 0), lt(t.recordings.startMs, end), or(gt(t.recordings.endMs, start), eq(t.recordings.open, true))))
      .orderBy(asc(t.recordings.startMs));
  }
}
