import fp from 'fastify-plugin';
import { RemoteLive } from './remote-live.ts';

export interface RemoteLivePluginOptions {
  /** With a Redis URL, a viewer on any instance watches any ship through its owner; without, only ships connected here. */
  redisUrl?: string | undefined;
  redisPrefix?: string | undefined;
  heartbeatMs?: number | undefined;
}

/** Live video of ships owned by other instances (see cluster/remote-live.ts). */
export default fp<RemoteLivePluginOptions>(
  async (app, opts) => {
    if (!opts.redisUrl) return;
    const remote = await RemoteLive.connect(opts.redisUrl, opts.redisPrefix ?? 'shipcctv:', app.agents, app.ownership, app.log.child({ module: 'remote-live' }), {
      heartbeatMs: opts.heartbeatMs,
    });
    app.live.useOrigin(remote.origin());
    remote.serve(app.live);
    app.decorate('remoteLive', remote);
    app.addHook('onClose', () => remote.close());
  },
  { name: 'remote-live', dependencies: ['ownership', 'live'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    remoteLive?: RemoteLive;
  }
}
