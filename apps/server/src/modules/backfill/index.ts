import fp from 'fastify-plugin';
import { BACKFILL_TRANSCODE_CAPABILITY } from '@ship-cctv/protocol';
import { loadOrgTree } from '../../core/orgs/repo.ts';
import { BackfillService } from './backfill-service.ts';
import { BackfillRepo } from './repo.ts';
import backfillRoutes from './routes.ts';
import { type BackfillSettings, readBackfillSettings } from './settings.ts';

export { BackfillService, type BackfillResult, type PendingBackfill } from './backfill-service.ts';
export { type BackfillSettings, readBackfillSettings } from './settings.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Backfill: gaps in the shore recording refilled from the ship recorder. */
    backfill: BackfillService;
  }
}

export interface BackfillPluginOptions {
  /** Overrides of the settings read from the environment (tests). */
  settings?: Partial<BackfillSettings> | undefined;
}

/**
 * Backfill, on the instance that holds each ship's link: looks for gaps in the shore recording of
 * the ship's cameras when its link comes back and every BACKFILL_EVERY_SECONDS, and copies the
 * ship recorder's files for them into the shore recording, within the ship's backfill budget.
 * Offers `app.backfill` and the routes under /api/v1/cctv/record/backfill. Needs the recorder, the
 * data budgets and the ship link.
 */
export default fp<BackfillPluginOptions>(
  async (app, opts) => {
    const settings = { ...readBackfillSettings(process.env), ...opts.settings };
    const repo = new BackfillRepo(app.database.db);
    const service = new BackfillService({
      repo,
      store: app.recordings,
      root: app.recorder.root,
      shared: app.recorder.shared,
      streams: app.linkStreams,
      shipsHere: () => app.agents.connectedShips().filter((id) => app.agents.get(id)?.capabilities.has('backfill')),
      orgs: () => loadOrgTree(app.database.db),
      budgetLeft: (shipId) => app.budgets.backfillLeft(shipId, settings.defaultDayMb),
      definitions: (shipId) => app.fleet.definitionsOf(shipId),
      transcodes: (shipId) => app.agents.get(shipId)?.offers(BACKFILL_TRANSCODE_CAPABILITY) ?? false,
      settings,
      log: app.log.child({ module: 'backfill' }),
    });
    const onOnline = (shipId: string) => {
      if (app.agents.get(shipId)?.capabilities.has('backfill')) service.shipOnline(shipId);
    };
    app.agents.events.on('online', onOnline);
    service.start();
    app.decorate('backfill', service);
    // The recording query's gaps say "backfill pending" where a span waits for (or is in) a refill.
    app.recordingGaps.setBackfillPending((shipId, cameraId, start, end) =>
      service
        .pendingBackfill(shipId, cameraId)
        .filter((p) => p.end > start && p.start < end)
        .map((p) => ({ start: Math.max(p.start, start), end: Math.min(p.end, end) })),
    );
    app.addHook('preClose', async () => {
      app.agents.events.off('online', onOnline);
      await service.close();
    });
    await app.register(backfillRoutes, { prefix: '/api/v1/cctv/record/backfill', repo });
  },
  { name: 'backfill', dependencies: ['recorder', 'budgets', 'agent-link', 'link-streams', 'sessions', 'fleet'] },
);
