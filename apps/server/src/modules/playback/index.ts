import fp from 'fastify-plugin';
import { Gauge } from 'prom-client';
import { PlaybackService, type PlaybackServiceOptions } from './playback-service.ts';
import vodRoutes from './routes.ts';
import { VodService, type VodServiceOptions } from './vod-service.ts';

export { PlaybackService, type PlaybackServiceOptions } from './playback-service.ts';
export { VodService, type VodServiceOptions } from './vod-service.ts';
export { type PlaybackCommand, checkPlaybackCommand } from './commands.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Ship-end playback streams (one per viewer), driven from the media socket. */
    playback: PlaybackService;
    /** What the ship recorder holds, asked over the agent link and cached on shore. */
    vod: VodService;
  }
}

export interface PlaybackPluginOptions {
  vod?: Partial<VodServiceOptions>;
  playback?: Partial<PlaybackServiceOptions>;
}

/**
 * The ship recorder as shore reaches it: span queries (`app.vod`, GET /cctvv3-server/v3/vod/query,
 * cached on shore) and ship-end playback streams (`app.playback`, started by the viewer module)
 * over the ship's link, and the `shipcctv_ship_playbacks` gauge. Needs the fleet, link streams,
 * ship-work limits, sessions and metrics.
 */
export default fp<PlaybackPluginOptions>(
  async (app, opts) => {
    const log = app.log.child({ module: 'playback' });
    const vod = new VodService(app.fleet, app.linkStreams, log, opts.vod ?? {});
    const playback = new PlaybackService(app.fleet, app.linkStreams, log, opts.playback ?? {});
    app.decorate('vod', vod);
    app.decorate('playback', playback);
    app.addHook('preClose', async () => {
      playback.stopAll();
      vod.close();
    });
    new Gauge({
      name: 'shipcctv_ship_playbacks',
      help: 'Ship-end playbacks (video recorded on the ship, sent over its link) running on this instance.',
      registers: [app.metrics.registry],
      collect() {
        this.set(playback.active().length);
      },
    });
    await app.register(vodRoutes, { prefix: '/cctvv3-server/v3/vod' });
  },
  { name: 'playback', dependencies: ['fleet', 'ship-link', 'ship-work', 'sessions', 'core-metrics'] },
);
