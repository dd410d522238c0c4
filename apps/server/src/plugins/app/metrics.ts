import { timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import { CODES } from '@ship-cctv/protocol';
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

export interface MetricsPluginOptions {
  /**
   * The Bearer token a scraper must send. Unset: /metrics is not published at all, since it names
   * every ship of every organisation and what its link costs.
   */
  token?: string | undefined;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** GET /metrics in Prometheus text format: link bytes, HTTP requests and the process's own figures. */
export default fp<MetricsPluginOptions>(async (app, opts) => {
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

  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (!opts.token) {
      return reply.code(CODES.notFound).send({ code: CODES.notFound, message: 'Metrics are not published: set METRICS_TOKEN and scrape with it as a Bearer token', data: null });
    }
    const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (!sameSecret(given, opts.token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      return reply.code(CODES.unauthorized).send({ code: CODES.unauthorized, message: 'A valid metrics Bearer token is required', data: null });
    }
    reply.type('text/plain; version=0.0.4; charset=utf-8');
    return registry.render();
  });
});
