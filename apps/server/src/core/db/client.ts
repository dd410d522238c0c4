import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent the embedded PGlite is used. */
  url?: string | undefined;
  /** Folder for the embedded database; absent means in memory (tests). */
  dataDir?: string | undefined;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
/** Any fixed number: serialises migrations when several server instances start at once. */
const MIGRATION_LOCK = 7_245_001;

/** Opens the database and applies pending migrations. */
export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: 10 });
    // pool.end() answers before its connections have closed; close() waits for each to end, and a
    // connection the server drops meanwhile (a restart, a dropped database) is not an error.
    const connections = new Set<pg.PoolClient>();
    pool.on('connect', (client) => {
      connections.add(client);
      client.on('error', () => undefined);
      client.once('end', () => connections.delete(client));
    });
    pool.on('error', () => undefined);
    const db = drizzlePg(pool, { schema });
    const lockClient = await pool.connect();
    try {
      await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migratePg(drizzlePg(lockClient, { schema }), { migrationsFolder });
    } finally {
      await lockClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      lockClient.release();
    }
    const close = async () => {
      const ended = [...connections].map((c) => new Promise<void>((resolve) => c.once('end', () => resolve())));
      await pool.end();
      await Promise.all(ended);
    };
    return { db: db as unknown as Db, kind: 'postgres', close };
  }
  let dataDir: string | undefined;
  if (opts.dataDir) {
    // PGlite does not create the parent folder itself.
    mkdirSync(opts.dataDir, { recursive: true });
    dataDir = `${opts.dataDir}/pglite`;
  }
  const client = dataDir ? new PGlite(dataDir) : new PGlite();
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return { db: db as unknown as Db, kind: 'pglite', close: () => client.close() };
}
