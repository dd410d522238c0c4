import fp from 'fastify-plugin';
import { Gauge } from 'prom-client';
import { MemoryStatusBackend, type StatusBackend } from './status-store.ts';
import { RedisStatusBackend } from './redis-status-store.ts';
import stompPlugin, { type StompPluginOptions } from './stomp-plugin.ts';

export type { ShipState, StatusBackend, StatusEvent, StoredCameraState } from './status-store.ts';
export { renewLeases } from './lease-renewal.ts';
export { InstanceLease, instanceKeyPrefix } from './instance-lease.ts';
export type { AppStompServer, SnapshotPart, StompPluginOptions, SubscribeRule } from './stomp-plugin.ts';

/** The cluster's bus as modules use it. */
export interface ClusterBus {
  /** Delivers a message to the STOMP subscribers of a destination on every instance, this one included. */
  publish(destination: string, body: string): Promise<void>;
  /** Whether the shared store answers now (readiness); a store in this process always does. */
  ping(): Promise<boolean>;
  /** Live ship and camera status as every instance sees it (the status module keeps it). */
  readonly store: StatusBackend;
}

declare module 'fastify' {
  interface FastifyInstance {
    bus: ClusterBus;
  }
}

export interface BusOptions {
  /** With a Redis URL, status and published messages are shared by every server instance; without, they live in this process. */
  redisUrl?: string | undefined;
  /** Key prefix in Redis (tests use their own). */
  redisPrefix?: string | undefined;
  stomp?: StompPluginOptions | undefined;
  /** This instance's id: status entries it writes name it, and count while its lease lives (instance-lease.ts). */
  instanceId?: string | undefined;
}

/**
 * The cluster's publish/subscribe and the STOMP endpoint it feeds: a message published on any
 * instance reaches the STOMP subscribers of every instance (Redis pub/sub, or this process alone).
 * Offers `app.bus`, `app.stomp` (with its sign-in, subscribe rules and snapshot parts, which the
 * modules give) and the STOMP gauges in /metrics.
 */
export default fp<BusOptions>(
  async (app, opts) => {
    const store: StatusBackend = opts.redisUrl
      ? await RedisStatusBackend.connect(opts.redisUrl, opts.redisPrefix, (err) => app.log.warn({ err: err.message }, 'status: redis error'), opts.instanceId)
      : new MemoryStatusBackend();
    app.addHook('onClose', () => store.close());
    await app.register(stompPlugin, opts.stomp ?? {});
    // Status reported to any instance reaches this instance's STOMP subscribers.
    store.onEvent((event) => app.stomp.publish(event.destination, event.body));
    const registers = [app.metrics.registry];
    new Gauge({
      name: 'shipcctv_stomp_connections',
      help: 'Open STOMP connections (web clients) on this instance.',
      registers,
      collect() {
        this.set(app.stomp.connectionCount());
      },
    });
    new Gauge({
      name: 'shipcctv_stomp_subscriptions',
      help: 'STOMP subscriptions on this instance, over all destinations.',
      registers,
      collect() {
        this.set(app.stomp.destinations().reduce((sum, d) => sum + app.stomp.subscriberCount(d), 0));
      },
    });
    app.decorate('bus', {
      publish: (destination, body) => store.publish({ destination, body }),
      ping: () => store.ping(),
      store,
    } satisfies ClusterBus);
  },
  { name: 'bus', dependencies: ['core-metrics', 'app-websocket'] },
);
