import { pgTable, text } from 'drizzle-orm/pg-core';

// Installation-wide values every instance shares.

/** Installation-wide values shared by every server instance (e.g. the token signing key). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});
