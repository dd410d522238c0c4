import { randomBytes, randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifySchema, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CODES, MESSAGES } from '@ship-cctv/protocol';
import { ApiError } from './lib/envelope.ts';
import { redactingLogger } from './lib/log-redaction.ts';
import { makePrivate } from './lib/private-files.ts';
import cookiePlugin from './plugins/external/cookie.ts';
import rateLimitPlugin from './plugins/external/rate-limit.ts';
import swaggerPlugin from './plugins/external/swagger.ts';
import webAppPlugin from './plugins/external/web-app.ts';
import websocketPlugin from './plugins/external/websocket.ts';
import metricsPlugin from './plugins/app/metrics.ts';
import productMetricsPlugin from './plugins/app/product-metrics.ts';
import securityHeadersPlugin from './plugins/app/security-headers.ts';
import websocketOriginPlugin from './plugins/app/websocket-origin.ts';
import statusPlugin from './plugins/app/status.ts';
import stompPlugin, { type StompPluginOptions } from './plugins/app/stomp.ts';
import agentLinkPlugin, { type AgentLinkOptions } from './plugins/app/agent-link.ts';
import ownershipPlugin from './plugins/app/ownership.ts';
import remoteLivePlugin from './plugins/app/remote-live.ts';
import linkStreamsPlugin from './plugins/app/link-streams.ts';
import cctvServerRoutes from './routes/api/cctv-server.ts';
import livePlugin, { type LivePluginOptions } from './plugins/app/live.ts';
import recorderPlugin, { type RecorderPluginOptions } from './plugins/app/recorder.ts';
import liveAudioPlugin from './plugins/app/live-audio.ts';
import jobsPlugin, { type JobsPluginOptions } from './plugins/app/jobs.ts';
import picturesPlugin, { type PicturesPluginOptions } from './plugins/app/pictures.ts';
import pictureRoutes from './routes/pictures/index.ts';
import carouselPlugin, { type CarouselPluginOptions } from './plugins/app/carousel.ts';
import talkPlugin, { type TalkPluginOptions } from './plugins/app/talk.ts';
import carouselRoutes from './routes/carousel/index.ts';
import ptzPlugin from './plugins/app/ptz.ts';
import budgetsPlugin, { type BudgetsPluginOptions } from './plugins/app/budgets.ts';
import budgetRoutes from './routes/budget/index.ts';
import stillsPlugin, { type StillsPluginOptions } from './plugins/app/stills.ts';
import stillRoutes from './routes/stills/index.ts';
import ptzRoutes from './routes/ptz/index.ts';
import type { PtzServiceOptions } from './ptz/ptz-service.ts';
import recordRoutes from './routes/api/cctv/record.ts';
import playbackPlugin, { type PlaybackPluginOptions } from './plugins/app/playback.ts';
import vodRoutes from './routes/cctvv3-server/vod.ts';
import databasePlugin, { type DatabasePluginOptions } from './plugins/app/database.ts';
import sessionsPlugin, { type SessionsPluginOptions } from './plugins/app/sessions.ts';
import fleetPlugin from './plugins/app/fleet.ts';
import shipWorkPlugin, { type ShipWorkPluginOptions } from './plugins/app/ship-work.ts';
import linkPolicyPlugin from './plugins/app/link-policy.ts';
import linkPolicyRoutes from './routes/link-policy/index.ts';
import rootRoutes from './routes/root.ts';
import sysRoutes from './routes/api/sys.ts';
import cctvRoutes from './routes/api/cctv/index.ts';

