import { and, asc, count, desc, eq, gte, inArray, isNull, lt, sql, sum, type SQL } from 'drizzle-orm';
import type { PictureInfo, ShipPictureEntry, ShorePictureOrigin } from '@ship-cctv/protocol';
import type { Db } from '../../core/db/client.ts';
import * as t from '../../core/db/schema.ts';

export type PictureRow = typeof t.pictures.$inferSelect;
export type NewPictureRow = typeof t.pictures.$inferInsert;
export type ShipPictureRow = typeof t.shipPictures.$inferSelect;
export type TaskRow = typeof t.snapshotTasks.$inferSelect;
export type NewTaskRow = typeof t.snapshotTasks.$inferInsert;
export type ShotRow = typeof t.snapshotShots.$inferSelect;
export type NewShotRow = typeof t.snapshotShots.$inferInsert;

export interface PictureQuery {
  orgIds: readonly string[];
  shipId?: string | undefined;
  channelId?: string | undefined;
  cameraId?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
  origin?: ShorePictureOrigin | undefined;
}

/** The pictures table (what shore holds) and the ship_pictures cache (what ships said they hold). */
export class PictureIndex {
  constructor(private readonly db: Db) {}

  /**
   * Adds a stored picture; false when one with the id exists (a duplicate delivery). A snapshot
   * that stills mode asked for (the camera's latest take in camera_stills) is stored as a still:
   * the ship takes it as any snapshot and knows nothing of stills.
   */
  async insert(row: NewPictureRow): Promise<boolean> {
    if (row.origin === 'manual') {
      const [still] = await this.db.select({ id: t.cameraStills.cameraId }).from(t.cameraStills).where(eq(t.cameraStills.pictureId, row.id)).limit(1);
      if (still) row = { ...row, origin: 'stills' };
    }
    const inserted = await this.db.insert(t.pictures).values(row).onConflictDoNothing({ target: t.pictures.id }).returning({ id: t.pictures.id });
    return inserted.length > 0;
  }

  async get(id: string): Promise<(PictureRow & { shipName: string }) | undefined> {
    const [row] = await this.db
      .select({ picture: t.pictures, shipName: t.ships.name })
      .from(t.pictures)
      .innerJoin(t.ships, eq(t.ships.id, t.pictures.shipId))
      .where(eq(t.pictures.id, id));
    return row ? { ...row.picture, shipName: row.shipName } : undefined;
  }

  /** The newest picture of a camera on shore (by when it shows). */
  async newestOfCamera(cameraId: string): Promise<PictureRow | undefined> {
    const [row] = await this.db.select().from(t.pictures).where(eq(t.pictures.cameraId, cameraId)).orderBy(desc(t.pictures.takenAt), desc(t.pictures.id)).limit(1);
    return row;
  }

  /** Bytes of a camera's newest pictures of one size, newest first. */
  async recentBytes(cameraId: string, width: number, height: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .select({ bytes: t.pictures.bytes })
      .from(t.pictures)
      .where(and(eq(t.pictures.cameraId, cameraId), eq(t.pictures.width, width), eq(t.pictures.height, height)))
      .orderBy(desc(t.pictures.takenAt), desc(t.pictures.id))
      .limit(limit);
    return rows.map((r) => r.bytes);
  }

  /** Which of these ids shore holds. */
  async held(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.select({ id: t.pictures.id }).from(t.pictures).where(inArray(t.pictures.id, [...ids]));
    return new Set(rows.map((r) => r.id));
  }

  /** Newest first. */
  async query(q: PictureQuery, page: number, size: number): Promise<{ total: number; pictures: PictureInfo[] }> {
    if (q.orgIds.length === 0) return { total: 0, pictures: [] };
    const where: SQL[] = [inArray(t.pictures.orgId, [...q.orgIds])];
    if (q.shipId) where.push(eq(t.pictures.shipId, q.shipId));
    if (q.channelId) where.push(eq(t.pictures.channelId, q.channelId));
    if (q.cameraId) where.push(eq(t.pictures.cameraId, q.cameraId));
    if (q.from !== undefined) where.push(gte(t.pictures.takenAt, new Date(q.from)));
    if (q.to !== undefined) where.push(lt(t.pictures.takenAt, new Date(q.to)));
    if (q.origin) where.push(eq(t.pictures.origin, q.origin));
    const condition = and(...where);
    const [totalRow] = await this.db.select({ n: count() }).from(t.pictures).where(condition);
    const rows = await this.db
      .select({ picture: t.pictures, shipName: t.ships.name })
      .from(t.pictures)
      .innerJoin(t.ships, eq(t.ships.id, t.pictures.shipId))
      .where(condition)
      .orderBy(desc(t.pictures.takenAt), desc(t.pictures.id))
      .limit(size)
      .offset((page - 1) * size);
    return { total: Number(totalRow?.n ?? 0), pictures: rows.map((r) => toInfo(r.picture, r.shipName)) };
  }

