import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations } from './orgs.ts';

// Carousels (the carousel module).

// Carousels ------------------------------------------------------------------------------------
// Rotating views of channels (spec §1, §4). A simple carousel runs in the browser that opens it; a
// task carousel, once started, runs on shore: its page follows from `startedAt` on the server's
// clock, and one instance (the holder of its `carousel.run` job) publishes each page.

export const carousels = pgTable(
  'carousels',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** simple | task. */
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    layout: integer('layout').notNull(),
    minutes: integer('minutes').notNull(),
    /** The seconds override (tests and demonstrations), or null. */
    seconds: integer('seconds'),
    /** Definition model of every cell, or null for each ship's default. */
    templateId: integer('template_id'),
    channelIds: jsonb('channel_ids').$type<string[]>().notNull(),
    /** channels | ships | organisation (simple carousels: channels). */
    mode: text('mode').notNull().default('channels'),
    shipIds: jsonb('ship_ids').$type<string[]>().notNull(),
    schedule: jsonb('schedule').$type<{ days: number[]; start: string; end: string; timeZone: string } | null>(),
    /** Set while a task runs: its pages are counted from here. */
    startedAt: timestamp('started_at', { withTimezone: true }),
    /** The job that publishes the running task's pages. */
    runJobId: text('run_job_id'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('carousels_org_idx').on(t.orgId, t.kind)],
);