export interface AppOptions extends DatabasePluginOptions, Partial<SessionsPluginOptions>, AgentLinkOptions {
  logger?: FastifyServerOptions['logger'];
  /** Folder of the built web app; absent or missing folder answers a "not built" page. */
  webDist?: string | undefined;
  /** Sign-in attempts per address per minute. */
  logonPerAddressPerMinute?: number;
  /** Shares live status between server instances; unset keeps it in this process. */
  redisUrl?: string | undefined;
  redisPrefix?: string | undefined;
  /**
   * Names this instance in ship ownership (Redis `owner:<ship>`) and the job table: `<name>-<random>`,
   * so operators (and the demo) see which instance holds which ship; the random part keeps two
   * instances given the same name apart. Unset: a random id.
   */
  instanceName?: string | undefined;
  /** With Redis: how long a ship's ownership claim lives without renewal (default 10 s). */
  ownershipLeaseMs?: number | undefined;
  /** How often an instance writes its ships' status again to Redis (default 10 s). */
  statusRefreshMs?: number | undefined;
  stomp?: StompPluginOptions;
  /** Signs session tokens; unset: a key file in dataDir (or an in-memory key without one). */
  jwtSecret?: string | undefined;
  /** Origins whose pages may open the STOMP and media sockets; unset: this server's own pages. */
  allowedOrigins?: readonly string[] | undefined;
  /** Bearer token that opens GET /metrics; unset keeps it closed. */
  metricsToken?: string | undefined;
  /** Trust X-Forwarded-* headers (true, or the proxies' addresses), as behind a TLS proxy. */
  trustProxy?: boolean | string | undefined;
  live?: LivePluginOptions;
  /** Shore recorder settings (defaults from the environment, files under dataDir/recordings). */
  recorder?: Omit<RecorderPluginOptions, 'dataDir'>;
  /** Ship-end playback and span queries over the agent link. */
  playback?: PlaybackPluginOptions;
  /** The job runner (lease, heartbeat and poll times; the instance's name). */
  jobs?: JobsPluginOptions;
  /** Pictures (retention, the ship's answer time; files under dataDir/pictures). */
  pictures?: Omit<PicturesPluginOptions, 'dataDir'>;
  carousel?: CarouselPluginOptions;
  /** Talkback (maximum duration, occupancy store). */
  talk?: TalkPluginOptions;
  ptz?: PtzServiceOptions;
  /** Data budgets (how often counted bytes are written, the clock). */
  budgets?: BudgetsPluginOptions;
  stills?: StillsPluginOptions;
  /** Limits on snapshots, ship queries, PTZ and stills per user and per ship (defaults in ship-work-limits.ts). */
  shipWorkLimits?: ShipWorkPluginOptions['limits'];
}

export type App = FastifyInstance;

/** A registered route, as the onRoute hook saw it (the OpenAPI document leaves hidden ones out). */
export interface RegisteredRoute {
  method: string | string[];
  url: string;
  schema: FastifySchema | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, for tests that must cover all of them. */
    registeredRoutes: readonly RegisteredRoute[];
  }
}

