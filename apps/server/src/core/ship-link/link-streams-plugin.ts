import fp from 'fastify-plugin';
import { type LinkStreams, localStreams } from './link-streams.ts';
import { LinkRelay } from './link-relay.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Streams on ships' links wherever the link is held: PTZ, vod, ship-end playback, talkback, pictures. */
    linkStreams: LinkStreams;
    /** The cluster's relay behind linkStreams (only with a Redis URL). */
    linkRelay?: LinkRelay;
  }
}

export interface LinkStreamsPluginOptions {
  /** With a Redis URL, a stream to a ship held by another instance goes through that instance; without, only ships connected here. */
  redisUrl?: string | undefined;
  redisPrefix?: string | undefined;
  heartbeatMs?: number | undefined;
  openTimeoutMs?: number | undefined;
  /** The ship ownership lease: a Redis stall shorter than it closes no relayed stream. */
  leaseMs?: number | undefined;
}

/** The one opener of streams on ships' links for every service but live (see link-relay.ts). */
export default fp<LinkStreamsPluginOptions>(
  async (app, opts) => {
    if (!opts.redisUrl) {
      app.decorate('linkStreams', localStreams(app.agents));
      return;
    }
    const relay = await LinkRelay.connect(opts.redisUrl, opts.redisPrefix ?? 'shipcctv:', app.agents, app.ownership, app.log.child({ module: 'link-relay' }), {
      heartbeatMs: opts.heartbeatMs,
      openTimeoutMs: opts.openTimeoutMs,
      leaseMs: opts.leaseMs,
    });
    app.decorate('linkStreams', relay);
    app.decorate('linkRelay', relay);
    app.addHook('onClose', () => relay.close());
  },
  { name: 'link-streams', dependencies: ['agent-link', 'ownership'] },
);
