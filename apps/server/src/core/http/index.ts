import fp from 'fastify-plugin';
import type { FastifySchema } from 'fastify';
import cookiePlugin from './cookie.ts';
import { answerErrorsInTheEnvelope } from './errors.ts';
import openApiPlugin from './openapi.ts';
import rateLimitPlugin from './rate-limit.ts';
import securityHeadersPlugin from './security-headers.ts';
import websocketPlugin from './websocket.ts';
import websocketOriginPlugin from './websocket-origin.ts';

export { ApiError, badRequest, forbidden, notFound, ok } from './envelope.ts';
export type { AuthContext, SessionEndReason, SessionEvents, SignIn } from './auth.ts';
export { default as healthPlugin } from './health.ts';
export { default as webAppPlugin, type WebAppOptions } from './web-app.ts';

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

export interface HttpOptions {
  /** Origins whose pages may open the STOMP and media sockets; unset: this server's own pages. */
  allowedOrigins?: readonly string[] | undefined;
}

/**
 * What every route and socket of the server shares, registered before any of them: the envelope
 * for errors, the input check, security headers, cookies, rate limits, the OpenAPI document at
 * /docs, WebSockets and their origin check.
 */
export default fp<HttpOptions>(
  async (app, opts) => {
    const registeredRoutes: RegisteredRoute[] = [];
    app.decorate('registeredRoutes', registeredRoutes);
    app.addHook('onRoute', (route) => {
      registeredRoutes.push({ method: route.method, url: route.url, schema: route.schema });
    });
    answerErrorsInTheEnvelope(app);
    await app.register(securityHeadersPlugin);
    await app.register(cookiePlugin);
    await app.register(rateLimitPlugin);
    await app.register(openApiPlugin);
    await app.register(websocketPlugin);
    // After the WebSocket plugin: its hooks end the socket of an upgrade this one refuses.
    await app.register(websocketOriginPlugin, { allowedOrigins: opts.allowedOrigins });
  },
  { name: 'core-http' },
);
