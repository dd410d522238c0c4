import fp from 'fastify-plugin';
import { LINK_PURPOSES, type LinkPurpose } from '@ship-cctv/protocol';
import { Counter, Histogram, MetricsRegistry } from '../../metrics/registry.ts';
import { registerProcessMetrics } from '../../metrics/process-metrics.ts';

export interface ServerMetrics {
  registry: MetricsRegistry;
  /** Bytes crossing each ship's link, per direction and purpose. */
  linkBytes: Counter;
  /** Starts every series of a ship at zero so rates exist from its first scrape. */
  initShip(shipId: string): void;
  countLink(shipId: string, direction: 'up' | 'down', purpose: LinkPurpose, bytes: number): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: ServerMetrics;
  }
}

/** GET /metrics in Prometheus text format: link bytes, HTTP requests and the process's own figures. */
export default fp(async (app) => {
  const registry = new MetricsRegistry();
  const linkBytes = registry.register(
    new Counter('shipcctv_link_bytes_total', 'Bytes crossing a ship link, by direction and purpose.', ['ship', 'direction', 'purpose']),
  );
  const requests = registry.register(new Counter('http_requests_total', 'HTTP requests answered.', ['method', 'route', 'status']));
  const durations = registry.register(
    new Histogram('http_request_duration_seconds', 'Time to answer HTTP requests.', ['method', 'route'], [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]),
  );
  registerProcessMetrics(registry);

  const metrics: ServerMetrics = {
    registry,
    linkBytes,
    initShip(shipId) {
      for (const direction of ['up', 'down'] as const) {
        for (const purpose of LINK_PURPOSES) linkBytes.inc({ ship: shipId, direction, purpose }, 0);
      }
    },
    countLink(shipId, direction, purpose, bytes) {
      linkBytes.inc({ ship: shipId, direction, purpose }, bytes);
    },
  };
  app.decorate('metrics', metrics);

  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    requests.inc({ method: req.method, route, status: String(reply.statusCode) });
    durations.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
    reply.type('text/plain; version=0.0.4; charset=utf-8');
    return registry.render();
  });
});
