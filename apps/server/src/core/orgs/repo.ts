import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { memberships, organizations, ships } from '../db/schema.ts';
import { OrgTree } from './org-tree.ts';

/** An organisation as stored: its place in the tree, its names and its viewing settings. */
export type Organisation = typeof organizations.$inferSelect;

/** Reads the whole organisations table into a tree: the one read of it a request makes. */
export async function loadOrgTree(db: Db): Promise<OrgTree> {
  return new OrgTree(await db.select().from(organizations).orderBy(asc(organizations.id)));
}

/** Changes an organisation's continuous-watching limit; answers the row as written (undefined: no such organisation). */
export async function saveAutoShutdown(db: Db, orgId: string, limit: { enabled: boolean; minutes: number; countdownSeconds: number }): Promise<Organisation | undefined> {
  const [row] = await db
    .update(organizations)
    .set({ autoShutdownEnabled: limit.enabled, autoShutdownMinutes: limit.minutes, autoShutdownCountdownSeconds: limit.countdownSeconds })
    .where(eq(organizations.id, orgId))
    .returning();
  return row;
}

/** A user's memberships: which organisations, and in which role. */
export function membershipsOf(db: Db, userId: string): Promise<{ orgId: string; role: string }[]> {
  return db.select({ orgId: memberships.orgId, role: memberships.role }).from(memberships).where(eq(memberships.userId, userId));
}

/** The organisations the user manages (memberships with the manager role). */
export async function managedOrgIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ orgId: memberships.orgId })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.role, 'manager')));
  return rows.map((m) => m.orgId);
}

/** The ships of these organisations, in the tree's order. */
export function shipsOfOrganizations(db: Db, orgIds: readonly string[]): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: ships.id, name: ships.name })
    .from(ships)
    .where(inArray(ships.orgId, [...orgIds]))
    .orderBy(asc(ships.sort), asc(ships.id));
}
