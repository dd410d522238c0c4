import fp from 'fastify-plugin';
import { PtzService, type PtzServiceOptions } from './ptz-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** PTZ control: commands to the ships' PTZ cameras, who steers which camera on `/ptz/{cameraId}`. */
    ptz: PtzService;
  }
}

/** PTZ control: the service and who may hear who steers a camera (STOMP `/ptz/{cameraId}`). */
export default fp<PtzServiceOptions>(
  async (app, opts) => {
    const service = new PtzService(
      app.fleet,
      app.linkStreams,
      (destination, body) => {
        app.status.publish(destination, body).catch((err: unknown) => app.log.warn({ err, destination }, 'ptz: publishing failed'));
      },
      app.log.child({ module: 'ptz' }),
      opts,
    );
    app.decorate('ptz', service);
    app.stompSubscribeRule('ptz', (auth, d) => service.canSubscribe(auth, d.cameraId));
  },
  { name: 'ptz', dependencies: ['app-stomp', 'status', 'link-streams'] },
);
