import { randomBytes, randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyPluginCallback, type FastifyPluginOptions, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import corePlugin, { webAppPlugin } from './core/index.ts';
import type { StompPluginOptions } from './core/bus/index.ts';
import type { DatabasePluginOptions } from './core/db/plugin.ts';
import type { JobsPluginOptions } from './core/jobs/plugin.ts';
import { redactingLogger } from './core/http/log-redaction.ts';
import type { AgentLinkOptions } from './core/ship-link/index.ts';
import { makePrivate } from './core/storage/private-files.ts';
import budgetsModule, { type BudgetsPluginOptions } from './modules/budgets/index.ts';
import carouselModule, { type CarouselPluginOptions } from './modules/carousel/index.ts';
import eventsModule, { type EventsPluginOptions } from './modules/events/index.ts';
import fleetModule from './modules/fleet/index.ts';
import linkPoliciesModule from './modules/link-policies/index.ts';
import liveAudioModule from './modules/live-audio/index.ts';
import liveModule, { type LivePluginOptions } from './modules/live/index.ts';
import picturesModule, { type PicturesPluginOptions } from './modules/pictures/index.ts';
import playbackModule, { type PlaybackPluginOptions } from './modules/playback/index.ts';
import ptzModule, { type PtzServiceOptions } from './modules/ptz/index.ts';
import recorderModule, { type RecorderPluginOptions } from './modules/recorder/index.ts';
import backfillModule, { type BackfillPluginOptions } from './modules/backfill/index.ts';
import sessionsModule, { checkSigningSecret, type SessionsPluginOptions } from './modules/sessions/index.ts';
import shipWorkModule, { type ShipWorkPluginOptions } from './modules/ship-work/index.ts';
import statusModule from './modules/status/index.ts';
import stillsModule, { type StillsPluginOptions } from './modules/stills/index.ts';
import talkModule, { type TalkPluginOptions } from './modules/talk/index.ts';
import viewerModule, { type ViewerPluginOptions } from './modules/viewer/index.ts';

export type { RegisteredRoute } from './core/http/index.ts';

export interface AppOptions extends DatabasePluginOptions, Partial<Omit<SessionsPluginOptions, 'logonPerAddressPerMinute'>>, AgentLinkOptions {
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
  /**
   * With Redis: how long this instance's lease lives without renewal (default 10 s): the ships it
   * claimed, and their status, count while it lives; a dead instance's ships have no owner after it.
   */
  ownershipLeaseMs?: number | undefined;
  stomp?: StompPluginOptions;
  /** Signs session tokens; unset: a key file in dataDir (or an in-memory key without one). */
  jwtSecret?: string | undefined;
  /** Origins whose pages may open the STOMP and media sockets; unset: this server's own pages. */
  allowedOrigins?: readonly string[] | undefined;
  /** Bearer token that opens GET /metrics; unset keeps it closed. */
  metricsToken?: string | undefined;
  /** Trust X-Forwarded-* headers (true, or the proxies' addresses), as behind a TLS proxy. */
  trustProxy?: boolean | string | undefined;
  /** Live streams and the media socket's continuous-watching clock. */
  live?: Omit<LivePluginOptions, 'redisUrl' | 'redisPrefix'> & ViewerPluginOptions;
  /** Shore recorder settings (defaults from the environment, files under dataDir/recordings). */
  recorder?: Omit<RecorderPluginOptions, 'dataDir'>;
  /** Ship-end playback and span queries over the agent link. */
  playback?: PlaybackPluginOptions;
  /** Backfill of the shore recording's gaps from the ship recorder (defaults from the environment). */
  backfill?: BackfillPluginOptions;
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
  /** Events (how often a held event asks its budget again; when an event's video is fetched). */
  events?: Pick<EventsPluginOptions, 'budgetRecheckMs' | 'eventVideoDelayMs'>;
  /** Limits on snapshots, ship queries, PTZ and stills per user and per ship (defaults in ship-work-limits.ts). */
  shipWorkLimits?: ShipWorkPluginOptions['limits'];
}

export type App = FastifyInstance;

/** One module with its options, registered in the order of the list. */
type ModuleEntry = (app: App) => PromiseLike<unknown>;
const entry =
  <O extends FastifyPluginOptions>(plugin: FastifyPluginCallback<O>, options: O): ModuleEntry =>
  (app) =>
    app.register(plugin, options);

/**
 * The feature modules, each after the modules it needs (its plugin declares them; Fastify refuses
 * a module registered before one it depends on). Each registers its own routes.
 */
function modules(opts: AppOptions): ModuleEntry[] {
  const redis = { redisUrl: opts.redisUrl, redisPrefix: opts.redisPrefix };
  const { minuteMs, ...live } = opts.live ?? {};
  return [
    entry(sessionsModule, {
      ttlHours: opts.ttlHours ?? 24,
      logonFailures: opts.logonFailures ?? { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 60_000 },
      signingKey: { secret: opts.jwtSecret, dataDir: opts.dataDir },
      logonPerAddressPerMinute: opts.logonPerAddressPerMinute ?? 20,
      ...redis,
    }),
    entry(fleetModule, {}),
    entry(shipWorkModule, { ...redis, limits: opts.shipWorkLimits }),
    entry(linkPoliciesModule, {}),
    entry(statusModule, {}),
    entry(liveModule, { ...live, ...redis }),
    entry(playbackModule, opts.playback ?? {}),
    entry(viewerModule, minuteMs === undefined ? {} : { minuteMs }),
    entry(liveAudioModule, {}),
    entry(recorderModule, { ...opts.recorder, dataDir: opts.dataDir }),
    entry(picturesModule, { ...opts.pictures, dataDir: opts.dataDir }),
    entry(carouselModule, opts.carousel ?? {}),
    entry(talkModule, { ...redis, ...opts.talk }),
    entry(ptzModule, opts.ptz ?? {}),
    entry(budgetsModule, opts.budgets ?? {}),
    entry(backfillModule, opts.backfill ?? {}),
    entry(stillsModule, opts.stills ?? {}),
    entry(eventsModule, { ...opts.events, dataDir: opts.dataDir }),
  ];
}

/** Builds the shore server: the core, every module, the web app; the caller listens (server.ts) or injects (tests). */
export async function buildApp(opts: AppOptions): Promise<App> {
  // A setting that cannot work is refused before the database opens (seconds on a new data folder).
  checkSigningSecret(opts.jwtSecret);
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

  await app.register(corePlugin, {
    http: { allowedOrigins: opts.allowedOrigins },
    metricsToken: opts.metricsToken,
    database: { databaseUrl: opts.databaseUrl, dataDir: opts.dataDir, seedDemo: opts.seedDemo, database: opts.database },
    jobs: { ...(opts.instanceName ? { instance: instanceId } : {}), ...opts.jobs },
    bus: { redisUrl: opts.redisUrl, redisPrefix: opts.redisPrefix, stomp: opts.stomp, instanceId },
    shipLink: { liveness: opts.liveness, admission: opts.admission, redisUrl: opts.redisUrl, redisPrefix: opts.redisPrefix, ownershipLeaseMs: opts.ownershipLeaseMs, instanceId },
  });
  for (const register of modules(opts)) await register(app);
  await app.register(webAppPlugin, { webDist: opts.webDist });
  return app;
}