  async totalBytes(): Promise<number> {
    const [row] = await this.db.select({ n: sum(t.pictures.bytes), m: sum(t.pictures.thumbBytes) }).from(t.pictures);
    return Number(row?.n ?? 0) + Number(row?.m ?? 0);
  }

  /** The oldest pictures (by when they show), for retention. */
  async oldest(limit: number): Promise<PictureRow[]> {
    return this.db.select().from(t.pictures).orderBy(asc(t.pictures.takenAt), asc(t.pictures.id)).limit(limit);
  }

  async takenBefore(before: number, limit: number): Promise<PictureRow[]> {
    return this.db.select().from(t.pictures).where(lt(t.pictures.takenAt, new Date(before))).orderBy(asc(t.pictures.takenAt)).limit(limit);
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(t.pictures).where(eq(t.pictures.id, id));
  }

  /** Records what a ship said it holds (a list answer), with the thumbnails kept: one statement. */
  async rememberShipPictures(shipId: string, entries: readonly (ShipPictureEntry & { thumbFile: string | null })[]): Promise<void> {
    if (entries.length === 0) return;
    const listedAt = new Date();
    const rows = entries.map((e) => ({
      id: e.pictureId,
      shipId,
      cameraId: e.cameraId,
      takenAt: new Date(e.time),
      origin: e.origin,
      bytes: e.bytes,
      width: e.width,
      height: e.height,
      thumbFile: e.thumbFile,
      listedAt,
    }));
    await this.db
      .insert(t.shipPictures)
      .values(rows)
      .onConflictDoUpdate({
        target: t.shipPictures.id,
        set: { takenAt: sql`excluded.taken_at`, origin: sql`excluded.origin`, bytes: sql`excluded.bytes`, width: sql`excluded.width`, height: sql`excluded.height`, thumbFile: sql`excluded.thumb_file`, listedAt: sql`excluded.listed_at` },
      });
  }

  async shipPictures(shipId: string, cameraId: string, from: number, to: number, limit: number): Promise<ShipPictureRow[]> {
    return this.db
      .select()
      .from(t.shipPictures)
      .where(and(eq(t.shipPictures.shipId, shipId), eq(t.shipPictures.cameraId, cameraId), gte(t.shipPictures.takenAt, new Date(from)), lt(t.shipPictures.takenAt, new Date(to))))
      .orderBy(desc(t.shipPictures.takenAt))
      .limit(limit);
  }

  async shipPicture(id: string): Promise<ShipPictureRow | undefined> {
    const [row] = await this.db.select().from(t.shipPictures).where(eq(t.shipPictures.id, id));
    return row;
  }

  /** Forgets ship pictures no longer in a fresh list of [from, to) (the ship's retention took them). */
  async forgetShipPictures(shipId: string, cameraId: string, from: number, to: number, keep: ReadonlySet<string>): Promise<ShipPictureRow[]> {
    const rows = await this.shipPictures(shipId, cameraId, from, to, 100_000);
    const gone = rows.filter((r) => !keep.has(r.id));
    if (gone.length > 0) await this.db.delete(t.shipPictures).where(inArray(t.shipPictures.id, gone.map((r) => r.id)));
    return gone;
  }
}

/** Where pictures come from: the organisation of a channel's ship, a camera's channel and ship, a ship's name. */
export class PicturePlaces {
  constructor(private readonly db: Db) {}

  async orgOfChannel(channelId: string): Promise<string | undefined> {
    const [row] = await this.db.select({ orgId: t.ships.orgId }).from(t.channels).innerJoin(t.ships, eq(t.ships.id, t.channels.shipId)).where(eq(t.channels.id, channelId));
    return row?.orgId;
  }

  async camera(cameraId: string): Promise<{ orgId: string; channelId: string; shipId: string } | undefined> {
    const [row] = await this.db
      .select({ orgId: t.ships.orgId, channelId: t.cameras.channelId, shipId: t.channels.shipId })
      .from(t.cameras)
      .innerJoin(t.channels, eq(t.channels.id, t.cameras.channelId))
      .innerJoin(t.ships, eq(t.ships.id, t.channels.shipId))
      .where(eq(t.cameras.id, cameraId));
    return row;
  }