/** Builds the shore server with every plugin and route; the caller listens (server.ts) or injects (tests). */
export async function buildApp(opts: AppOptions): Promise<App> {
  if (opts.dataDir) makePrivate(opts.dataDir);
  const instanceId = opts.instanceName ? `${opts.instanceName}-${randomBytes(4).toString('hex')}` : randomUUID();
  const app = Fastify({
    logger: redactingLogger(opts.logger),
    // Only behind a known reverse proxy may X-Forwarded-For name the client (it keys the sign-in limit).
    trustProxy: opts.trustProxy ?? false,
    // Every route takes small JSON (the largest, a list of 1,000 ship ids, is under 70 kB); a larger
    // body is refused (413) before it is read into memory and parsed on the event loop.
    bodyLimit: 131_072,
    // Migrations and the demo seed on the embedded database can take a while on a loaded machine.
    pluginTimeout: 120_000,
    ajv: { customOptions: { removeAdditional: true, coerceTypes: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const registeredRoutes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', registeredRoutes);
  app.addHook('onRoute', (route) => {
    registeredRoutes.push({ method: route.method, url: route.url, schema: route.schema });
  });

  app.setErrorHandler((err: Error & { statusCode?: number; validation?: unknown; headers?: unknown }, req, reply) => {
    if (err instanceof ApiError) {
      if (err.headers) reply.headers(err.headers);
      return reply.code(err.code).send(err.body);
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // A client's mistake: one line with the reason, no stack trace.
      req.log.info({ statusCode: status, reason: err.message }, 'request refused');
      // Headers the answer needs (Content-Range of a 416 from sendFile), as Fastify's own handler keeps them.
      if (typeof err.headers === 'object' && err.headers !== null) {
        for (const [name, value] of Object.entries(err.headers)) if (typeof value === 'string') reply.header(name, value);
      }
      return reply.code(status).send({ code: status, message: err.message, data: null });
    }
    req.log.error({ err }, 'request failed');
    return reply.code(CODES.internal).send({ code: CODES.internal, message: MESSAGES.internal, data: null });
  });

  // Checked once here, after validation, for every route's parameters, query and body (WebSocket
  // upgrades included): no text may hold a NUL (PostgreSQL refuses it mid-query), and no number may
  // be Infinity or NaN (`1e309` in JSON; ajv's type coercion lets "Infinity" past integer bounds).
  app.addHook('preHandler', async (req) => {
    const bad = findUnusable({ params: req.params, query: req.query, body: req.body });
    if (bad) throw new ApiError(CODES.badRequest, bad);
  });

  await app.register(securityHeadersPlugin);
  await app.register(cookiePlugin);
  await app.register(rateLimitPlugin);
  await app.register(swaggerPlugin);
  await app.register(websocketPlugin);
  // After the WebSocket plugin: its hooks end the socket of an upgrade this one refuses.
  await app.register(websocketOriginPlugin, { allowedOrigins: opts.allowedOrigins });
  await app.register(metricsPlugin, { token: opts.metricsToken });
  await app.register(databasePlugin, {
    databaseUrl: opts.databaseUrl,
    dataDir: opts.dataDir,
    seedDemo: opts.seedDemo,
    database: opts.database,
  });
  await app.register(sessionsPlugin, {
    ttlHours: opts.ttlHours ?? 24,
    logonFailures: opts.logonFailures ?? { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 60_000 },
    signingKey: { secret: opts.jwtSecret, dataDir: opts.dataDir },
    redisUrl: opts.redisUrl,
    redisPrefix: opts.redisPrefix,
  });
  await app.register(jobsPlugin, { ...(opts.instanceName ? { instance: instanceId } : {}), ...opts.jobs });
  await app.register(fleetPlugin);
  await app.register(shipWorkPlugin, { redisUrl: opts.redisUrl, redisPrefix: opts.redisPrefix, limits: opts.shipWorkLimits });
  await app.register(linkPolicyPlugin);
  await app.register(statusPlugin, { redisUrl: opts.redisUrl, redisPrefix: opts.redisPrefix, refreshMs: opts.statusRefreshMs });
  await app.register(stompPlugin, opts.stomp ?? {});
  await app.register(agentLinkPlugin, { liveness: opts.liveness });
  await app.register(ownershipPlugin, { redisUrl: opts.redisUrl, redisPrefix: opts.redisPrefix, leaseMs: opts.ownershipLeaseMs, instanceId });
  await app.register(linkStreamsPlugin, { redisUrl: opts.redisUrl, redisPrefix: opts.redisPrefix });
  await app.register(playbackPlugin, opts.playback ?? {});
  await app.register(livePlugin, opts.live ?? {});
  await app.register(remoteLivePlugin, { redisUrl: opts.redisUrl, redisPrefix: opts.redisPrefix });
  await app.register(liveAudioPlugin);
  await app.register(recorderPlugin, { ...opts.recorder, dataDir: opts.dataDir });
  await app.register(picturesPlugin, { ...opts.pictures, dataDir: opts.dataDir });
  await app.register(carouselPlugin, opts.carousel ?? {});
  await app.register(talkPlugin, { redisUrl: opts.redisUrl, redisPrefix: opts.redisPrefix, ...opts.talk });
  await app.register(ptzPlugin, opts.ptz ?? {});
  await app.register(budgetsPlugin, opts.budgets ?? {});
  await app.register(stillsPlugin, opts.stills ?? {});
  await app.register(productMetricsPlugin);
  // Status reported to any instance reaches this instance's STOMP subscribers; a new subscriber
  // first gets the current state.
  app.status.onDeliver((event) => app.stomp.publish(event.destination, event.body));
  app.stomp.setSnapshotProvider(async (destination) => [
    ...(await app.status.snapshot(destination, await app.fleet.shipsForDestination(destination))),
    // The shore recorder's recording status follows the ship's, so it is what a subscriber sees last.
    ...(await app.recorder.snapshot(destination)),
  ]);

  await app.register(rootRoutes);
  await app.register(sysRoutes, { prefix: '/api/v1/sys', logonPerAddressPerMinute: opts.logonPerAddressPerMinute ?? 20 });
  await app.register(cctvRoutes, { prefix: '/api/v1/cctv' });
  await app.register(recordRoutes, { prefix: '/api/v1/cctv/record' });
  await app.register(cctvServerRoutes, { prefix: '/api/v1/cctv-server' });
  await app.register(vodRoutes, { prefix: '/cctvv3-server/v3/vod' });
  await app.register(pictureRoutes);
  await app.register(carouselRoutes, { prefix: '/api/v1/cctv/carousel' });
  await app.register(ptzRoutes, { prefix: '/api/v1/cctv/ptz' });
  await app.register(budgetRoutes, { prefix: '/api/v1/cctv' });
  await app.register(linkPolicyRoutes, { prefix: '/api/v1/cctv/linkPolicy' });
  await app.register(stillRoutes, { prefix: '/api/v1/cctv/stills' });
  await app.register(webAppPlugin, { webDist: opts.webDist });

  return app;
}

/** Why a value cannot be used (naming its path, e.g. `query.orgId`), or null. Depth-limited. */
function findUnusable(value: unknown, path = '', depth = 0): string | null {
  const where = path.replace(/^(params|query|body)\.?/, '$1 ').trim() || 'input';
  if (typeof value === 'string') return value.includes('\u0000') ? `${where} must not contain a NUL character (U+0000)` : null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : `${where} must be a finite number`;
  if (depth > 8 || typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    const found = findUnusable(item, path ? `${path}.${key}` : key, depth + 1);
    if (found) return found;
  }
  return null;
}
