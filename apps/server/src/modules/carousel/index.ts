import fp from 'fastify-plugin';
import { CAROUSEL_PREWARM_SECONDS } from '@ship-cctv/protocol';
import { CarouselService } from './carousel-service.ts';
import carouselRoutes from './routes.ts';

export { CarouselService, type CarouselServiceOptions } from './carousel-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Carousels: configs, tasks run on shore, their pages on `/carousel/{id}`. */
    carousel: CarouselService;
  }
}

export interface CarouselPluginOptions {
  /** Allow a dwell in seconds (tests, demonstrations). Default: CAROUSEL_SECONDS=1. */
  secondsAllowed?: boolean;
  /** Seconds the next page starts early. Default: CAROUSEL_PREWARM_SECONDS, else 5. */
  prewarmSeconds?: number;
  now?: () => number;
}

/** Reads CAROUSEL_PREWARM_SECONDS (0–60). */
export function prewarmFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.CAROUSEL_PREWARM_SECONDS;
  if (raw === undefined || raw === '') return CAROUSEL_PREWARM_SECONDS;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || n > 60) throw new Error(`CAROUSEL_PREWARM_SECONDS must be a number of seconds from 0 to 60 (got "${raw}")`);
  return n;
}

/**
 * Carousels: the service, the `carousel.run` job that publishes a running task's pages (one holder
 * across instances), who may subscribe to `/carousel/{id}`, and the cells of a carousel the viewer
 * may see as paged views (no continuous-watching limit, no linger when their page leaves).
 * Offers `app.carousel` and the routes under /api/v1/cctv/carousel. Needs the fleet, the bus,
 * status, jobs, live and sessions.
 */
export default fp<CarouselPluginOptions>(
  async (app, opts) => {
    const service = new CarouselService({
      db: app.database.db,
      fleet: app.fleet,
      status: app.status,
      jobs: app.jobs.runner,
      publish: (destination, body) => {
        app.bus.publish(destination, body).catch((err: unknown) => app.log.warn({ err, destination }, 'carousel: publishing failed'));
      },
      log: app.log.child({ module: 'carousel' }),
      secondsAllowed: opts.secondsAllowed ?? process.env.CAROUSEL_SECONDS === '1',
      prewarmSeconds: opts.prewarmSeconds ?? prewarmFromEnv(process.env),
      ...(opts.now ? { now: opts.now } : {}),
    });
    app.decorate('carousel', service);
    app.stompSubscribeRule('carousel', (auth, d) => service.canSubscribe(auth, d.carouselId));
    app.live.exemptPagedViews((access, cameraId, on) => (on.carouselId ? service.runsCamera(access, on.carouselId, cameraId) : Promise.resolve(false)));
    await app.register(carouselRoutes, { prefix: '/api/v1/cctv/carousel' });
  },
  { name: 'carousel', dependencies: ['fleet', 'bus', 'status', 'jobs', 'live', 'sessions'] },
);
