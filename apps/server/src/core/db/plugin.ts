import fp from 'fastify-plugin';
import { requestToken } from '../http/request-token.ts';
import { tighten } from '../storage/private-files.ts';
import { type Database, openDatabase } from './client.ts';
import { databaseLane } from './pglite-thread.ts';
import { seedDemoFleet } from './seed.ts';

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
    if (database.kind === 'pglite') {
      // Each request's queries wait in the lane of its session (else of its address), so one user's
      // burst shares the embedded database's one-at-a-time queue fairly with everyone else. Set before
      // the routes' own hooks, as authentication asks the database; Fastify carries the context on
      // past reading the body.
      app.addHook('onRequest', (req, _reply, done) => {
        const token = requestToken(req);
        databaseLane.run(token ? `session:${token}` : `address:${req.ip}`, done);
      });
    }
    if (!opts.database) app.addHook('onClose', () => database.close());
    if (opts.seedDemo) {
      const seeded = await seedDemoFleet(database.db);
      app.log.info({ seeded, kind: database.kind }, seeded ? 'seeded the demo fleet' : 'database already holds data');
    }
  },
  { name: 'core-db' },
);
