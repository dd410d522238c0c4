import { and, asc, count, eq, ilike, inArray, like, ne, or } from 'drizzle-orm';
import type { Db } from '../../core/db/client.ts';
import * as t from '../../core/db/schema.ts';
import { escapeLike } from '../../core/db/sql-like.ts';

export type ShipRow = typeof t.ships.$inferSelect;

/** The fleet's reads: ships, channels, cameras, their definitions and tags. */
export class FleetRepo {
  constructor(private readonly db: Db) {}

  /** The ships of these organisations, in the tree's order. */
  shipsOfOrganizations(orgIds: readonly string[]): Promise<ShipRow[]> {
    return this.db.select().from(t.ships).where(inArray(t.ships.orgId, [...orgIds])).orderBy(asc(t.ships.sort), asc(t.ships.id));
  }

  /** A camera with its channel and ship. */
  async camera(cameraId: string) {
    const [row] = await this.db
      .select({ camera: t.cameras, channel: t.channels, ship: t.ships })
      .from(t.cameras)
      .innerJoin(t.channels, eq(t.channels.id, t.cameras.channelId))
      .innerJoin(t.ships, eq(t.ships.id, t.channels.shipId))
      .where(eq(t.cameras.id, cameraId));
    return row;
  }

  async ship(shipId: string): Promise<ShipRow | undefined> {
    const [ship] = await this.db.select().from(t.ships).where(eq(t.ships.id, shipId));
    return ship;
  }

  /** A ship's channels, each with its cameras (a channel without cameras once, with null), in display order. */
  channelsWithCameras(shipId: string) {
    return this.db
      .select({ channel: t.channels, camera: t.cameras })
      .from(t.channels)
      .leftJoin(t.cameras, eq(t.cameras.channelId, t.channels.id))
      .where(eq(t.channels.shipId, shipId))
      .orderBy(asc(t.channels.sort), asc(t.channels.id), asc(t.cameras.sort), asc(t.cameras.id));
  }

  /** A ship's configuration row, its definition groups and their models. */
  async definitions(shipId: string) {
    const [config] = await this.db.select().from(t.shipConfigs).where(eq(t.shipConfigs.shipId, shipId));
    const groups = await this.db
      .select({ group: t.definitionGroups })
      .from(t.shipDefinitionGroups)
      .innerJoin(t.definitionGroups, eq(t.definitionGroups.id, t.shipDefinitionGroups.groupId))
      .where(eq(t.shipDefinitionGroups.shipId, shipId))
      .orderBy(asc(t.definitionGroups.id));
    const groupIds = groups.map((g) => g.group.id);
    const models =
      groupIds.length === 0
        ? []
        : await this.db.select().from(t.definitionModels).where(inArray(t.definitionModels.groupId, groupIds)).orderBy(asc(t.definitionModels.id));
    return { config, groups, models };
  }

  /** The channel tags of these organisations, each with its channels (a tag without any once, with null). */
  channelTags(orgIds: readonly string[]) {
    return this.db
      .select({ tag: t.channelTags, channelId: t.channelTagMembers.channelId })
      .from(t.channelTags)
      .leftJoin(t.channelTagMembers, eq(t.channelTagMembers.tagId, t.channelTags.id))
      .where(inArray(t.channelTags.orgId, [...orgIds]))
      .orderBy(asc(t.channelTags.id), asc(t.channelTagMembers.channelId));
  }

  /** How many ships, channels (by blocked or not) and cameras of unblocked channels these organisations have. */
  async counts(orgIds: readonly string[]) {
    const ids = [...orgIds];
    const [ships] = await this.db.select({ n: count() }).from(t.ships).where(inArray(t.ships.orgId, ids));
    const channels = await this.db
      .select({ block: t.channels.block, n: count() })
      .from(t.channels)
      .innerJoin(t.ships, eq(t.ships.id, t.channels.shipId))
      .where(inArray(t.ships.orgId, ids))
      .groupBy(t.channels.block);
    const [cameras] = await this.db
      .select({ n: count() })
      .from(t.cameras)
      .innerJoin(t.channels, eq(t.channels.id, t.cameras.channelId))
      .innerJoin(t.ships, eq(t.ships.id, t.channels.shipId))
      .where(and(inArray(t.ships.orgId, ids), eq(t.channels.block, 0)));
    return { ships: ships?.n ?? 0, channels, cameras: cameras?.n ?? 0 };
  }

