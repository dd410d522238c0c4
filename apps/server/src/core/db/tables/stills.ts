import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { cameras } from './fleet.ts';

// Stills mode: the last take of each camera (the stills module).

/**
 * Stills mode (issue 19 item 3): the latest picture shore asked a ship to take for a camera's
 * stills, one row per camera. Every viewer of the camera's stills reads it, and a new take
 * replaces it only by a compare-and-set on `picture_id` — so viewers on any instance share one
 * take per period.
 */
export const cameraStills = pgTable('camera_stills', {
  cameraId: text('camera_id')
    .primaryKey()
    .references(() => cameras.id, { onDelete: 'cascade' }),
  pictureId: text('picture_id').notNull(),
  requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
  /** asked | taken | failed (StillTakeState). */
  state: text('state').notNull(),
  /** The picture's size as the ship reported it once taken. */
  bytes: integer('bytes'),
  code: text('code'),
  message: text('message'),
});
