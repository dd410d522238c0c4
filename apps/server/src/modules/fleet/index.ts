import fp from 'fastify-plugin';
import { FleetService } from './fleet-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    fleet: FleetService;
  }
}

export default fp(async (app) => {
  app.decorate('fleet', new FleetService(app.database.db));
});