  /** Ships of these organisations, limited to the given ids when there are some, in the tree's order. */
  ships(orgIds: readonly string[], shipIds?: readonly string[]): Promise<{ id: string; name: string }[]> {
    const where = shipIds ? and(inArray(t.ships.orgId, [...orgIds]), inArray(t.ships.id, [...shipIds])) : inArray(t.ships.orgId, [...orgIds]);
    return this.db.select({ id: t.ships.id, name: t.ships.name }).from(t.ships).where(where).orderBy(asc(t.ships.sort), asc(t.ships.id));
  }

  shipsNamed(name: string): Promise<ShipRow[]> {
    return this.db.select().from(t.ships).where(eq(t.ships.name, name));
  }

  /** Ships named `instanceId`, or with a camera whose source settings mention it, with those cameras' source. */
  shipsMentioning(instanceId: string) {
    return this.db
      .select({ ship: t.ships, sourceType: t.cameras.sourceType, other: t.cameras.other })
      .from(t.ships)
      .leftJoin(t.channels, eq(t.channels.shipId, t.ships.id))
      .leftJoin(t.cameras, eq(t.cameras.channelId, t.channels.id))
      .where(or(eq(t.ships.name, instanceId), like(t.cameras.other, `%${escapeLike(instanceId)}%`)));
  }
}

/** The LIKE pattern that finds a text anywhere in a name (its %, _ and \\ taken literally). */
export const containing = (text: string): string => `%${escapeLike(text)}%`;

/**
 * Unblocked channels of these organisations whose name, or one of whose cameras' names, matches the
 * pattern (case-insensitively), in the tree's order, at most `limit`.
 */
export function channelsMatching(db: Db, orgIds: readonly string[], pattern: string, limit: number) {
  const cameraHit = db.select({ channelId: t.cameras.channelId }).from(t.cameras).where(ilike(t.cameras.name, pattern));
  return db
    .select({ shipId: t.channels.shipId, channelId: t.channels.id, channelName: t.channels.name })
    .from(t.channels)
    .innerJoin(t.ships, eq(t.ships.id, t.channels.shipId))
    .where(and(inArray(t.ships.orgId, [...orgIds]), ne(t.channels.block, 1), or(ilike(t.channels.name, pattern), inArray(t.channels.id, cameraHit))))
    .orderBy(asc(t.ships.sort), asc(t.ships.id), asc(t.channels.sort), asc(t.channels.id))
    .limit(limit);
}

/** The cameras of these channels whose name matches the pattern (case-insensitively), in display order. */
export function camerasMatching(db: Db, channelIds: readonly string[], pattern: string) {
  return db
    .select({ id: t.cameras.id, channelId: t.cameras.channelId })
    .from(t.cameras)
    .where(and(inArray(t.cameras.channelId, [...channelIds]), ilike(t.cameras.name, pattern)))
    .orderBy(asc(t.cameras.sort), asc(t.cameras.id));
}

/** Every camera of every ship, in the tree's order: the simulated fleet's file. */
export function everyCamera(db: Db) {
  return db
    .select({ shipId: t.ships.id, cameraId: t.cameras.id, cameraName: t.cameras.name, channelType: t.cameras.type })
    .from(t.ships)
    .innerJoin(t.channels, eq(t.channels.shipId, t.ships.id))
    .innerJoin(t.cameras, eq(t.cameras.channelId, t.channels.id))
    .orderBy(asc(t.ships.sort), asc(t.ships.id), asc(t.channels.sort), asc(t.cameras.sort));
}
