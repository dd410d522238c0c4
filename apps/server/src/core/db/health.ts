import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';

/** Whether the database answers a trivial query now (readiness); rejects when it does not. */
export async function databaseAnswers(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
