import {
  type BudgetPolicy,
  DEFINITION_LEVELS,
  type DefinitionLevel,
  LINK_POLICY_DEFAULTS,
  type LinkPolicy,
  type LinkPolicyList,
  type LinkPolicyRule,
  type LinkPolicyUpdate,
  POLICY_LINKS,
  type PolicyLink,
} from '@ship-cctv/protocol';
import type { Db } from '../../core/db/client.ts';
import { badRequest, forbidden } from '../../core/http/envelope.ts';
import type { Access } from '../../core/orgs/access.ts';
import { type OrgTree, requireOrg } from '../../core/orgs/org-tree.ts';
import { managedOrgIds } from '../../core/orgs/repo.ts';
import { LinkPolicyRepo, type PolicyRow } from './repo.ts';

const toFields = (row: PolicyRow): LinkPolicyRule => ({
  manyCells: row.manyCells as DefinitionLevel,
  fewCells: row.fewCells as DefinitionLevel,
  fullScreen: row.fullScreen as DefinitionLevel,
  stills: row.stills,
  stillsEverySeconds: row.stillsEverySeconds,
  // Rows saved before the budget policy was part of a link policy follow the link type's default.
  budgetPolicy: (row.budgetPolicy as BudgetPolicy | null) ?? LINK_POLICY_DEFAULTS[row.linkType as PolicyLink].budgetPolicy,
});

/**
 * Which definition a live cell asks for on each link type, per organisation. An
 * organisation follows its own rows, else the nearest organisation above it with a row for that
 * link type, else LINK_POLICY_DEFAULTS; its managers (or those of one above it) change them.
 */
export class LinkPolicyService {
  private readonly repo: LinkPolicyRepo;

  constructor(private readonly db: Db) {
    this.repo = new LinkPolicyRepo(db);
  }

  async list(access: Access, orgId: string): Promise<LinkPolicyList> {
    requireOrg(access, orgId);
    return { orgId, policies: await this.resolve(access.orgs, orgId), canEdit: manages(access.orgs, await this.managedOrgIds(access), orgId) };
  }

  /** The policy an organisation's ships follow on a link type, in the given organisation tree. */
  async ruleFor(orgs: OrgTree, orgId: string, linkType: PolicyLink): Promise<LinkPolicy> {
    return (await this.rulesFor([{ orgId, linkType }], orgs))[0] as LinkPolicy;
  }

  /** The policies for several organisations and link types, in the given organisation tree: their rows read once for all. */
  async rulesFor(asks: readonly { orgId: string; linkType: PolicyLink }[], orgs: OrgTree): Promise<LinkPolicy[]> {
    if (asks.length === 0) return [];
    const chains = asks.map((a) => orgs.ancestors(a.orgId));
    const rows = await this.rowsOf(chains.flat());
    return asks.map((a, i) => pick(orgs, rows, chains[i] as string[], a.linkType));
  }

  private async resolve(orgs: OrgTree, orgId: string): Promise<LinkPolicy[]> {
    const chain = orgs.ancestors(orgId);
    const rows = await this.rowsOf(chain);
    return POLICY_LINKS.map((linkType) => pick(orgs, rows, chain, linkType));
  }

  private rowsOf(orgIds: readonly string[]): Promise<PolicyRow[]> {
    return this.repo.rowsOf(orgIds);
  }

  async update(access: Access, orgId: string, linkType: PolicyLink, update: LinkPolicyUpdate, by: string): Promise<LinkPolicyList> {
    await this.requireManager(access, orgId);
    const order: readonly DefinitionLevel[] = DEFINITION_LEVELS;
    // A bigger view never asks for less than a smaller one: the operator would see the picture shrink on full screen.
    if (order.indexOf(update.fewCells) < order.indexOf(update.manyCells) || order.indexOf(update.fullScreen) < order.indexOf(update.fewCells)) {
      throw badRequest('a bigger view must not ask for a lower definition: manyCells ≤ fewCells ≤ fullScreen (satellite < lowest < standard < best)');
    }
    // Left out, the budget policy stays what the organisation follows now (its own, inherited or the default).
    const budgetPolicy = update.budgetPolicy ?? (await this.ruleFor(access.orgs, orgId, linkType)).budgetPolicy;
    const values = { ...update, budgetPolicy, updatedBy: by, updatedAt: new Date() };
    await this.repo.save(orgId, linkType, values);
    return this.list(access, orgId);
  }

  /** Drops the organisation's own policy for the link type: it follows the one above it, or the defaults. */
  async reset(access: Access, orgId: string, linkType: PolicyLink): Promise<LinkPolicyList> {
    await this.requireManager(access, orgId);
    await this.repo.remove(orgId, linkType);
    return this.list(access, orgId);
  }

  private async requireManager(access: Access, orgId: string): Promise<void> {
    requireOrg(access, orgId);
    if (!manages(access.orgs, await this.managedOrgIds(access), orgId)) throw forbidden();
  }

  private managedOrgIds(access: Access): Promise<string[]> {
    return managedOrgIds(this.db, access.userId);
  }
}

/** The policy of the first organisation of `chain` (itself, then up) with a row for the link type, else the default. */
function pick(orgs: OrgTree, rows: readonly PolicyRow[], chain: readonly string[], linkType: PolicyLink): LinkPolicy {
  for (const id of chain) {
    const row = rows.find((r) => r.orgId === id && r.linkType === linkType);
    if (!row) continue;
    if (id === chain[0]) return { linkType, ...toFields(row), custom: true, source: 'own' };
    const from = orgs.get(id);
    return { linkType, ...toFields(row), custom: true, source: 'inherited', inheritedFrom: { orgId: id, displayName: from?.displayName ?? id } };
  }
  return { linkType, ...LINK_POLICY_DEFAULTS[linkType], custom: false, source: 'default' };
}

/** A manager of the organisation or of one above it may change its policies (the budgets' rule). */
function manages(orgs: OrgTree, managed: readonly string[], orgId: string): boolean {
  return orgs.subtree(managed).has(orgId);
}
