import fp from 'fastify-plugin';
import busPlugin, { type BusOptions } from './bus/index.ts';
import databasePlugin, { type DatabasePluginOptions } from './db/plugin.ts';
import httpPlugin, { type HttpOptions, healthPlugin } from './http/index.ts';
import jobsPlugin, { type JobsPluginOptions } from './jobs/plugin.ts';
import metricsPlugin from './metrics/plugin.ts';
import shipLinkPlugin, { type ShipLinkOptions } from './ship-link/index.ts';

export { webAppPlugin } from './http/index.ts';

export interface CoreOptions {
  http: HttpOptions;
  /** Bearer token that opens GET /metrics; unset keeps it closed. */
  metricsToken?: string | undefined;
  database: DatabasePluginOptions;
  jobs: JobsPluginOptions;
  bus: BusOptions;
  shipLink: ShipLinkOptions;
}

/**
 * What every module uses, registered before any of them and knowing none of them: HTTP (envelope,
 * errors, headers, limits, OpenAPI, sockets), metrics, the database, jobs, the cluster's bus and
 * STOMP, the ships' link; then the health routes.
 */
export default fp<CoreOptions>(
  async (app, opts) => {
    await app.register(httpPlugin, opts.http);
    await app.register(metricsPlugin, { token: opts.metricsToken });
    await app.register(databasePlugin, opts.database);
    await app.register(jobsPlugin, opts.jobs);
    await app.register(busPlugin, opts.bus);
    await app.register(shipLinkPlugin, opts.shipLink);
    await app.register(healthPlugin);
  },
  { name: 'core' },
);
