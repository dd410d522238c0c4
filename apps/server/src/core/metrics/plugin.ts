import { timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import { CODES } from '@ship-cctv/protocol';
import { PATHS, type LinkPurpose } from '@ship-cctv/protocol';
import { Counter, Histogram, Registry } from 'prom-client';
import { registerProcessMetrics } from './process-metrics.ts';
import { type ProductCounters, registerProductCounters, signInFailureReason } from './product-metrics.ts';

export interface ServerMetrics {
  /** This server's prom-client registry (one per app: tests run several in a process). */
  registry: Registry;
  /** The product's counters other plugins count into. */
  product: ProductCounters;
  /** Bytes that crossed a ship's link so far in a direction for a purpose (read by the link-rate sampler). */
  linkBytesOf(shipId: string, direction: 'up' | 'down', purpose: LinkPurpose): number;
  /** Every ship whose link this instance has counted bytes of (the data budgets read their counters). */
  countedShips(): string[];
  /**
   * Starts a ship's series of one purpose (both directions) at zero, so rates exist from its first
   * scrape: control when its link opens, another purpose when a stream of it opens — not all five
   * for every ship, most of which never carry video (each series is memory on every instance).
   */
  initShip(shipId: string, purpose: LinkPurpose): void;
  countLink(shipId: string, direction: 'up' | 'down', purpose: LinkPurpose, bytes: number): void;
}

/** The sign-in route, whose refusals are counted as sign-in failures. */
const LOGON_ROUTE = '/api/v1/sys/logon';

/**
 * The route label of a request: the route's pattern, one label for every file of the web app
 * (@fastify/static declares a route per file, which would mint a series per asset and per build).
 */
function routeLabel(url: string | undefined): string {
  if (url === undefined) return 'unmatched';
  return url.startsWith(PATHS.webBase) ? `${PATHS.webBase}*` : url;
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

/**
 * GET /metrics in Prometheus text format (prom-client): link bytes, HTTP requests, the process's
 * own figures and the product's counters (product-metrics.ts); the gauges read at each scrape are
 * registered by the parts that own what they read.
 */
export default fp<MetricsPluginOptions>(
  async (app, opts) => {
    const registry = new Registry();
    const registers = [registry];
    const linkBytes = new Counter({
      name: 'shipcctv_link_bytes_total',
      help: 'Bytes crossing a ship link, by direction and purpose.',
      labelNames: ['ship', 'direction', 'purpose'],
      registers,
    });
    // prom-client reads its counters asynchronously; the link-rate sampler reads these every second, so a copy is kept here.
    const linkTotals = new Map<string, number>();
    const linkKey = (ship: string, direction: string, purpose: string) => `${ship}\u0000${direction}\u0000${purpose}`;
    const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered.', labelNames: ['method', 'route', 'status'], registers });
    const durations = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer HTTP requests.',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    registerProcessMetrics(registry);
    const product = registerProductCounters(registry);

    const metrics: ServerMetrics = {
      registry,
      product,
      linkBytesOf(ship, direction, purpose) {
        return linkTotals.get(linkKey(ship, direction, purpose)) ?? 0;
      },
      countedShips() {
        return [...new Set([...linkTotals.keys()].map((key) => key.slice(0, key.indexOf('\u0000'))))];
      },
      initShip(shipId, purpose) {
        for (const direction of ['up', 'down'] as const) {
          if (!linkTotals.has(linkKey(shipId, direction, purpose))) metrics.countLink(shipId, direction, purpose, 0);
        }
      },
      countLink(shipId, direction, purpose, bytes) {
        linkBytes.inc({ ship: shipId, direction, purpose }, bytes);
        const key = linkKey(shipId, direction, purpose);
        linkTotals.set(key, (linkTotals.get(key) ?? 0) + bytes);
      },
    };
    app.decorate('metrics', metrics);

    app.addHook('onResponse', async (req, reply) => {
      const route = routeLabel(req.routeOptions.url);
      requests.inc({ method: req.method, route, status: String(reply.statusCode) });
      durations.observe({ method: req.method, route }, reply.elapsedTime / 1000);
      if (route === LOGON_ROUTE && req.method === 'POST' && reply.statusCode >= 400) product.signInFailures.inc({ reason: signInFailureReason(reply.statusCode) });
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
      reply.type(registry.contentType);
      return registry.metrics();
    });
  },
  { name: 'core-metrics' },
);
