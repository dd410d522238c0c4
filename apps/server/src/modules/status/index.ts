import fp from 'fastify-plugin';
import { MemoryStatusBackend, type StatusBackend } from './backend.ts';
import { RedisStatusBackend } from './redis-backend.ts';
import { StatusService } from './status-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    status: StatusService;
  }
}

export interface StatusPluginOptions {
  /** With a Redis URL, status is shared by every server instance; without, it lives in this process. */
  redisUrl?: string | undefined;
  /** Key prefix in Redis (tests use their own). */
  redisPrefix?: string | undefined;
  /** How often this instance writes its ships' state again (tests shorten it). */
  refreshMs?: number | undefined;
}

export default fp<StatusPluginOptions>(
  async (app, opts) => {
    const backend: StatusBackend = opts.redisUrl
      ? await RedisStatusBackend.connect(opts.redisUrl, opts.redisPrefix, (err) => app.log.warn({ err: err.message }, 'status: redis error'))
      : new MemoryStatusBackend();
    const service = new StatusService(app.database.db, backend, opts.refreshMs);
    app.decorate('status', service);
    app.addHook('onClose', () => service.close());
  },
  { name: 'status' },
);
