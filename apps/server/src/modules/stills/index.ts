import fp from 'fastify-plugin';
import { StillService, type StillServiceDeps } from './still-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Stills mode: a camera's latest still, one take per period however many cells show it. */
    stills: StillService;
  }
}

export type StillsPluginOptions = Pick<StillServiceDeps, 'now' | 'timing'>;

/** Stills mode (issue 19 item 3) on the pictures path: snapshots taken once per period per camera. */
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
  },
  { name: 'stills', dependencies: ['pictures', 'link-policy', 'status', 'budgets'] },
);
