import { and, asc, count, desc, eq, gt, inArray, lt, max, min, sum, type SQL } from 'drizzle-orm';
import { type BackfilledDefinition, BACKFILL_DEFINITIONS, type BackfillDefinition, type RecordConfig, type RecordQueryFilter, type RecordingSegment, type RecordingSummary } from '@ship-cctv/protocol';
import type { Db } from '../../core/db/client.ts';
import * as t from '../../core/db/schema.ts';

export type SegmentRow = typeof t.recordingSegments.$inferSelect;
export type RecordingRow = typeof t.recordings.$inferSelect;

export interface CameraInfo {
  cameraId: string;
  shipId: string;
  shipName: string;
  orgId: string;
  sourceType: string;
  other: string;
}

export interface NewRecording {
  id: string;
  cameraId: string;
  shipId: string;
  recordConfigId: string;
  templateId: number;
  startMs: number;
  /** Copied from the ship recorder (backfill); default false. */
  backfilled?: boolean;
}

export interface NewSegment {
  id: string;
  recordingId: string;
  seq: number;
  startMs: number;
  endMs: number;
  bytes: number;
  file: string;
  mime: string;
}

/** A camera with its ship (CameraInfo), from cameras joined to channels or recordings, and ships. */
const cameraInfoColumns = {
  cameraId: t.cameras.id,
  shipId: t.ships.id,
  shipName: t.ships.name,
  orgId: t.ships.orgId,
  sourceType: t.cameras.sourceType,
  other: t.cameras.other,
};

const summaryColumns = {
  id: t.recordings.id,
  orgId: t.ships.orgId,
  shipId: t.recordings.shipId,
  cameraId: t.recordings.cameraId,
  recordConfigId: t.recordings.recordConfigId,
  templateId: t.recordings.templateId,
  start: t.recordings.startMs,
  end: t.recordings.endMs,
  bytes: t.recordings.bytes,
  segments: t.recordings.segments,
  backfilled: t.recordings.backfilled,
  definition: t.recordings.definition,
};

/** A stored backfill definition, or null for none (or one this server does not know). */
export function backfillDefinitionOf(value: string | null): BackfillDefinition | null {
  return (BACKFILL_DEFINITIONS as readonly string[]).includes(value ?? '') ? (value as BackfillDefinition) : null;
}

export function toConfig(row: typeof t.recordConfigs.$inferSelect): RecordConfig {
  return {
    id: row.id,
    cameraId: row.cameraId,
    mode: row.mode === 'scheduled' ? 'scheduled' : 'continuous',
    schedule: row.schedule,
    timeZone: row.timeZone,
    enabled: row.enabled,
    backfill: row.backfill,
    backfillDefinition: backfillDefinitionOf(row.backfillDefinition),
  };
}

export function toSegment(row: SegmentRow): RecordingSegment {
  return { id: row.id, recordingId: row.recordingId, start: row.startMs, end: row.endMs, bytes: row.bytes, mime: row.mime };
}

/** The shore recorder's index: configurations, recordings and their segments. */
export class RecordingStore {
  constructor(readonly db: Db) {}

  // --- configurations ---------------------------------------------------------------------------

  async enabledConfigs(): Promise<RecordConfig[]> {
    const rows = await this.db.select().from(t.recordConfigs).where(eq(t.recordConfigs.enabled, true)).orderBy(asc(t.recordConfigs.id));
    return rows.map(toConfig);
  }

  async configs(where: { orgIds: readonly string[]; shipId?: string | undefined; cameraId?: string | undefined }): Promise<(RecordConfig & { shipId: string; orgId: string })[]> {
    if (where.orgIds.length === 0) return [];
    const conds: SQL[] = [inArray(t.ships.orgId, [...where.orgIds])];
    if (where.shipId) conds.push(eq(t.ships.id, where.shipId));
    if (where.cameraId) conds.push(eq(t.recordConfigs.cameraId, where.cameraId));
    const rows = await this.db
      .select({ config: t.recordConfigs, shipId: t.ships.id, orgId: t.ships.orgId })
      .from(t.recordConfigs)
      .innerJoin(t.cameras, eq(t.cameras.id, t.recordConfigs.cameraId))
      .innerJoin(t.channels, eq(t.channels.id, t.cameras.channelId))
      .innerJoin(t.ships, eq(t.ships.id, t.channels.shipId))
      .where(and(...conds))
      .orderBy(asc(t.recordConfigs.cameraId), asc(t.recordConfigs.id));
    return rows.map((r) => ({ ...toConfig(r.config), shipId: r.shipId, orgId: r.orgId }));
  }