  async shipName(shipId: string): Promise<string | undefined> {
    const [row] = await this.db.select({ name: t.ships.name }).from(t.ships).where(eq(t.ships.id, shipId));
    return row?.name;
  }
}

/** Snapshot tasks and the shots their ships reported. */
export class TaskRepo {
  constructor(private readonly db: Db) {}

  async add(task: NewTaskRow): Promise<void> {
    await this.db.insert(t.snapshotTasks).values(task);
  }

  async task(id: string): Promise<TaskRow | undefined> {
    const [task] = await this.db.select().from(t.snapshotTasks).where(eq(t.snapshotTasks.id, id));
    return task;
  }

  /** A task with its ship's name. */
  async taskWithShip(id: string): Promise<{ task: TaskRow; shipName: string } | undefined> {
    const [row] = await this.db
      .select({ task: t.snapshotTasks, shipName: t.ships.name })
      .from(t.snapshotTasks)
      .innerJoin(t.ships, eq(t.ships.id, t.snapshotTasks.shipId))
      .where(eq(t.snapshotTasks.id, id));
    return row;
  }

  /** The tasks of these organisations (of one ship when given), with their ships' names. */
  tasksWithShips(orgIds: readonly string[], shipId: string | undefined): Promise<{ task: TaskRow; shipName: string }[]> {
    const where = [inArray(t.snapshotTasks.orgId, [...orgIds]), ...(shipId ? [eq(t.snapshotTasks.shipId, shipId)] : [])];
    return this.db
      .select({ task: t.snapshotTasks, shipName: t.ships.name })
      .from(t.snapshotTasks)
      .innerJoin(t.ships, eq(t.ships.id, t.snapshotTasks.shipId))
      .where(and(...where));
  }

  /** A ship's tasks; `undeleted`: only those not deleted. */
  tasksOfShip(shipId: string, undeleted = false): Promise<TaskRow[]> {
    const where = undeleted ? and(eq(t.snapshotTasks.shipId, shipId), isNull(t.snapshotTasks.deletedAt)) : eq(t.snapshotTasks.shipId, shipId);
    return this.db.select().from(t.snapshotTasks).where(where);
  }

  async mark(id: string, at: Partial<Pick<TaskRow, 'deletedAt' | 'handedOverAt' | 'droppedAt'>>): Promise<void> {
    await this.db.update(t.snapshotTasks).set(at).where(eq(t.snapshotTasks.id, id));
  }

  shotsOf(taskIds: readonly string[]): Promise<ShotRow[]> {
    if (taskIds.length === 0) return Promise.resolve([]);
    return taskIds.length === 1
      ? this.db.select().from(t.snapshotShots).where(eq(t.snapshotShots.taskId, taskIds[0] as string))
      : this.db.select().from(t.snapshotShots).where(inArray(t.snapshotShots.taskId, [...taskIds]));
  }

  /** Keeps reported shots, once each (a shot reported again replaces what was said of it). */
  async reportShots(rows: readonly NewShotRow[]): Promise<void> {
    await this.db
      .insert(t.snapshotShots)
      .values([...rows])
      .onConflictDoUpdate({
        target: [t.snapshotShots.taskId, t.snapshotShots.cameraId, t.snapshotShots.idx],
        set: { outcome: sql`excluded.outcome`, pictureId: sql`excluded.picture_id`, reason: sql`excluded.reason`, reportedAt: sql`excluded.reported_at` },
      });
  }

  /** Which of these pictures shore holds. */
  async picturesHeld(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const held = await this.db.select({ id: t.pictures.id }).from(t.pictures).where(inArray(t.pictures.id, [...ids]));
    return new Set(held.map((h) => h.id));
  }
}

export function toInfo(p: PictureRow, shipName: string): PictureInfo {
  return {
    id: p.id,
    orgId: p.orgId,
    shipId: p.shipId,
    shipName,
    channelId: p.channelId,
    cameraId: p.cameraId,
    takenAt: p.takenAt.getTime(),
    origin: p.origin === 'task' || p.origin === 'stills' ? p.origin : 'manual',
    taskId: p.taskId,
    bytes: p.bytes,
    width: p.width,
    height: p.height,
    storedAt: p.storedAt.getTime(),
  };
}
