import type { Db } from '../db/client.ts';
import { forbidden, notFound } from '../http/envelope.ts';
import { type OrganizationRow, allOrganizations, membershipsOf, organizationRow } from './repo.ts';

export interface OrgRow {
  id: string;
  name: string;
  displayName: string;
  parentId: string | null;
}

/** An organisation and those above it, nearest first (a loop in the parent links ends the walk). */
export function ancestorIds(all: readonly Pick<OrgRow, 'id' | 'parentId'>[], orgId: string): string[] {
  const parents = new Map(all.map((o) => [o.id, o.parentId]));
  const chain: string[] = [];
  for (let id: string | null | undefined = orgId; id && !chain.includes(id); id = parents.get(id)) chain.push(id);
  return chain;
}

/** Every organisation id below (and including) each root, walking the parent links. */
export function subtreeIds(all: readonly OrgRow[], roots: Iterable<string>): Set<string> {
  const children = new Map<string, string[]>();
  for (const o of all) {
    if (o.parentId === null) continue;
    const list = children.get(o.parentId) ?? [];
    list.push(o.id);
    children.set(o.parentId, list);
  }
  const out = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (out.has(id)) continue;
    out.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return out;
}

export interface Access {
  userId: string;
  /** Organisations the user is a member of. */
  memberOrgIds: string[];
  /** Those organisations and all their sub-organisations. */
  visibleOrgIds: Set<string>;
  /** `manager` when the user manages any of their organisations, else `operator` (watches, changes no settings). */
  role?: 'manager' | 'operator';
}

export async function loadAccess(db: Db, userId: string): Promise<Access> {
  const [member, all] = await Promise.all([membershipsOf(db, userId), allOrganizations(db)]);
  const memberOrgIds = member.map((m) => m.orgId).sort();
  const role = member.some((m) => m.role === 'manager') ? 'manager' : 'operator';
  return { userId, memberOrgIds, visibleOrgIds: subtreeIds(all, memberOrgIds), role };
}

/** Throws 404 for an organisation that does not exist and 403 for one outside the user's. */
export async function requireOrg(db: Db, access: Access, orgId: string): Promise<OrgRow & { row: OrganizationRow }> {
  const row = await organizationRow(db, orgId);
  if (!row) throw notFound('Organisation');
  if (!access.visibleOrgIds.has(row.id)) throw forbidden();
  return { id: row.id, name: row.name, displayName: row.displayName, parentId: row.parentId, row };
}