  async config(id: string): Promise<RecordConfig | undefined> {
    const [row] = await this.db.select().from(t.recordConfigs).where(eq(t.recordConfigs.id, id));
    return row ? toConfig(row) : undefined;
  }

  async saveConfig(config: RecordConfig): Promise<void> {
    const values = {
      cameraId: config.cameraId,
      mode: config.mode,
      schedule: config.schedule,
      timeZone: config.timeZone,
      enabled: config.enabled,
      backfill: config.backfill,
      backfillDefinition: config.backfillDefinition,
    };
    await this.db
      .insert(t.recordConfigs)
      .values({ id: config.id, ...values })
      .onConflictDoUpdate({ target: t.recordConfigs.id, set: values });
  }

  async deleteConfig(id: string): Promise<void> {
    await this.db.delete(t.recordConfigs).where(eq(t.recordConfigs.id, id));
  }

  // --- cameras ----------------------------------------------------------------------------------

  async cameraInfo(cameraId: string): Promise<CameraInfo | undefined> {
    const [row] = await this.db
      .select(cameraInfoColumns)
      .from(t.cameras)
      .innerJoin(t.channels, eq(t.channels.id, t.cameras.channelId))
      .innerJoin(t.ships, eq(t.ships.id, t.channels.shipId))
      .where(eq(t.cameras.id, cameraId));
    return row;
  }

  /** Open recordings with their camera, for the STOMP snapshot. */
  async openRecordings(): Promise<(CameraInfo & { recordingId: string; recordConfigId: string; start: number })[]> {
    return this.db
      .select({
        recordingId: t.recordings.id,
        recordConfigId: t.recordings.recordConfigId,
        start: t.recordings.startMs,
        ...cameraInfoColumns,
      })
      .from(t.recordings)
      .innerJoin(t.cameras, eq(t.cameras.id, t.recordings.cameraId))
      .innerJoin(t.ships, eq(t.ships.id, t.recordings.shipId))
      .where(eq(t.recordings.open, true));
  }

  // --- writing ----------------------------------------------------------------------------------

  async createRecording(r: NewRecording): Promise<void> {
    // Idempotent: a retry after a lost acknowledgement finds the row there.
    await this.db.insert(t.recordings).values({ ...r, endMs: r.startMs, bytes: 0, segments: 0, open: true }).onConflictDoNothing();
  }

