import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { COOKIES, TOKEN_HEADER } from '@ship-cctv/protocol';
import { type AuthContext, SessionService, type SessionOptions } from './session-service.ts';
import { RedisThrottleStore } from './sign-in-throttle.ts';

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
}

/** The session token of a request: the cas-jwt header, else the newOrgToken cookie. */
export function requestToken(req: FastifyRequest): string | undefined {
  const header = req.headers[TOKEN_HEADER];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  return fromHeader || req.cookies[COOKIES.token] || undefined;
}

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
  },
  { dependencies: ['@fastify/cookie'] },
);
