import type { Db } from '../db/client.ts';
import type { Access } from './access.ts';
import { visibleSubtreeOrgIds } from './org-tree.ts';
import { shipsOfOrganizations } from './repo.ts';

/** The ships of an organisation's visible subtree, in the tree's order: 404 for an unknown organisation, 403 for one outside the user's. */
export async function visibleSubtreeShips(db: Db, access: Access, orgId: string): Promise<{ id: string; name: string }[]> {
  const orgIds = visibleSubtreeOrgIds(access, orgId);
  if (orgIds.length === 0) return [];
  return shipsOfOrganizations(db, orgIds);
}
