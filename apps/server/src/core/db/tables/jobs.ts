import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

// The job table (core/jobs).

// Jobs ----------------------------------------------------------------------------------------
// Persisted work (clip exports today; picture transfers and snapshot tasks next) that any shore
// instance may run: each job is claimed by one instance with `FOR UPDATE SKIP LOCKED` and held by a
// lease it renews while it works; a job whose instance died is taken up again when its lease ends.

export const jobs = pgTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    /** Order of enqueueing (timestamps of two quick inserts may be equal). */
    seq: serial('seq').notNull(),
    /** What to do: a handler registered under this kind runs it (e.g. "clip.export"). */
    kind: text('kind').notNull(),
    /** Who asked (a user id, or "schedule:<name>"): jobs take turns between owners. */
    owner: text('owner').notNull(),
    /** The organisation whose data it touches (access checks), when there is one. */
    orgId: text('org_id'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** queued → running → done | failed | cancelled. */
    state: text('state').notNull().default('queued'),
    /** 0–100. */
    progress: integer('progress').notNull().default(0),
    /** Why it failed or was cancelled. */
    message: text('message'),
    result: jsonb('result').$type<Record<string, unknown>>(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    /** The instance running it and until when its claim holds. */
    instance: text('instance'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    /** Set for scheduled runs ("<schedule>@<time>"): the first instance to enqueue a run wins. */
    uniqueKey: text('unique_key').unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('jobs_claim_idx').on(t.kind, t.state, t.seq), index('jobs_owner_idx').on(t.owner, t.startedAt)],
);
