import fp from 'fastify-plugin';
import type { Access } from '../../core/orgs/access.ts';
import {
  DEFAULT_SHIP_WORK_LIMITS,
  MemoryBucketStore,
  RedisBucketStore,
  ShipWorkLimiter,
  type ShipWorkKind,
  type ShipWorkLimit,
  type ShipWorkLimits,
} from './ship-work-limits.ts';

export { DEFAULT_SHIP_WORK_LIMITS, type ShipWorkKind, type ShipWorkLimit, type ShipWorkLimits } from './ship-work-limits.ts';

export interface ShipWork {
  /** Runs `work` for a ship the user may see (403 otherwise), within the user's and the ship's limits (429 otherwise). */
  forShip<T>(access: Access, kind: ShipWorkKind, shipId: string, work: () => Promise<T>): Promise<T>;
  /** The same for the ship of a camera the user may see. */
  forCamera<T>(access: Access, kind: ShipWorkKind, cameraId: string, work: () => Promise<T>): Promise<T>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Per-user and per-ship limits on requests that make a ship send or work (snapshots, ship queries, PTZ, stills). */
    shipWork: ShipWork;
  }
}

export interface ShipWorkPluginOptions {
  /** With Redis, the buckets are shared by every instance; without, each instance counts its own. */
  redisUrl?: string | undefined;
  redisPrefix?: string | undefined;
  limits?: Partial<Record<ShipWorkKind, Partial<ShipWorkLimit>>> | undefined;
}

/**
 * Limits on requests that make a ship send or work (snapshots, ship queries, PTZ, stills): a token
 * bucket per user and per ship, shared through Redis when there is one, and a cap on one ship's
 * requests in flight here. Offers `app.shipWork`. Needs the fleet (the user's access to the ship).
 */
export default fp<ShipWorkPluginOptions>(
  async (app, opts) => {
    const limits = Object.fromEntries(
      Object.entries(DEFAULT_SHIP_WORK_LIMITS).map(([kind, limit]) => [kind, { ...limit, ...opts.limits?.[kind as ShipWorkKind] }]),
    ) as ShipWorkLimits;
    let warned = 0;
    const store = opts.redisUrl
      ? new RedisBucketStore(opts.redisUrl, opts.redisPrefix ?? 'shipcctv:', (err) => {
          // One line a minute at most while Redis is away: the instance's own buckets decide meanwhile.
          if (Date.now() - warned < 60_000) return;
          warned = Date.now();
          app.log.warn({ err }, 'ship work limits: redis error, limiting on this instance alone');
        })
      : new MemoryBucketStore();
    const limiter = new ShipWorkLimiter(store, limits);
    app.addHook('onClose', () => limiter.close());
    app.decorate('shipWork', {
      forShip(access, kind, shipId, work) {
        return limiter.run(kind, access.userId, async () => (await app.fleet.requireShip(access, shipId)).id, work);
      },
      forCamera(access, kind, cameraId, work) {
        return limiter.run(kind, access.userId, async () => (await app.fleet.requireCamera(access, cameraId)).ship.id, work);
      },
    } satisfies ShipWork);
  },
  { name: 'ship-work', dependencies: ['fleet'] },
);
