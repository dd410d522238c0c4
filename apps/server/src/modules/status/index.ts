import fp from 'fastify-plugin';
import { Gauge } from 'prom-client';
import linkBytesRoutes from './link-bytes-routes.ts';
import statusRoutes from './routes.ts';
import { StatusService } from './status-service.ts';

export { StatusService, cameraStatusBody, shipStatusBody } from './status-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    status: StatusService;
  }
}

export type StatusPluginOptions = Record<never, never>;

/**
 * Live ship and camera status, as the agents report it. Offers `app.status`, the first messages a
 * new subscriber of /shipStatus and /mediaList gets, the `shipcctv_agents_connected` gauge, and
 * the routes under /api/v1/cctv-server (status) and /api/v1/cctv/statistics/linkBytes. Needs the
 * database, the bus (its shared store), the ships' link (their reports) and the fleet.
 */
export default fp<StatusPluginOptions>(
  async (app) => {
    const service = new StatusService(app.database.db, app.bus.store);
    app.decorate('status', service);
    // The shared store may have lost what this instance wrote (Redis restarted empty, or a stall outlived the lease).
    app.ownership.events.on('restored', () => void service.rewriteLocal());
    app.addHook('onClose', async () => service.close());
    app.agents.reportTo(service);
    app.stompSnapshot(async (destination) => service.snapshot(destination, await app.fleet.shipsForDestination(destination)));

    new Gauge({
      name: 'shipcctv_agents_connected',
      help: 'Ship agents connected to this instance, by the link type each last reported.',
      labelNames: ['link'],
      registers: [app.metrics.registry],
      async collect() {
        this.reset();
        const ships = app.agents.connectedShips().map((id) => ({ id, name: id }));
        const statuses = ships.length > 0 ? await service.shipStatuses(ships) : [];
        const byLink = new Map<string, number>();
        for (const s of statuses) byLink.set(String(s.status), (byLink.get(String(s.status)) ?? 0) + 1);
        for (const [link, n] of byLink) this.set({ link }, n);
      },
    });

    await app.register(statusRoutes, { prefix: '/api/v1/cctv-server' });
    await app.register(linkBytesRoutes, { prefix: '/api/v1/cctv' });
  },
  { name: 'status', dependencies: ['core-db', 'bus', 'ship-link', 'fleet', 'sessions'] },
);
