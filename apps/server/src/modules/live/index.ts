import fp from 'fastify-plugin';
import { Gauge } from 'prom-client';
import { LiveService, type LiveServiceOptions } from './live-service.ts';
import { RemoteLive } from './remote-live.ts';

export {
  type JoinTicket,
  type LiveAdmissionNotice,
  type LiveAdmissionRule,
  LiveService,
  type LiveServiceOptions,
  type LiveTicket,
  type PagedViewRule,
  type StreamWants,
} from './live-service.ts';
export { type LiveMediaTap, LiveSource } from './live-source.ts';
export type { LiveOrigin, LiveStreamSpec } from './live-origin.ts';
export { DEFAULT_DEFINITION_CONTROL, type DefinitionControllerOptions } from './definition-controller.ts';
export { RemoteLive } from './remote-live.ts';

declare module 'fastify' {
  interface FastifyInstance {
    live: LiveService;
    /** Live video of ships owned by other instances (only with a Redis URL). */
    remoteLive?: RemoteLive;
  }
}

export interface LivePluginOptions extends Partial<LiveServiceOptions> {
  /** With a Redis URL, a viewer on any instance watches any ship through its owner; without, only ships connected here. */
  redisUrl?: string | undefined;
  redisPrefix?: string | undefined;
  heartbeatMs?: number | undefined;
}

/**
 * Live video: one uplink per (camera, definition) shared by every viewer, linger, definition
 * switches on a lagging link, and in a cluster the relay from the ship's owner. Offers `app.live`
 * (views joined by the viewer module; taps for the recorder and live audio; admission rules for
 * budgets; paged views for carousels), `app.remoteLive`, and the live gauges in /metrics. Needs
 * the fleet, the ships' link, metrics and status (cameras the ships report silent).
 */
export default fp<LivePluginOptions>(
  async (app, opts) => {
    const live = new LiveService(app.fleet, app.agents, app.log.child({ module: 'live' }), {
      lingerMs: Math.min(opts.lingerMs ?? 10_000, 10_000),
      ...(opts.definitionControl ? { definitionControl: opts.definitionControl } : {}),
      ...(opts.retryMs !== undefined ? { retryMs: opts.retryMs } : {}),
      onDefinitionChange: (_shipId, direction) => app.metrics.product.definitionSwitches.inc({ direction }),
    });
    app.decorate('live', live);
    // A camera the ship reports silent: its viewers are told at once (the ship reports within a second or two).
    // …and the codec it reports (hello and reports) tells which stream its first viewers join.
    const unwatch = app.status.onCameraReport((shipId, camera) => {
      live.cameraCodec(shipId, camera.cameraId, camera.codec);
      live.cameraSending(shipId, camera.cameraId, camera.online);
    });
    const unlink = app.status.onLink((shipId, up, cameras) => {
      if (up) for (const camera of cameras) live.cameraCodec(shipId, camera.cameraId, camera.codec);
    });
    app.addHook('onClose', async () => {
      unwatch();
      unlink();
    });
    app.addHook('preClose', async () => live.stopAll());

    const registers = [app.metrics.registry];
    new Gauge({
      name: 'shipcctv_live_uplink_streams',
      help: 'Live streams this instance has asked ships to send (one per camera and definition, lingering ones included).',
      registers,
      collect() {
        this.set(live.activeStreams().length);
      },
    });
    new Gauge({
      name: 'shipcctv_live_viewers',
      help: "Viewers of this instance's live uplink streams.",
      registers,
      collect() {
        this.set(live.activeStreams().reduce((sum, s) => sum + s.viewers, 0));
      },
    });

    if (opts.redisUrl) {
      const remote = await RemoteLive.connect(opts.redisUrl, opts.redisPrefix ?? 'shipcctv:', app.agents, app.ownership, app.log.child({ module: 'remote-live' }), {
        heartbeatMs: opts.heartbeatMs,
      });
      live.useOrigin(remote.origin());
      remote.serve(live);
      app.decorate('remoteLive', remote);
      app.addHook('onClose', () => remote.close());
    }
  },
  { name: 'live', dependencies: ['fleet', 'ship-link', 'core-metrics', 'status'] },
);
