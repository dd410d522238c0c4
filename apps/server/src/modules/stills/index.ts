import fp from 'fastify-plugin';
import { StillService, type StillServiceDeps } from './still-service.ts';
import stillRoutes from './routes.ts';

export { StillService } from './still-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Stills mode: a camera's latest still, one take per period however many cells show it. */
    stills: StillService;
  }
}

export type StillsPluginOptions = Pick<StillServiceDeps, 'now' | 'timing'>;

/**
 * Stills mode on the pictures path: snapshots taken once per period per camera while a cell shows
 * stills. Offers `app.stills` and POST /api/v1/cctv/stills/…. Needs the fleet, pictures, link
 * policies, status, budgets, ship-work limits and sessions.
 */
export default fp<StillsPluginOptions>(
  async (app, opts) => {
    app.decorate(
      'stills',
      new StillService({
        db: app.database.db,
        fleet: app.fleet,
        pictures: app.pictures,
        linkPolicy: app.linkPolicy,
        status: app.status,
        picturesBudgetUsedUp: (shipId) => app.budgets.picturesUsedUp(shipId),
        log: app.log.child({ module: 'stills' }),
        ...opts,
      }),
    );
    await app.register(stillRoutes, { prefix: '/api/v1/cctv/stills' });
  },
  { name: 'stills', dependencies: ['fleet', 'pictures', 'link-policy', 'status', 'budgets', 'ship-work', 'sessions'] },
);
