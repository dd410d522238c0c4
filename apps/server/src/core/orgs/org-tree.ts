import type { Organisation } from './repo.ts';
import { forbidden, notFound } from '../http/envelope.ts';

export type { Organisation } from './repo.ts';

/**
 * The organisations as read at one moment: every organisation a request checks, names or walks
 * (its sub-organisations, those above it) comes from here, so a request reads the table once.
 * Never changed after it is built: requests that share a session lookup share it too.
 */
export class OrgTree {
  private readonly byId: ReadonlyMap<string, Organisation>;
  private readonly children: ReadonlyMap<string, readonly string[]>;

  /** `all` in the order the tree lists them (by id). */
  constructor(readonly all: readonly Organisation[]) {
    this.byId = new Map(all.map((o) => [o.id, o]));
    const children = new Map<string, string[]>();
    for (const o of all) {
      if (o.parentId === null) continue;
      const list = children.get(o.parentId) ?? [];
      list.push(o.id);
      children.set(o.parentId, list);
    }
    this.children = children;
  }

  get(id: string): Organisation | undefined {
    return this.byId.get(id);
  }

  /** The organisation of a (unique) name. */
  byName(name: string): Organisation | undefined {
    return this.all.find((o) => o.name === name);
  }

  /** Every organisation id below (and including) each root, walking the parent links. */
  subtree(roots: Iterable<string>): Set<string> {
    const out = new Set<string>();
    const stack = [...roots];
    while (stack.length > 0) {
      const id = stack.pop() as string;
      if (out.has(id)) continue;
      out.add(id);
      stack.push(...(this.children.get(id) ?? []));
    }
    return out;
  }

  /** An organisation and those above it, nearest first (a loop in the parent links ends the walk). */
  ancestors(orgId: string): string[] {
    const chain: string[] = [];
    for (let id: string | null | undefined = orgId; id && !chain.includes(id); id = this.byId.get(id)?.parentId) chain.push(id);
    return chain;
  }
}

/** What a caller may see of the organisations: the tree its access was loaded with, and the ids visible to it. */
export interface OrgScope {
  readonly orgs: OrgTree;
  readonly visibleOrgIds: ReadonlySet<string>;
}

/** The organisation, for a caller who may see it: 404 for one that does not exist, 403 for one outside theirs. */
export function requireOrg(scope: OrgScope, orgId: string): Organisation {
  const org = scope.orgs.get(orgId);
  if (!org) throw notFound('Organisation');
  if (!scope.visibleOrgIds.has(org.id)) throw forbidden();
  return org;
}

/**
 * An organisation and its sub-organisations, as far as the caller may see them: 404 for an unknown
 * organisation, 403 for one outside the caller's.
 */
export function visibleSubtreeOrgIds(scope: OrgScope, orgId: string): string[] {
  requireOrg(scope, orgId);
  return [...scope.orgs.subtree([orgId])].filter((id) => scope.visibleOrgIds.has(id));
}
