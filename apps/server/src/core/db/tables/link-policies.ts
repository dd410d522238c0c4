import { boolean, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations } from './orgs.ts';

// Link policies (the link-policies module).

/**
 * An organisation's own definition policy for one link type (issue 19 item 4); a link type without
 * a row follows the nearest organisation above that has one, else LINK_POLICY_DEFAULTS.
 */
export const linkPolicies = pgTable(
  'link_policies',
  {
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** One of POLICY_LINKS. */
    linkType: text('link_type').notNull(),
    /** lowest | standard | best, for a cell of a 9- or 16-cell grid. */
    manyCells: text('many_cells').notNull(),
    fewCells: text('few_cells').notNull(),
    fullScreen: text('full_screen').notNull(),
    stills: boolean('stills').notNull(),
    stillsEverySeconds: integer('stills_every_seconds').notNull(),
    /** lowest | stills | block: a used-up live budget on this link (ships whose budget follows the link); null: the link type's default. */
    budgetPolicy: text('budget_policy'),
    updatedBy: text('updated_by').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.linkType] })],
);
