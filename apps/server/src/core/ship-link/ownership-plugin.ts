import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import { LocalOwnership, type ShipOwnership } from './ownership.ts';
import { RedisOwnership } from './redis-ownership.ts';
import { tieClaimsToLinks } from './ship-claims.ts';

declare module 'fastify' {
  interface FastifyInstance {
    ownership: ShipOwnership;
  }
}

export interface OwnershipPluginOptions {
  /** With a Redis URL, ship ownership is shared by every instance (a lease per instance, an epoch per ship); without, this instance owns what it holds. */
  redisUrl?: string | undefined;
  redisPrefix?: string | undefined;
  /** This instance's lease without renewal (default 10 s): how long a dead owner's ships stay taken. */
  leaseMs?: number | undefined;
  /** This instance's id in the claims (default a random one). */
  instanceId?: string | undefined;
}

/** Which instance owns each ship: the one holding its agent link, fenced by an epoch (redis-ownership.ts). */
export default fp<OwnershipPluginOptions>(
  async (app, opts) => {
    const instanceId = opts.instanceId ?? randomUUID();
    const ownership: ShipOwnership = opts.redisUrl
      ? await RedisOwnership.connect(opts.redisUrl, opts.redisPrefix, {
          instanceId,
          leaseMs: opts.leaseMs,
          onError: (err) => app.log.warn({ err: err.message }, 'ownership: redis error'),
        })
      : new LocalOwnership(instanceId);
    app.decorate('ownership', ownership);
    tieClaimsToLinks(app.agents, ownership, app.log);
    app.addHook('onClose', () => ownership.close());
  },
  { name: 'ownership', dependencies: ['agent-link'] },
);
