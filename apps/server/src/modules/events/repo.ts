import { and, arrayContains, asc, count, desc, eq, gte, inArray, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { CameraAnalysisStatus, CameraEventSettings, EventClass, EventInfo, OrgEventSettings } from '@ship-cctv/protocol';
import type { Db } from '../../core/db/client.ts';
import * as t from '../../core/db/schema.ts';

export type EventRow = typeof t.events.$inferSelect;
export type NewEventRow = typeof t.events.$inferInsert;

export interface EventQuery {
  orgIds: readonly string[];
  shipId?: string | undefined;
  cameraId?: string | undefined;
  eventClass?: EventClass | undefined;
  from?: number | undefined;
  to?: number | undefined;
  acknowledged?: boolean | undefined;
}

/** Where a ship's camera belongs on shore (undefined: the ship or camera is unknown). */
export interface CameraOwner {
  orgId: string;
  shipName: string;
  cameraName: string;
}

/** The events tables: events that crossed, their settings per camera and per organisation. The only code of the module that touches the database. */
export class EventRepo {
  constructor(private readonly db: Db) {}

  /** Adds an event; false when one with the id exists (a duplicate delivery). */
  async insert(row: NewEventRow): Promise<boolean> {
    const inserted = await this.db.insert(t.events).values(row).onConflictDoNothing({ target: t.events.id }).returning({ id: t.events.id });
    return inserted.length > 0;
  }

  /**
   * An event of this ship that went on after it was sent: its end and recording span move later
   * (never earlier) and its classes become those given. Answers the row, or undefined when this
   * ship has no event of that id.
   */
  async amend(id: string, shipId: string, change: { endMs: number; recordingTo: number; classes: { class: EventClass; score: number }[] }): Promise<EventRow | undefined> {
    const [row] = await this.db
      .update(t.events)
      .set({
        endMs: sql`greatest(${t.events.endMs}, ${change.endMs})`,
        recordingTo: sql`greatest(${t.events.recordingTo}, ${change.recordingTo})`,
        classes: change.classes,
        classNames: change.classes.map((c) => c.class),
      })
      .where(and(eq(t.events.id, id), eq(t.events.shipId, shipId)))
      .returning();
    return row;
  }

  async get(id: string): Promise<(EventRow & { shipName: string; cameraName: string }) | undefined> {
    const [row] = await this.selectInfo().where(eq(t.events.id, id));
    return row && { ...row.event, shipName: row.shipName, cameraName: row.cameraName ?? row.event.cameraId };
  }

  /** Newest first. */
  async query(q: EventQuery, page: number, size: number): Promise<{ total: number; events: EventInfo[] }> {
    if (q.orgIds.length === 0) return { total: 0, events: [] };
    const where: SQL[] = [inArray(t.events.orgId, [...q.orgIds])];
    if (q.shipId) where.push(eq(t.events.shipId, q.shipId));
    if (q.cameraId) where.push(eq(t.events.cameraId, q.cameraId));
    if (q.eventClass) where.push(arrayContains(t.events.classNames, [q.eventClass]));
    if (q.from !== undefined) where.push(gte(t.events.startMs, q.from));
    if (q.to !== undefined) where.push(lt(t.events.startMs, q.to));
    if (q.acknowledged !== undefined) where.push(q.acknowledged ? isNotNull(t.events.acknowledgedAt) : isNull(t.events.acknowledgedAt));
    const condition = and(...where);
    const [totalRow] = await this.db.select({ n: count() }).from(t.events).where(condition);
    const rows = await this.selectInfo()
      .where(condition)
      .orderBy(desc(t.events.startMs), desc(t.events.id))
      .limit(size)
      .offset((page - 1) * size);
    return { total: Number(totalRow?.n ?? 0), events: rows.map((r) => toInfo(r.event, r.shipName, r.cameraName ?? r.event.cameraId)) };
  }

  /**
   * Acknowledges the events of these ids within these organisations that nobody acknowledged yet
   * (the first acknowledgement is kept); answers those it acknowledged now.
   */
  async acknowledge(ids: readonly string[], orgIds: readonly string[], by: string, at: Date): Promise<EventRow[]> {
    if (ids.length === 0 || orgIds.length === 0) return [];
    return this.db
      .update(t.events)
      .set({ acknowledgedBy: by, acknowledgedAt: at })
      .where(and(inArray(t.events.id, [...ids]), inArray(t.events.orgId, [...orgIds]), isNull(t.events.acknowledgedAt)))
      .returning();
  }

  /** Events that started before `before` (ship's clock), oldest first, for retention. */
  async startedBefore(before: number, limit: number): Promise<EventRow[]> {
    return this.db.select().from(t.events).where(lt(t.events.startMs, before)).orderBy(asc(t.events.startMs)).limit(limit);
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(t.events).where(eq(t.events.id, id));
  }

  /** Unacknowledged events per ship of these organisations. */
  async unacknowledged(orgIds: readonly string[]): Promise<{ shipId: string; count: number }[]> {
    if (orgIds.length === 0) return [];
    const rows = await this.db
      .select({ shipId: t.events.shipId, n: count() })
      .from(t.events)
      .where(and(inArray(t.events.orgId, [...orgIds]), isNull(t.events.acknowledgedAt)))
      .groupBy(t.events.shipId)
      .orderBy(t.events.shipId);
    return rows.map((r) => ({ shipId: r.shipId, count: Number(r.n) }));
  }

  /** The organisation and names of a ship's camera. */
  async cameraOwner(shipId: string, cameraId: string): Promise<CameraOwner | undefined> {
    const [row] = await this.db
      .select({ orgId: t.ships.orgId, shipName: t.ships.name, cameraName: t.cameras.name })
      .from(t.cameras)
      .innerJoin(t.channels, eq(t.channels.id, t.cameras.channelId))
      .innerJoin(t.ships, eq(t.ships.id, t.channels.shipId))
      .where(and(eq(t.cameras.id, cameraId), eq(t.ships.id, shipId)));
    return row;
  }

  /** A camera's ship (undefined: no such camera). */
  async cameraShip(cameraId: string): Promise<{ shipId: string; orgId: string } | undefined> {
    const [row] = await this.db
      .select({ shipId: t.ships.id, orgId: t.ships.orgId })
      .from(t.cameras)
      .innerJoin(t.channels, eq(t.channels.id, t.cameras.channelId))
      .innerJoin(t.ships, eq(t.ships.id, t.channels.shipId))
      .where(eq(t.cameras.id, cameraId));
    return row;
  }

  async cameraSettings(cameraId: string): Promise<{ settings: CameraEventSettings | null; status: CameraAnalysisStatus | null } | undefined> {
    const [row] = await this.db.select({ settings: t.eventCameraSettings.settings, status: t.eventCameraSettings.status }).from(t.eventCameraSettings).where(eq(t.eventCameraSettings.cameraId, cameraId));
    return row;
  }

  /** Every camera of the ship whose settings were set on shore. */
  async shipCameraSettings(shipId: string): Promise<{ cameraId: string; settings: CameraEventSettings }[]> {
    const rows = await this.db
      .select({ cameraId: t.eventCameraSettings.cameraId, settings: t.eventCameraSettings.settings })
      .from(t.eventCameraSettings)
      .where(and(eq(t.eventCameraSettings.shipId, shipId), isNotNull(t.eventCameraSettings.settings)))
      .orderBy(t.eventCameraSettings.cameraId);
    return rows.flatMap((r) => (r.settings ? [{ cameraId: r.cameraId, settings: r.settings }] : []));
  }

  async saveCameraSettings(cameraId: string, shipId: string, settings: CameraEventSettings, by: string): Promise<void> {
    const updatedAt = new Date();
    await this.db
      .insert(t.eventCameraSettings)
      .values({ cameraId, shipId, settings, updatedBy: by, updatedAt })
      .onConflictDoUpdate({ target: t.eventCameraSettings.cameraId, set: { settings, updatedBy: by, updatedAt, shipId } });
  }

  /** What a ship reported of its cameras' analysis (cameras of other ships are left out). */
  async saveStatuses(shipId: string, statuses: readonly CameraAnalysisStatus[]): Promise<void> {
    if (statuses.length === 0) return;
    const known = await this.db
      .select({ id: t.cameras.id })
      .from(t.cameras)
      .innerJoin(t.channels, eq(t.channels.id, t.cameras.channelId))
      .where(and(eq(t.channels.shipId, shipId), inArray(t.cameras.id, statuses.map((s) => s.cameraId))));
    const ids = new Set(known.map((k) => k.id));
    const statusAt = new Date();
    const rows = statuses.filter((s) => ids.has(s.cameraId)).map((status) => ({ cameraId: status.cameraId, shipId, status, statusAt }));
    if (rows.length === 0) return;
    await this.db
      .insert(t.eventCameraSettings)
      .values(rows)
      .onConflictDoUpdate({ target: t.eventCameraSettings.cameraId, set: { status: sql`excluded.status`, statusAt: sql`excluded.status_at` } });
  }

  /** The organisations' own notify rules, of those given that have one. */
  async orgSettings(orgIds: readonly string[]): Promise<Map<string, OrgEventSettings>> {
    if (orgIds.length === 0) return new Map();
    const rows = await this.db.select({ orgId: t.eventOrgSettings.orgId, settings: t.eventOrgSettings.settings }).from(t.eventOrgSettings).where(inArray(t.eventOrgSettings.orgId, [...orgIds]));
    return new Map(rows.map((r) => [r.orgId, r.settings]));
  }

  async saveOrgSettings(orgId: string, settings: OrgEventSettings, by: string): Promise<void> {
    const updatedAt = new Date();
    await this.db
      .insert(t.eventOrgSettings)
      .values({ orgId, settings, updatedBy: by, updatedAt })
      .onConflictDoUpdate({ target: t.eventOrgSettings.orgId, set: { settings, updatedBy: by, updatedAt } });
  }

  private selectInfo() {
    return this.db
      .select({ event: t.events, shipName: t.ships.name, cameraName: t.cameras.name })
      .from(t.events)
      .innerJoin(t.ships, eq(t.ships.id, t.events.shipId))
      .leftJoin(t.cameras, eq(t.cameras.id, t.events.cameraId));
  }
}

export function toInfo(row: EventRow, shipName: string, cameraName: string): EventInfo {
  return {
    id: row.id,
    shipId: row.shipId,
    shipName,
    cameraId: row.cameraId,
    cameraName,
    start: row.startMs,
    end: row.endMs,
    classes: row.classes,
    ...(row.zone !== null ? { zone: row.zone } : {}),
    pictureWidth: row.pictureWidth,
    pictureHeight: row.pictureHeight,
    recordingFrom: row.recordingFrom,
    recordingTo: row.recordingTo,
    ...(row.acknowledgedBy !== null ? { acknowledgedBy: row.acknowledgedBy } : {}),
    ...(row.acknowledgedAt !== null ? { acknowledgedAt: row.acknowledgedAt.getTime() } : {}),
    receivedAt: row.receivedAt.getTime(),
  };
}
