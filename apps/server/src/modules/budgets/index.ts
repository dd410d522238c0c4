import fp from 'fastify-plugin';
import { policyLinkOf } from '@ship-cctv/protocol';
import { LiveRequestError } from '../fleet/index.ts';
import { BudgetService } from './budget-service.ts';
import budgetRoutes from './routes.ts';

export { BudgetService } from './budget-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Data budgets per ship: settings, use by the ship's days, notices, live admission, overrides. */
    budgets: BudgetService;
  }
}

export interface BudgetsPluginOptions {
  /** How often this instance adds its links' counted bytes to the database (default 5 s). */
  flushMs?: number;
  now?: () => number;
}

/**
 * Data budgets: counts this instance's link bytes into the shared table every few seconds (and
 * once more on close), tells operators on `/budget/{shipName}` at 80 % and 100 %, and has its say
 * on every new live view (the live service's admission rules): `lowest` narrows it to the lowest
 * definition, `stills` refuses it, `block` refuses it unless the user overrode (with a reason).
 * Offers `app.budgets`, `app.flushBudgets` and the routes under /api/v1/cctv (databudget,
 * statistics/dataBudget). Needs the database, metrics (the link counters), the bus, status, live,
 * link policies and sessions.
 */
export default fp<BudgetsPluginOptions>(
  async (app, opts) => {
    const service = new BudgetService({
      db: app.database.db,
      readCounter: (ship, direction, purpose) => app.metrics.linkBytesOf(ship, direction, purpose),
      publish: (destination, body) => {
        app.bus.publish(destination, body).catch((err: unknown) => app.log.warn({ err, destination }, 'budgets: publishing failed'));
      },
      linkBudgetPolicies: async (ships, orgs) => {
        const statuses = await app.status.shipStatuses(ships);
        const asks = ships.map((ship, i) => ({ orgId: ship.orgId, linkType: policyLinkOf(statuses[i]?.status ?? 'OFFLINE') }));
        const rules = await app.linkPolicy.rulesFor(asks, orgs);
        return new Map(ships.map((ship, i) => [ship.id, { linkType: asks[i]!.linkType, policy: rules[i]!.budgetPolicy }]));
      },
      ...(opts.now ? { now: opts.now } : {}),
    });
    app.decorate('budgets', service);

    // A live view refused for the budget leaves the shore recording a gap whose cause is the budget.
    const noteHeld = (shipId: string, held: boolean) => {
      if (!app.hasDecorator('recordingGaps')) return;
      const noted = held ? service.liveHeldUntil(shipId).then((until) => app.recordingGaps.budgetHeld(shipId, until)) : app.recordingGaps.budgetReleased(shipId);
      noted.catch((err: unknown) => app.log.warn({ err, shipId }, 'budgets: keeping a live hold as a recording gap cause failed'));
    };
    app.live.admitViews(async (access, view) => {
      const state = await service.liveAdmission(access, view.shipId);
      noteHeld(view.shipId, state === 'stills' || state === 'block');
      if (state === 'lowest') return { lowestOnly: true, notice: 'budgetLowest' };
      if (state === 'stills') throw new LiveRequestError('budgetStills', "此船今日/本月直播流量已用完，仅可查看图片 (the ship's live data budget is used up: pictures only)");
      if (state === 'block') throw new LiveRequestError('budgetBlocked', "此船直播流量已用完，需填写原因后继续 (the ship's live data budget is used up: give a reason to override)");
      return undefined;
    });

    let flushing: Promise<void> | undefined;
    const flush = () => {
      flushing ??= service
        .flush(app.metrics.countedShips())
        .catch((err: unknown) => app.log.warn({ err }, 'budgets: counting link bytes failed (carried to the next flush)'))
        .finally(() => {
          flushing = undefined;
        });
      return flushing;
    };
    const timer = setInterval(() => void flush(), opts.flushMs ?? 5_000);
    timer.unref();
    app.decorate('flushBudgets', flush);
    app.addHook('preClose', async () => {
      clearInterval(timer);
      await flushing;
      await flush();
    });
    await app.register(budgetRoutes, { prefix: '/api/v1/cctv' });
  },
  { name: 'budgets', dependencies: ['core-db', 'core-metrics', 'bus', 'status', 'live', 'link-policy', 'sessions'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts the links' bytes into the database now (tests; the timer does it every few seconds). */
    flushBudgets(): Promise<void>;
  }
}
