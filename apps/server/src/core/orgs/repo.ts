import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { memberships, organizations, ships } from '../db/schema.ts';
import type { OrgRow } from './access.ts';

export type OrganizationRow = typeof organizations.$inferSelect;

/** A user's memberships: which organisations, and in which role. */
export function membershipsOf(db: Db, userId: string): Promise<{ orgId: string; role: string }[]> {
  return db.select({ orgId: memberships.orgId, role: memberships.role }).from(memberships).where(eq(memberships.userId, userId));
}

/** Every organisation as a node of the tree (id, names, parent). */
export function allOrganizations(db: Db): Promise<OrgRow[]> {
  return db
    .select({ id: organizations.id, name: organizations.name, displayName: organizations.displayName, parentId: organizations.parentId })
    .from(organizations);
}

/** One organisation's row, or undefined. */
export async function organizationRow(db: Db, orgId: string): Promise<OrganizationRow | undefined> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, orgId));
  return row;
}

/** The ships of these organisations, in the tree's order. */
export function shipsOfOrganizations(db: Db, orgIds: readonly string[]): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: ships.id, name: ships.name })
    .from(ships)
    .where(inArray(ships.orgId, [...orgIds]))
    .orderBy(asc(ships.sort), asc(ships.id));
}

/** The organisations the user manages (memberships with the manager role). */
export async function managedOrgIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ orgId: memberships.orgId })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.role, 'manager')));
  return rows.map((m) => m.orgId);
}
