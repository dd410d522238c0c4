import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { ships } from './fleet.ts';

// Ship agents' keys (core/ship-link).

/**
 * A ship agent's credential: the SHA-256 of a random 256-bit key (a high-entropy secret needs no
 * slow hash). Issuing a new key replaces the old one.
 */
export const shipAgentKeys = pgTable('ship_agent_keys', {
  shipId: text('ship_id')
    .primaryKey()
    .references(() => ships.id, { onDelete: 'cascade' }),
  keyHash: text('key_hash').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
