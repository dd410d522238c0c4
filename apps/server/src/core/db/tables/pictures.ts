import { bigint, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

// Pictures, snapshot tasks and their shots (the pictures module).

/**
 * Pictures shore holds (files under DATA_DIR/pictures): snapshots and task pictures that crossed
 * from a ship, each once (the id is the ship's or shore's, unique across the fleet).
 */
export const pictures = pgTable(
  'pictures',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id').notNull(),
    shipId: text('ship_id').notNull(),
    channelId: text('channel_id').notNull(),
    cameraId: text('camera_id').notNull(),
    /** When the picture shows. */
    takenAt: timestamp('taken_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** manual (snapshot now) | task (a snapshot task's shot) | stills (stills mode's snapshot). */
    origin: text('origin').notNull(),
    taskId: text('task_id'),
    mime: text('mime').notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    sha256: text('sha256').notNull(),
    /** Paths under the pictures folder. */
    file: text('file').notNull(),
    thumbFile: text('thumb_file').notNull(),
    thumbBytes: integer('thumb_bytes').notNull(),
    storedAt: timestamp('stored_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('pictures_org_time_idx').on(t.orgId, t.takenAt), index('pictures_camera_time_idx').on(t.cameraId, t.takenAt)],
);

/**
 * What shore learnt of the pictures a ship holds (`pictures.list` answers), with the ship's
 * thumbnail cached under DATA_DIR/pictures/ship-thumbs: a list already fetched is shown again
 * without crossing the link, and while the ship is offline.
 */
export const shipPictures = pgTable(
  'ship_pictures',
  {
    id: text('id').primaryKey(),
    shipId: text('ship_id').notNull(),
    cameraId: text('camera_id').notNull(),
    takenAt: timestamp('taken_at', { withTimezone: true, mode: 'date' }).notNull(),
    origin: text('origin').notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    thumbFile: text('thumb_file'),
    listedAt: timestamp('listed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ship_pictures_camera_time_idx').on(t.cameraId, t.takenAt)],
);

/**
 * Snapshot tasks: pictures of channels every `everyMs` within [start, end), taken by the ship on its
 * own clock. `heldAt` is when the ship last confirmed it holds the current set of its tasks (a task
 * added or deleted since is not handed over yet).
 */
export const snapshotTasks = pgTable(
  'snapshot_tasks',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id').notNull(),
    shipId: text('ship_id').notNull(),
    owner: text('owner').notNull(),
    channelIds: jsonb('channel_ids').$type<string[]>().notNull(),
    cameraIds: jsonb('camera_ids').$type<string[]>().notNull(),
    everyMs: bigint('every_ms', { mode: 'number' }).notNull(),
    startAt: timestamp('start_at', { withTimezone: true, mode: 'date' }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true, mode: 'date' }).notNull(),
    templateId: integer('template_id').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** The ship confirmed it holds the task (its hand-over). */
    handedOverAt: timestamp('handed_over_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** The ship confirmed it dropped the deleted task. */
    droppedAt: timestamp('dropped_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('snapshot_tasks_ship_idx').on(t.shipId), index('snapshot_tasks_org_idx').on(t.orgId)],
);

/** What the ship reported of each shot of a task (a shot not listed is planned, or not reported yet). */
export const snapshotShots = pgTable(
  'snapshot_shots',
  {
    taskId: text('task_id').notNull(),
    cameraId: text('camera_id').notNull(),
    idx: integer('idx').notNull(),
    /** taken | failed. */
    outcome: text('outcome').notNull(),
    pictureId: text('picture_id'),
    reason: text('reason'),
    reportedAt: timestamp('reported_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.cameraId, t.idx] })],
);
