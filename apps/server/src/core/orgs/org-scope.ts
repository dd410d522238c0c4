import type { Db } from '../db/client.ts';
import { type Access, requireOrg, subtreeIds } from './access.ts';
import { allOrganizations, shipsOfOrganizations } from './repo.ts';

/**
 * An organisation and its sub-organisations, as far as the user may see them: 404 for an unknown
 * organisation, 403 for one outside the user's.
 */
export async function visibleSubtreeOrgIds(db: Db, access: Access, orgId: string): Promise<string[]> {
  await requireOrg(db, access, orgId);
  const all = await allOrganizations(db);
  return [...subtreeIds(all, [orgId])].filter((id) => access.visibleOrgIds.has(id));
}

/** The ships of an organisation's visible subtree, in the tree's order. */
export async function visibleSubtreeShips(db: Db, access: Access, orgId: string): Promise<{ id: string; name: string }[]> {
  const orgIds = await visibleSubtreeOrgIds(db, access, orgId);
  if (orgIds.length === 0) return [];
  return shipsOfOrganizations(db, orgIds);
}
