import { join } from 'node:path';
import fp from 'fastify-plugin';
import { EVENTS_HOLD_CAPABILITY, dest, parseDestination } from '@ship-cctv/protocol';
import type { AuthContext } from '../../core/http/auth.ts';
import { managedOrgIds, loadOrgTree } from '../../core/orgs/repo.ts';
import { EventFiles } from './event-files.ts';
import { EventInbox } from './event-inbox.ts';
import { EventService } from './event-service.ts';
import { EventRepo } from './repo.ts';
import eventRoutes from './routes.ts';

export { EventService } from './event-service.ts';
export { notifies } from './notify-rule.ts';

/** What another instance asks the one holding a ship's link to do: send the ship its cameras' settings. */
const SETTINGS_TOPIC = 'events.settings';

declare module 'fastify' {
  interface FastifyInstance {
    /** Events found on ships: the list, acknowledging, settings per camera and organisation, the ships' outboxes arriving. */
    events: EventService;
  }
}

/** Reads the events' retention from the environment: EVENT_RETENTION_DAYS (default 90, as long as ships keep their recordings under India's 2025 notice). */
export function eventRetentionMs(env: NodeJS.ProcessEnv): number {
  const raw = env.EVENT_RETENTION_DAYS;
  if (raw === undefined || raw === '') return 90 * 86_400_000;
  const days = Number(raw);
  if (!Number.isFinite(days) || days <= 0) throw new Error(`EVENT_RETENTION_DAYS must be a positive number (got "${raw}")`);
  return days * 86_400_000;
}

export interface EventsPluginOptions {
  /** The server's DATA_DIR: event pictures go to DATA_DIR/events unless EVENTS_DIR says otherwise. */
  dataDir?: string | undefined;
  /** The events folder itself (tests). */
  dir?: string | undefined;
  /** How long events are kept (default EVENT_RETENTION_DAYS, else 90 days). */
  maxAgeMs?: number | undefined;
  /** How often an event held for a used-up events budget asks the budget again (default 30 s). */
  budgetRecheckMs?: number | undefined;
  /**
   * How long after an event's recording span ends its video is fetched, when its organisation's
   * rule asks (default 90 s: the ship closes the segment file holding it — 60 s files — first).
   */
  eventVideoDelayMs?: number | undefined;
}

/**
 * Events on shore: the service, the ships' event outboxes (an inbox stream on each ship's link,
 * which also carries the cameras' settings down and the analysis status up), and the routes under
 * /api/v1/cctv/events. Pictures under DATA_DIR/events (beside the recorder's folder without one),
 * in the recorder's shared store too with STORAGE=nats. STOMP /events/{shipName} is subscribed to
 * under the fleet's rule (ships of the user's organisations). An hourly sweep, run once across
 * instances, removes events past their retention. An offered event waits while the ship's
 * `events` data budget is used up. An event of a class its organisation's rule names
 * (`fetchVideoClasses`) has its span of the ship's recording copied into the shore recording by
 * backfill once the ship has closed the file holding it, within the ship's backfill budget.
 * Offers `app.events`. Needs the fleet, the ships' link, the bus, jobs, the recorder (its shared
 * store), sessions, the budgets and backfill.
 */
