import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { COOKIES, TOKEN_HEADER } from '@ship-cctv/protocol';
import { type AuthContext, SessionService, type SessionOptions } from '../../services/sessions.ts';

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

export type SessionsPluginOptions = SessionOptions;

/** The session token of a request: the cas-jwt header, else the newOrgToken cookie. */
export function requestToken(req: FastifyRequest): string | undefined {
  const header = req.headers[TOKEN_HEADER];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  return fromHeader || req.cookies[COOKIES.token] || undefined;
}

export default fp<SessionsPluginOptions>(
  async (app, opts) => {
    const service = new SessionService(app.database.db, opts);
    await service.init();
    app.decorate('sessions', service);
    app.decorateRequest('auth', null as unknown as AuthContext);
    app.decorate('authenticate', async (req: FastifyRequest) => {
      req.auth = await service.authenticate(requestToken(req));
    });
  },
  { dependencies: ['@fastify/cookie'] },
);
