import { bigint, boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import type { BackfilledDefinition } from '@ship-cctv/protocol';
import { cameras, ships } from './fleet.ts';
import { organizations } from './orgs.ts';

// The shore recorder (the recorder module).

// ---------------------------------------------------------------------------------------------
// Shore recorder (see modules/recorder/): what crossed the link while somebody watched live and a
// recording configuration of the channel was active. Times are epoch milliseconds.

/** A recording configuration of one camera: continuous, or daily windows (minutes after midnight in its time zone). */
export const recordConfigs = pgTable(
  'record_configs',
  {
    id: text('id').primaryKey(),
    cameraId: text('camera_id')
      .notNull()
      .references(() => cameras.id, { onDelete: 'cascade' }),
    /** "continuous" or "scheduled". */
    mode: text('mode').notNull(),
    schedule: jsonb('schedule').$type<{ from: number; to: number }[]>().notNull().default([]),
    /** IANA time zone the windows are read in. */
    timeZone: text('time_zone').notNull().default('UTC'),
    enabled: boolean('enabled').notNull().default(true),
    /** Gaps in this camera's shore recording are refilled from the ship recorder (backfill). */
    backfill: boolean('backfill').notNull().default(true),
    /** The definition its gaps are refilled in (recorded, lowest, satellite, ship); null: its organisation's choice. */
    backfillDefinition: text('backfill_definition'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('record_configs_camera_idx').on(t.cameraId)],
);

/**
 * One recording: a continuous run of segments of one camera at one definition. `open` while the
 * recorder still appends to it; start/end/bytes/segments follow its indexed segments.
 */
export const recordings = pgTable(
  'recordings',
  {
    id: text('id').primaryKey(),
    cameraId: text('camera_id')
      .notNull()
      .references(() => cameras.id, { onDelete: 'cascade' }),
    shipId: text('ship_id')
      .notNull()
      .references(() => ships.id, { onDelete: 'cascade' }),
    /** The configuration that made it (kept as a plain id: the configuration may be deleted later). */
    recordConfigId: text('record_config_id').notNull(),
    templateId: integer('template_id').notNull(),
    startMs: bigint('start_ms', { mode: 'number' }).notNull(),
    endMs: bigint('end_ms', { mode: 'number' }).notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    segments: integer('segments').notNull().default(0),
    open: boolean('open').notNull().default(true),
    /** Copied from the ship recorder afterwards (backfill) rather than recorded as it crossed the link. */
    backfilled: boolean('backfilled').notNull().default(false),
    /**
     * It ended because its last viewer left (the shore recorder records only what is watched): the
     * time after it is no gap to refill. False for one cut short (link down, ship ended the stream,
     * shore instance gone).
     */
    endedUnwatched: boolean('ended_unwatched').notNull().default(false),
    /**
     * A backfilled recording's definition, measured from its files (size, pictures and bits a
     * second, codec) and whether the ship transcoded it; null for one recorded live (its template
     * says) or backfilled by an older server.
     */
    definition: jsonb('definition').$type<BackfilledDefinition>(),
  },
  (t) => [index('recordings_camera_start_idx').on(t.cameraId, t.startMs), index('recordings_ship_idx').on(t.shipId)],
);

/** A self-contained fMP4 file (init + fragments) of a recording, indexed only once it is complete on disk. */
export const recordingSegments = pgTable(
  'recording_segments',
  {
    id: text('id').primaryKey(),
    recordingId: text('recording_id')
      .notNull()
      .references(() => recordings.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    startMs: bigint('start_ms', { mode: 'number' }).notNull(),
    endMs: bigint('end_ms', { mode: 'number' }).notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    /** Path under the recordings folder. */
    file: text('file').notNull(),
    mime: text('mime').notNull(),
  },
  (t) => [index('recording_segments_recording_idx').on(t.recordingId, t.startMs), index('recording_segments_start_idx').on(t.startMs)],
);

/**
 * An organisation's backfill switch and definition: off stops refilling gaps of every camera of
 * its ships, and the definition is what they are refilled in (for the organisations below it too
 * that set none of their own). Null, or no row: the one above it; none anywhere: on, `recorded`.
 */
export const backfillOrgSettings = pgTable('backfill_org_settings', {
  orgId: text('org_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled'),
  /** recorded, lowest, satellite or ship (BACKFILL_DEFINITIONS). */
  definition: text('definition'),
  updatedBy: text('updated_by').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Facts the shore keeps to say why its recording of a camera has a gap: a ship's link down, a
 * camera silent while its ship was connected (`camera_id` set), a data budget holding a ship's
 * live video. `end_ms` null while it lasts. Written by the instance that hears it (the link's
 * holder, or the one refusing a live view).
 */
export const recordingGapFacts = pgTable(
  'recording_gap_facts',
  {
    id: serial('id').primaryKey(),
    /** linkDown | cameraSilent | budgetHeld */
    kind: text('kind').notNull(),
    shipId: text('ship_id').notNull(),
    /** The camera, or '' for the whole ship. */
    cameraId: text('camera_id').notNull().default(''),
    startMs: bigint('start_ms', { mode: 'number' }).notNull(),
    endMs: bigint('end_ms', { mode: 'number' }),
  },
  (t) => [index('recording_gap_facts_ship_idx').on(t.shipId, t.kind, t.startMs)],
);
