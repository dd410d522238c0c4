import fp from 'fastify-plugin';
import { PtzService, type PtzServiceOptions } from './ptz-service.ts';
import ptzRoutes from './routes.ts';

export { PtzService, type PtzServiceOptions } from './ptz-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** PTZ control: commands to the ships' PTZ cameras, who steers which camera on `/ptz/{cameraId}`. */
    ptz: PtzService;
  }
}

/**
 * PTZ control: the service, who may hear who steers a camera (STOMP `/ptz/{cameraId}`), and the
 * routes under /api/v1/cctv/ptz. Needs the fleet, the bus, link streams, ship-work limits and sessions.
 */
export default fp<PtzServiceOptions>(
  async (app, opts) => {
    const service = new PtzService(
      app.fleet,
      app.linkStreams,
      (destination, body) => {
        app.bus.publish(destination, body).catch((err: unknown) => app.log.warn({ err, destination }, 'ptz: publishing failed'));
      },
      app.log.child({ module: 'ptz' }),
      opts,
    );
    app.decorate('ptz', service);
    app.stompSubscribeRule('ptz', (auth, d) => service.canSubscribe(auth, d.cameraId));
    await app.register(ptzRoutes, { prefix: '/api/v1/cctv/ptz' });
  },
  { name: 'ptz', dependencies: ['fleet', 'bus', 'ship-link', 'ship-work', 'sessions'] },
);