  /** Indexes a finished segment file and extends its recording, in one transaction. */
  async addSegment(s: NewSegment): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.insert(t.recordingSegments).values(s).onConflictDoNothing();
      await refreshRecording(tx, s.recordingId);
    });
  }

  /** The recording is complete: closed, or deleted when no segment of it was kept. Answers whether it was kept. */
  /** `definition`: what a backfilled recording holds, measured from its files. */
  async closeRecording(id: string, opts: { endedUnwatched?: boolean; definition?: BackfilledDefinition } = {}): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(t.recordings)
        .set({ open: false, endedUnwatched: opts.endedUnwatched ?? false, ...(opts.definition ? { definition: opts.definition } : {}) })
        .where(eq(t.recordings.id, id)).returning();
      if (row && row.segments === 0) {
        await tx.delete(t.recordings).where(eq(t.recordings.id, id));
        return false;
      }
      return row !== undefined;
    });
  }

  async recording(id: string): Promise<(RecordingRow & { orgId: string }) | undefined> {
    const [row] = await this.db
      .select({ recording: t.recordings, orgId: t.ships.orgId })
      .from(t.recordings)
      .innerJoin(t.ships, eq(t.ships.id, t.recordings.shipId))
      .where(eq(t.recordings.id, id));
    return row ? { ...row.recording, orgId: row.orgId } : undefined;
  }

  async recordingsByIds(ids: readonly string[]): Promise<RecordingRow[]> {
    if (ids.length === 0) return [];
    return this.db.select().from(t.recordings).where(inArray(t.recordings.id, [...ids]));
  }

  async segments(recordingId: string): Promise<SegmentRow[]> {
    return this.db.select().from(t.recordingSegments).where(eq(t.recordingSegments.recordingId, recordingId)).orderBy(asc(t.recordingSegments.seq));
  }

  async segment(id: string): Promise<(SegmentRow & { orgId: string }) | undefined> {
    const [row] = await this.db
      .select({ segment: t.recordingSegments, orgId: t.ships.orgId })
      .from(t.recordingSegments)
      .innerJoin(t.recordings, eq(t.recordings.id, t.recordingSegments.recordingId))
      .innerJoin(t.ships, eq(t.ships.id, t.recordings.shipId))
      .where(eq(t.recordingSegments.id, id));
    return row ? { ...row.segment, orgId: row.orgId } : undefined;
  }

  // --- reading ----------------------------------------------------------------------------------

  /** A page of recordings (newest first) of ships in `orgIds`, matching the filter; recordings without segments are left out. */
  async query(orgIds: readonly string[], filter: RecordQueryFilter, page: number, size: number): Promise<{ total: number; records: RecordingSummary[] }> {
    if (orgIds.length === 0) return { total: 0, records: [] };
    const conds: SQL[] = [inArray(t.ships.orgId, [...orgIds]), gt(t.recordings.segments, 0)];
    if (filter.shipId) conds.push(eq(t.recordings.shipId, filter.shipId));
    if (filter.cameraId) conds.push(eq(t.recordings.cameraId, filter.cameraId));
    if (filter.start !== undefined) conds.push(gt(t.recordings.endMs, filter.start));
    if (filter.end !== undefined) conds.push(lt(t.recordings.startMs, filter.end));
    const where = and(...conds);
    const [totalRow] = await this.db
      .select({ n: count() })
      .from(t.recordings)
      .innerJoin(t.ships, eq(t.ships.id, t.recordings.shipId))
      .where(where);
    const records = await this.db
      .select(summaryColumns)
      .from(t.recordings)
      .innerJoin(t.ships, eq(t.ships.id, t.recordings.shipId))
      .where(where)
      .orderBy(desc(t.recordings.startMs), asc(t.recordings.id))
      .limit(size)
      .offset((page - 1) * size);
    return { total: totalRow?.n ?? 0, records };
  }

  // --- retention and recovery ------------------------------------------------------------------

  async totalBytes(): Promise<number> {
    const [row] = await this.db.select({ bytes: sum(t.recordingSegments.bytes) }).from(t.recordingSegments);
    return Number(row?.bytes ?? 0);
  }

  async segmentsEndingBefore(time: number, limit: number): Promise<SegmentRow[]> {
    return this.db.select().from(t.recordingSegments).where(lt(t.recordingSegments.endMs, time)).orderBy(asc(t.recordingSegments.startMs)).limit(limit);
  }

  async oldestSegments(limit: number): Promise<SegmentRow[]> {
    return this.db.select().from(t.recordingSegments).orderBy(asc(t.recordingSegments.startMs), asc(t.recordingSegments.seq)).limit(limit);
  }

  /** Removes segment rows and brings their recordings up to date; closed recordings left empty go too. */
  async deleteSegments(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.transaction(async (tx) => {
      const gone = await tx.delete(t.recordingSegments).where(inArray(t.recordingSegments.id, [...ids])).returning({ recordingId: t.recordingSegments.recordingId });
      for (const recordingId of new Set(gone.map((g) => g.recordingId))) {
        const kept = await refreshRecording(tx, recordingId);
        if (kept === 0) await tx.delete(t.recordings).where(and(eq(t.recordings.id, recordingId), eq(t.recordings.open, false)));
      }
    });
  }

  async maxSeq(recordingId: string): Promise<number> {
    const [row] = await this.db.select({ seq: max(t.recordingSegments.seq) }).from(t.recordingSegments).where(eq(t.recordingSegments.recordingId, recordingId));
    return row?.seq ?? -1;
  }

  async segmentFiles(recordingId: string): Promise<Set<string>> {
    const rows = await this.db.select({ file: t.recordingSegments.file }).from(t.recordingSegments).where(eq(t.recordingSegments.recordingId, recordingId));
    return new Set(rows.map((r) => r.file));
  }

  async deleteRecording(id: string): Promise<void> {
    await this.db.delete(t.recordings).where(eq(t.recordings.id, id));
  }
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Recomputes a recording's span, bytes and segment count from its segments; answers the count. */
async function refreshRecording(tx: Tx, recordingId: string): Promise<number> {
  const [agg] = await tx
    .select({ start: min(t.recordingSegments.startMs), end: max(t.recordingSegments.endMs), bytes: sum(t.recordingSegments.bytes), n: count() })
    .from(t.recordingSegments)
    .where(eq(t.recordingSegments.recordingId, recordingId));
  const n = agg?.n ?? 0;
  if (n === 0) {
    await tx.update(t.recordings).set({ bytes: 0, segments: 0 }).where(eq(t.recordings.id, recordingId));
    return 0;
  }
  await tx
    .update(t.recordings)
    .set({
      startMs: Number(agg?.start),
      endMs: Number(agg?.end),
      bytes: Number(agg?.bytes ?? 0),
      segments: n,
    })
    .where(eq(t.recordings.id, recordingId));
  return n;
}
