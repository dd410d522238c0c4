import { boolean, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { users } from './sessions.ts';

// The organisation tree and who belongs where (core/orgs reads it).

/** Organisations form a tree through parentId; membership of a node covers its subtree. */
export const organizations = pgTable(
  'organizations',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull().unique(),
    displayName: text('display_name').notNull(),
    parentId: text('parent_id'),
    /** Seconds a viewer should expect before a ship's first frame. */
    waitTimeSeconds: integer('wait_time_seconds').notNull().default(8),
    /** Continuous watching limit for playback and live (spec §9: 20 minutes). */
    autoShutdownEnabled: boolean('auto_shutdown_enabled').notNull().default(true),
    autoShutdownMinutes: integer('auto_shutdown_minutes').notNull().default(20),
    autoShutdownCountdownSeconds: integer('auto_shutdown_countdown_seconds').notNull().default(10),
  },
  (t) => [index('organizations_parent_idx').on(t.parentId)],
);

export const memberships = pgTable(
  'memberships',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Only "manager" exists today (spec §6); kept per membership for later role rules. */
    role: text('role').notNull().default('manager'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.orgId] })],
);
