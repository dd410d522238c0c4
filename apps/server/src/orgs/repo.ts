import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { organizations } from '../db/schema.ts';
import { type Organisation, OrgTree } from './org-tree.ts';

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