export default fp<EventsPluginOptions>(
  async (app, opts) => {
    const root = opts.dir ?? process.env.EVENTS_DIR ?? join(opts.dataDir ?? join(app.recorder.root, '..'), 'events');
    const files = new EventFiles(root, app.recorder.shared?.store);
    const repo = new EventRepo(app.database.db);
    const log = app.log.child({ module: 'events' });
    // Events whose video the organisation's rule fetches, waiting for the ship to close the file holding it.
    const fetches = new Set<NodeJS.Timeout>();
    const videoDelayMs = opts.eventVideoDelayMs ?? 90_000;
    const service: EventService = new EventService({
      repo,
      files,
      maxAgeMs: opts.maxAgeMs ?? eventRetentionMs(process.env),
      managedOrgIds: (userId) => managedOrgIds(app.database.db, userId),
      orgTree: () => loadOrgTree(app.database.db),
      publish: (destination, body) => {
        app.bus.publish(destination, JSON.stringify(body)).catch((err: unknown) => log.warn({ err, destination }, 'events: publishing failed'));
      },
      // The ship's link is here: the settings go down now (on its inbox, opened for them if need be); else the instance holding its link is
      // asked to send them. (The inbox is made next; settings change only once requests are served.)
      fetchVideo: (row) => {
        const timer = setTimeout(
          () => {
            fetches.delete(timer);
            void app.backfill.fetchSpan(row.shipId, row.cameraId, { start: row.recordingFrom, end: row.recordingTo }).then((results) => {
              for (const r of results) log.info({ eventId: row.id, shipId: row.shipId, cameraId: row.cameraId, outcome: r.outcome, files: r.files, bytes: r.receivedBytes }, 'events: fetched an event’s video by its organisation’s rule');
            });
          },
          Math.max(0, row.recordingTo + videoDelayMs - Date.now()),
        );
        timer.unref();
        fetches.add(timer);
      },
      // Subscriptions to the ships' notices made before the rule changed are checked again here.
      ruleSaved: () => recheckSubscriptions().catch((err: unknown) => log.error({ err }, 'events: checking the notices’ subscriptions again failed')),
      pushSettings: async (shipId): Promise<void> => {
        if (inbox.holds(shipId)) return inbox.pushSettings(shipId);
        app.linkStreams.nudge(shipId, SETTINGS_TOPIC);
      },
    });
    const inbox: EventInbox = new EventInbox({
      gateway: app.agents,
      files,
      repo,
      settingsFor: (shipId) => service.shipSettings(shipId),
      stored: (row) => service.arrived(row),
      amended: (row) => service.amended(row),
      budgetUsedUp: (shipId) => app.budgets.eventsUsedUp(shipId),
      agentHolds: (shipId) => app.agents.get(shipId)?.offers(EVENTS_HOLD_CAPABILITY) ?? false,
      ...(opts.budgetRecheckMs !== undefined ? { budgetRecheckMs: opts.budgetRecheckMs } : {}),
      log,
    });
    // /events/{shipName}: the ship's organisation is the user's to see and its rule lets the user
    // see its events (seesEventsOf checks both; a name no ship has is refused).
    const maySubscribe = async (auth: AuthContext, destination: string): Promise<boolean> => {
      const ships = await app.fleet.shipsForDestination(destination);
      return service.seesEventsOf(auth, [...new Set(ships.map((s) => s.orgId))]);
    };
    app.stompSubscribeRule('events', (auth, d) => maySubscribe(auth, dest.events(d.shipName)));
    const recheckSubscriptions = async (): Promise<void> => {
      const subs = app.stomp.subscriptionsWhere((destination) => parseDestination(destination)?.kind === 'events');
      for (const sub of subs) if (!(await maySubscribe(sub.principal, sub.destination))) sub.end();
    };
    const onNudged = (shipId: string, topic: string) => {
      if (topic !== SETTINGS_TOPIC) return;
      inbox.pushSettings(shipId).catch((err: unknown) => log.error({ err, shipId }, 'events: sending settings asked by another instance failed'));
    };
    app.linkStreams.events.on('nudged', onNudged);
    app.jobs.runner.register('events.sweep', { run: async () => ({ removed: await service.sweep() }) });
    app.jobs.schedules.add({ name: 'events-sweep', pattern: '23 * * * *', kind: 'events.sweep' });
    app.decorate('events', service);
    app.addHook('preClose', async () => {
      app.linkStreams.events.off('nudged', onNudged);
      for (const timer of fetches) clearTimeout(timer);
      fetches.clear();
      inbox.close();
    });
    await app.register(eventRoutes, { prefix: '/api/v1/cctv/events' });
  },
  { name: 'events', dependencies: ['fleet', 'ship-link', 'bus', 'jobs', 'recorder', 'sessions', 'budgets', 'backfill'] },
);
