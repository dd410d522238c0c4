import { bigint, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations } from './orgs.ts';

// Data budgets, counted link usage, notices and overrides (the budgets module).

/**
 * Data budgets (MB per day and per month, by purpose) and what happens at 100 %: a ship's own row
 * (`ship_id` = the ship) or its organisation's default for every ship below it (`ship_id` = '').
 */
export const dataBudgets = pgTable(
  'data_budgets',
  {
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The ship, or '' for the organisation's default. */
    shipId: text('ship_id').notNull().default(''),
    /** link | lowest | stills | block (link: the policy of the link the ship is on). */
    policy: text('policy').notNull(),
    caps: jsonb('caps').$type<Record<'live' | 'playback' | 'pictures', { dayMb?: number; monthMb?: number }> & { backfill?: { dayMb?: number; monthMb?: number }; events?: { dayMb?: number; monthMb?: number } }>().notNull(),
    updatedBy: text('updated_by').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.shipId] })],
);

/**
 * Bytes a ship's link carried per day of the ship's own calendar (its time zone) and purpose: every
 * instance adds what its own links counted since its last flush, so the sum is the cluster's.
 */
export const linkUsage = pgTable(
  'link_usage',
  {
    shipId: text('ship_id').notNull(),
    /** YYYY-MM-DD in the ship's time zone. */
    day: text('day').notNull(),
    purpose: text('purpose').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.shipId, t.day, t.purpose] })],
);

/** Budget notices sent: one per ship, purpose, period and level, whichever instance sends it first. */
export const budgetNotices = pgTable(
  'budget_notices',
  {
    shipId: text('ship_id').notNull(),
    purpose: text('purpose').notNull(),
    /** YYYY-MM-DD (a day) or YYYY-MM (a month) of the ship's calendar. */
    period: text('period').notNull(),
    level: integer('level').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.shipId, t.purpose, t.period, t.level] })],
);

/** Live views let past a `block` budget: who, when, why, which ship, and until when it holds. */
export const budgetOverrides = pgTable(
  'budget_overrides',
  {
    id: serial('id').primaryKey(),
    shipId: text('ship_id').notNull(),
    orgId: text('org_id').notNull(),
    userId: text('user_id').notNull(),
    username: text('username').notNull(),
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    validUntil: timestamp('valid_until', { withTimezone: true }).notNull(),
  },
  (t) => [index('budget_overrides_ship_idx').on(t.shipId, t.validUntil), index('budget_overrides_org_idx').on(t.orgId, t.createdAt)],
);
