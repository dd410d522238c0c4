import fp from 'fastify-plugin';
import { type Database, openDatabase } from './client.ts';
import { seedDemoFleet } from './seed.ts';
import { tighten } from '../storage/private-files.ts';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
  }
}

export interface DatabasePluginOptions {
  databaseUrl?: string | undefined;
  /** Embedded database folder; absent means in memory. */
  dataDir?: string | undefined;
  seedDemo?: boolean | undefined;
  /** An already open database (tests share one per worker); it is not closed with the app. */
  database?: Database | undefined;
}

export default fp<DatabasePluginOptions>(
  async (app, opts) => {
    const database = opts.database ?? (await openDatabase({ url: opts.databaseUrl, dataDir: opts.dataDir }));
    if (!opts.database && database.kind === 'pglite' && opts.dataDir) {
      tighten(opts.dataDir);
      // Files PGlite adds later (WAL segments, new relations) are tightened on each close and start;
      // the 0700 folder keeps other users out meanwhile.
      app.addHook('onClose', () => tighten(opts.dataDir ?? ''));
    }
    app.decorate('database', database);
    if (!opts.database) app.addHook('onClose', () => database.close());
    if (opts.seedDemo) {
      const seeded = await seedDemoFleet(database.db);
      app.log.info({ seeded, kind: database.kind }, seeded ? 'seeded the demo fleet' : 'database already holds data');
    }
  },
  { name: 'core-db' },
);
