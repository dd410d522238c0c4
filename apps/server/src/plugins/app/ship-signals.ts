import fp from 'fastify-plugin';
import { LocalShipSignals, RedisShipSignals, type ShipSignals } from '../../cluster/ship-signals.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** A word about a ship for the instance holding its link (see cluster/ship-signals.ts). */
    shipSignals: ShipSignals;
  }
}

export interface ShipSignalsPluginOptions {
  /** With a Redis URL every instance hears every signal; without, only this one. */
  redisUrl?: string | undefined;
  redisPrefix?: string | undefined;
}

export default fp<ShipSignalsPluginOptions>(
  async (app, opts) => {
    const signals: ShipSignals = opts.redisUrl
      ? await RedisShipSignals.connect(opts.redisUrl, opts.redisPrefix, (err) => app.log.warn({ err: err.message }, 'ship signals: redis error'))
      : new LocalShipSignals();
    app.decorate('shipSignals', signals);
    app.addHook('onClose', () => signals.close());
  },
  { name: 'ship-signals' },
);
