import fp from 'fastify-plugin';
import { FleetService } from './fleet-service.ts';
import fleetRoutes from './routes.ts';

export { FleetService, toShip } from './fleet-service.ts';
export { writeFleetFile } from './fleet-file.ts';
export { LiveRequestError, type StreamAccess, resolveStreamAccess } from './stream-access.ts';
export { type TemplateChoice, chooseTemplate, definitionCodec, encodeSpec, isSatelliteTier } from './templates.ts';

declare module 'fastify' {
  interface FastifyInstance {
    fleet: FleetService;
  }
}

/**
 * The fleet: organisations, ships, channels, cameras and their definitions, as the user may see
 * them. Offers `app.fleet` (every module's access check of a ship or camera), the definition a
 * camera streams at (`chooseTemplate`, `resolveStreamAccess`), who may subscribe to a ship's STOMP
 * destinations, and the routes under /api/v1/cctv (source tree, channels, groups, tags, counts,
 * the continuous-watching limit, the channel search). Needs the database, sessions and the bus.
 */
export default fp(
  async (app) => {
    const fleet = new FleetService(app.database.db);
    app.decorate('fleet', fleet);
    app.stompDefaultRule((auth, destination) => fleet.canSubscribe(auth, destination));
    await app.register(fleetRoutes, { prefix: '/api/v1/cctv' });
  },
  { name: 'fleet', dependencies: ['core-db', 'sessions', 'bus'] },
);
