import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { PgliteThread } from './pglite-thread.ts';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /**
   * The embedded database's whole data folder (an uncompressed tar), to open copies of it with
   * `DatabaseOptions.template`. Only the embedded database has it.
   */
  dump?: () => Promise<Uint8Array>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent the embedded PGlite is used. */
  url?: string | undefined;
  /** Folder for the embedded database; absent means in memory (tests). */
  dataDir?: string | undefined;
  /**
   * An embedded database to start from, as `Database.dump()` gave it: a copy opens in memory, or in
   * `dataDir` when that folder holds no database yet, far quicker than creating and migrating an
   * empty one (tests open one per file). Pending migrations still run on it.
   */
  template?: Uint8Array | undefined;
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
  // PGlite runs each query synchronously: on the main thread every query would hold the event loop.
  const thread = await PgliteThread.open({ dataDir, template: opts.template });
  try {
    // The thread answers the part of PGlite's client interface that drizzle's pglite driver uses.
    const db = drizzlePglite(thread as unknown as PGlite, { schema });
    await migratePglite(db, { migrationsFolder });
    return { db: db as unknown as Db, kind: 'pglite', close: () => thread.close(), dump: () => thread.dump() };
  } catch (err) {
    await thread.close();
    throw err;
  }
}
