import { and, asc, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../../core/db/client.ts';
import * as t from '../../core/db/schema.ts';

export type CarouselRow = typeof t.carousels.$inferSelect;
export type CarouselValues = Omit<typeof t.carousels.$inferInsert, 'id' | 'createdBy' | 'createdAt' | 'updatedAt'>;

/** Carousels, and the channels, ships and definition models they name. */
export class CarouselRepo {
  constructor(private readonly db: Db) {}

  async carousel(id: string): Promise<CarouselRow | undefined> {
    const [row] = await this.db.select().from(t.carousels).where(eq(t.carousels.id, id));
    return row;
  }

  /** The carousels of a kind of these organisations, oldest first. */
  list(kind: string, orgIds: readonly string[]): Promise<CarouselRow[]> {
    return this.db
      .select()
      .from(t.carousels)
      .where(and(eq(t.carousels.kind, kind), inArray(t.carousels.orgId, [...orgIds])))
      .orderBy(asc(t.carousels.createdAt), asc(t.carousels.id));
  }

  /** The running tasks of these organisations. */
  runningTasks(orgIds: readonly string[]): Promise<CarouselRow[]> {
    return this.db
      .select()
      .from(t.carousels)
      .where(and(eq(t.carousels.kind, 'task'), inArray(t.carousels.orgId, [...orgIds]), isNotNull(t.carousels.startedAt)));
  }

  async insert(row: typeof t.carousels.$inferInsert): Promise<CarouselRow | undefined> {
    const [saved] = await this.db.insert(t.carousels).values(row).returning();
    return saved;
  }

  async update(id: string, values: CarouselValues & { updatedAt: Date }): Promise<CarouselRow | undefined> {
    const [row] = await this.db.update(t.carousels).set(values).where(eq(t.carousels.id, id)).returning();
    return row;
  }

  async remove(id: string): Promise<void> {
    await this.db.delete(t.carousels).where(eq(t.carousels.id, id));
  }

  /** Starts a stopped task (one start wins a race); undefined when it runs already. */
  async start(id: string, startedAt: Date, runJobId: string): Promise<CarouselRow | undefined> {
    const [started] = await this.db
      .update(t.carousels)
      .set({ startedAt, runJobId })
      .where(and(eq(t.carousels.id, id), isNull(t.carousels.startedAt)))
      .returning();
    return started;
  }

  /** Takes back a start whose run job is this one (its job could not be queued). */
  async unstart(id: string, runJobId: string): Promise<void> {
    await this.db.update(t.carousels).set({ startedAt: null, runJobId: null }).where(and(eq(t.carousels.id, id), eq(t.carousels.runJobId, runJobId)));
  }

  /** Stops a running task; undefined when it was not running. */
  async stop(id: string): Promise<CarouselRow | undefined> {
    const [stopped] = await this.db
      .update(t.carousels)
      .set({ startedAt: null, runJobId: null })
      .where(and(eq(t.carousels.id, id), isNotNull(t.carousels.startedAt)))
      .returning();
    return stopped;
  }

  /**
   * Unblocked channels with a camera of ships of these organisations — of the listed channels, of
   * the listed ships, or all — each camera with its channel and ship, in display order.
   */
  cells(q: { channelIds?: readonly string[] | undefined; shipIds?: readonly string[] | undefined }, orgIds: readonly string[]) {
    const chosen = q.channelIds ? inArray(t.channels.id, [...q.channelIds]) : q.shipIds ? inArray(t.ships.id, [...q.shipIds]) : undefined;
    return this.db
      .select({ channel: t.channels, camera: t.cameras, ship: t.ships })
      .from(t.channels)
      .innerJoin(t.cameras, eq(t.cameras.channelId, t.channels.id))
      .innerJoin(t.ships, eq(t.ships.id, t.channels.shipId))
      .where(and(chosen, eq(t.channels.block, 0), inArray(t.ships.orgId, [...orgIds])))
      .orderBy(asc(t.ships.sort), asc(t.ships.id), asc(t.channels.sort), asc(t.channels.id), asc(t.cameras.sort), asc(t.cameras.id));
  }

  /** These channels' ship's organisation and blocked flag. */
  channels(channelIds: readonly string[]): Promise<{ id: string; orgId: string; block: number }[]> {
    return this.db
      .select({ id: t.channels.id, orgId: t.ships.orgId, block: t.channels.block })
      .from(t.channels)
      .innerJoin(t.ships, eq(t.ships.id, t.channels.shipId))
      .where(inArray(t.channels.id, [...channelIds]));
  }

  ships(shipIds: readonly string[]): Promise<{ id: string; orgId: string }[]> {
    return this.db.select({ id: t.ships.id, orgId: t.ships.orgId }).from(t.ships).where(inArray(t.ships.id, [...shipIds]));
  }

  /** Whether the definition model belongs to a group of one of these organisations. */
  async modelOf(templateId: number, orgIds: readonly string[]): Promise<boolean> {
    const [row] = await this.db
      .select({ id: t.definitionModels.id })
      .from(t.definitionModels)
      .innerJoin(t.definitionGroups, eq(t.definitionGroups.id, t.definitionModels.groupId))
      .where(and(eq(t.definitionModels.id, templateId), inArray(t.definitionGroups.orgId, [...orgIds])));
    return row !== undefined;
  }
}
