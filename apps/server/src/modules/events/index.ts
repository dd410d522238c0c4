import { join } from 'node:path';
import fp from 'fastify-plugin';
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
}

/**
 * Events on shore: the service, the ships' event outboxes (an inbox stream on each ship's link,
 * which also carries the cameras' settings down and the analysis status up), and the routes under
 * /api/v1/cctv/events. Pictures under DATA_DIR/events (beside the recorder's folder without one),
 * in the recorder's shared store too with STORAGE=nats. STOMP /events/{shipName} is subscribed to
 * under the fleet's rule (ships of the user's organisations). An hourly sweep, run once across
 * instances, removes events past their retention. Offers `app.events`. Needs the fleet, the ships'
 * link, the bus, jobs, the recorder (its shared store) and sessions.
 */
export default fp<EventsPluginOptions>(
  async (app, opts) => {
    const root = opts.dir ?? process.env.EVENTS_DIR ?? join(opts.dataDir ?? join(app.recorder.root, '..'), 'events');
    const files = new EventFiles(root, app.recorder.shared?.store);
    const repo = new EventRepo(app.database.db);
    const log = app.log.child({ module: 'events' });
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
      log,
    });
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
      inbox.close();
    });
    await app.register(eventRoutes, { prefix: '/api/v1/cctv/events' });
  },
  { name: 'events', dependencies: ['fleet', 'ship-link', 'bus', 'jobs', 'recorder', 'sessions'] },
);
