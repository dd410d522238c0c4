import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../core/db/client.ts';
import * as t from '../../core/db/schema.ts';

export type PolicyRow = typeof t.linkPolicies.$inferSelect;
export type PolicyValues = Omit<typeof t.linkPolicies.$inferInsert, 'orgId' | 'linkType'>;

/** The link policies' rows: each organisation's own policy per link type. */
export class LinkPolicyRepo {
  constructor(private readonly db: Db) {}

  /** The rows of these organisations (every link type). */
  async rowsOf(orgIds: readonly string[]): Promise<PolicyRow[]> {
    if (orgIds.length === 0) return [];
    return this.db.select().from(t.linkPolicies).where(inArray(t.linkPolicies.orgId, [...new Set(orgIds)]));
  }

  /** Sets the organisation's own policy for the link type (inserted or replaced). */
  async save(orgId: string, linkType: string, values: PolicyValues): Promise<void> {
    await this.db
      .insert(t.linkPolicies)
      .values({ orgId, linkType, ...values })
      .onConflictDoUpdate({ target: [t.linkPolicies.orgId, t.linkPolicies.linkType], set: values });
  }

  async remove(orgId: string, linkType: string): Promise<void> {
    await this.db.delete(t.linkPolicies).where(and(eq(t.linkPolicies.orgId, orgId), eq(t.linkPolicies.linkType, linkType)));
  }
}
