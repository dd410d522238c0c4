import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../../core/http/auth.ts';
import { requestToken } from '../../core/http/request-token.ts';
import sysRoutes, { heartbeatRoutes } from './routes.ts';
import { SessionService, type SessionOptions } from './session-service.ts';
import { RedisThrottleStore } from './sign-in-throttle.ts';

export type { AuthContext, SessionEndReason, SessionEvents } from '../../core/http/auth.ts';
export { SessionService, type SessionOptions } from './session-service.ts';
export { requestToken } from '../../core/http/request-token.ts';
export { checkSigningSecret } from './signing-key.ts';

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionService;
    /** onRequest hook for routes that need a signed-in user; sets request.auth. */
    authenticate: (req: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    auth: AuthContext;
  }
}

export interface SessionsPluginOptions extends SessionOptions {
  /** With Redis, every instance counts sign-in failures together and a restart forgets none. */
  redisUrl?: string | undefined;
  redisPrefix?: string | undefined;
  /** Sign-in attempts per address per minute. */
  logonPerAddressPerMinute: number;
}

/**
 * Sessions: sign-in, logout, displacement, token checks.
 * Offers `app.sessions`, `app.authenticate` (the onRequest hook of every signed-in route, setting
 * `req.auth`), the sign-in of STOMP connections, and the routes under /api/v1/sys and
 * /api/v1/cctv/heartbeat. Needs the database, cookies and the bus.
 */
export default fp<SessionsPluginOptions>(
  async (app, opts) => {
    const throttleStore = opts.redisUrl
      ? new RedisThrottleStore(opts.redisUrl, opts.redisPrefix ?? 'shipcctv:', (err) => app.log.warn({ err }, 'sign-in throttle: redis error'))
      : undefined;
    if (throttleStore) app.addHook('onClose', () => throttleStore.close());
    const service = new SessionService(app.database.db, { ...opts, throttleStore });
    await service.init();
    app.decorate('sessions', service);
    app.decorateRequest('auth', null as unknown as AuthContext);
    app.decorate('authenticate', async (req: FastifyRequest) => {
      // A copy per request: simultaneous requests with one token share one lookup.
      req.auth = { ...(await service.authenticate(requestToken(req))) };
    });
    app.stompSignIn(service);

    await app.register(sysRoutes, { prefix: '/api/v1/sys', logonPerAddressPerMinute: opts.logonPerAddressPerMinute });
    await app.register(heartbeatRoutes, { prefix: '/api/v1/cctv' });
  },
  { name: 'sessions', dependencies: ['core-db', '@fastify/cookie', 'bus'] },
);
