import { inArray, asc } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import * as t from '../db/schema.ts';
import { visibleSubtreeOrgIds } from '../orgs/org-tree.ts';
import type { Access } from './access.ts';

/** The ships of an organisation's visible subtree, in the tree's order: 404 for an unknown organisation, 403 for one outside the user's. */
export async function visibleSubtreeShips(db: Db, access: Access, orgId: string): Promise<{ id: string; name: string }[]> {
  const orgIds = visibleSubtreeOrgIds(access, orgId);
  if (orgIds.length === 0) return [];
  return db
    .select({ id: t.ships.id, name: t.ships.name })
    .from(t.ships)
    .where(inArray(t.ships.orgId, orgIds))
    .orderBy(asc(t.ships.sort), asc(t.ships.id));
}
