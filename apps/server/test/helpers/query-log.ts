import { AsyncLocalStorage } from 'node:async_hooks';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Database, Db } from '../../src/core/db/client.ts';
import * as schema from '../../src/core/db/schema.ts';

/**
 * A server's database seen through a second connection pool whose drizzle logger keeps the SQL of
 * every statement. `during` runs a piece of work (a request through app.inject) and answers the
 * statements that work issued, and only those: timers and jobs running meanwhile are not counted.
 */
export interface QueryLog {
  database: Database;
  during<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }>;
  close(): Promise<void>;
}

/** Wraps a migrated PostgreSQL test database (its url); the database itself stays the caller's to drop. */
export function queryLog(url: string): QueryLog {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on('error', () => undefined);
  const current = new AsyncLocalStorage<string[]>();
  const db = drizzle(pool, {
    schema,
    logger: { logQuery: (query) => current.getStore()?.push(query) },
  }) as unknown as Db;
  return {
    database: { db, kind: 'postgres', close: () => pool.end() },
    async during(work) {
      const statements: string[] = [];
      // Awaited inside the context: query builders and app.inject() start their work when awaited.
      const result = await current.run(statements, async () => await work());
      return { result, statements };
    },
    close: () => pool.end(),
  };
}

/** The statements that read or write the organisations table (a join with it counts). */
export const touchingOrganisations = (statements: readonly string[]): string[] => statements.filter((s) => /"organizations"/.test(s));
