import fp from 'fastify-plugin';
import { PlaybackService, type PlaybackServiceOptions } from './playback-service.ts';
import { VodService, type VodServiceOptions } from './vod-service.ts';

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

/** The ship recorder as shore reaches it: span queries and playback streams over the agent link. */
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
  },
  { name: 'playback', dependencies: ['link-streams'] },
);
