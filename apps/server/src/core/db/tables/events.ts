import { bigint, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { CameraAnalysisStatus, CameraEventSettings, EventClass, OrgEventSettings } from '@ship-cctv/protocol';
import { organizations } from './orgs.ts';

// Events found on ships, their settings per camera and per organisation (the events module).

/**
 * Events that crossed from a ship, each once (the id is the ship's, unique across the fleet), with
 * the best picture under DATA_DIR/events (and the shared store). Times are the ship's epoch ms.
 */
export const events = pgTable(
  'events',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id').notNull(),
    shipId: text('ship_id').notNull(),
    cameraId: text('camera_id').notNull(),
    startMs: bigint('start_ms', { mode: 'number' }).notNull(),
    endMs: bigint('end_ms', { mode: 'number' }).notNull(),
    /** Each class seen with its best score. */
    classes: jsonb('classes').$type<{ class: EventClass; score: number }[]>().notNull(),
    /** The same classes' names, for the class filter (array containment, GIN index). */
    classNames: text('class_names').array().notNull(),
    zone: text('zone'),
    pictureBytes: integer('picture_bytes').notNull(),
    pictureWidth: integer('picture_width').notNull(),
    pictureHeight: integer('picture_height').notNull(),
    pictureSha256: text('picture_sha256').notNull(),
    /** Path under the events folder. */
    pictureFile: text('picture_file').notNull(),
    recordingFrom: bigint('recording_from', { mode: 'number' }).notNull(),
    recordingTo: bigint('recording_to', { mode: 'number' }).notNull(),
    /** The user name of who acknowledged it first, and when. */
    acknowledgedBy: text('acknowledged_by'),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true, mode: 'date' }),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('events_org_start_idx').on(t.orgId, t.startMs),
    index('events_ship_start_idx').on(t.shipId, t.startMs),
    index('events_camera_start_idx').on(t.cameraId, t.startMs),
    index('events_class_names_idx').using('gin', t.classNames),
    index('events_ship_zone_idx').on(t.shipId, t.zone),
    index('events_ship_acknowledged_idx').on(t.shipId, t.acknowledgedAt),
  ],
);

/** A camera's analysis settings as shore keeps and sends them, and the status its ship last reported. */
export const eventCameraSettings = pgTable('event_camera_settings', {
  cameraId: text('camera_id').primaryKey(),
  shipId: text('ship_id').notNull(),
  /** Null: never set (the defaults apply). */
  settings: jsonb('settings').$type<CameraEventSettings>(),
  updatedBy: text('updated_by'),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }),
  status: jsonb('status').$type<CameraAnalysisStatus>(),
  statusAt: timestamp('status_at', { withTimezone: true, mode: 'date' }),
});

/** Which events make a toast for an organisation's users (classes, hours). */
export const eventOrgSettings = pgTable('event_org_settings', {
  orgId: text('org_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  settings: jsonb('settings').$type<OrgEventSettings>().notNull(),
  updatedBy: text('updated_by').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
