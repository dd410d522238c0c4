import type { Db } from '../db/client.ts';
import type { OrgTree } from './org-tree.ts';
import { loadOrgTree, membershipsOf } from './repo.ts';

export interface Access {
  userId: string;
  /** Organisations the user is a member of. */
  memberOrgIds: string[];
  /** Those organisations and all their sub-organisations. */
  visibleOrgIds: Set<string>;
  /**
   * The organisation tree as it was when this access was loaded (each request loads its own):
   * every organisation check, name and subtree of the request comes from it.
   */
  orgs: OrgTree;
  /** `manager` when the user manages any of their organisations, else `operator` (watches, changes no settings). */
  role?: 'manager' | 'operator';
}

export async function loadAccess(db: Db, userId: string): Promise<Access> {
  const [member, orgs] = await Promise.all([membershipsOf(db, userId), loadOrgTree(db)]);
  const memberOrgIds = member.map((m) => m.orgId).sort();
  const role = member.some((m) => m.role === 'manager') ? 'manager' : 'operator';
  return { userId, memberOrgIds, visibleOrgIds: orgs.subtree(memberOrgIds), orgs, role };
}
