import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  COOKIES,
  Envelope,
  ErrorEnvelope,
  HeartbeatData,
  LogonBody,
  LogonData,
  TOKEN_HEADER,
  UserInfo,
  ValidTokenQuery,
  ValidUserQuery,
} from '@ship-cctv/protocol';
import { forbidden, notFound, ok } from '../../core/http/envelope.ts';
import { requestToken } from '../../core/http/request-token.ts';

const errors = { 400: ErrorEnvelope, 401: ErrorEnvelope, 402: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope, 429: ErrorEnvelope };
const security = [{ casJwt: [] }];

export interface SysRoutesOptions {
  logonPerAddressPerMinute: number;
}

/** Session and user calls (spec §7): /api/v1/sys/... */
const routes: FastifyPluginAsyncTypebox<SysRoutesOptions> = async (app, opts) => {
  app.post(
    '/logon',
    {
      config: { rateLimit: { max: opts.logonPerAddressPerMinute, timeWindow: 60_000 } },
      schema: {
        tags: ['session'],
        summary: 'Sign in; answers the token and the user, and sets the newOrgToken cookie',
        body: LogonBody,
        response: { 200: Envelope(LogonData), ...errors },
      },
    },
    async (req, reply) => {
      const data = await app.sessions.logon(req.body.username, req.body.password, {
        address: req.ip,
        userAgent: req.headers['user-agent'],
      });
      // Readable by the web app (it tracks sign-in by this cookie, spec §4), so not httpOnly.
      reply.setCookie(COOKIES.token, data.token, {
        path: '/',
        sameSite: 'lax',
        secure: req.protocol === 'https',
        expires: new Date(data.expiresAt),
      });
      return ok(data);
    },
  );

  app.get(
    '/logout',
    {
      onRequest: app.authenticate,
      schema: { tags: ['session'], summary: 'End this session', security, response: { 200: Envelope(Type.Null()), ...errors } },
    },
    async (req, reply) => {
      await app.sessions.logout(req.auth);
      reply.clearCookie(COOKIES.token, { path: '/' });
      return ok(null);
    },
  );

  app.get(
    '/valid/user',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['session'],
        summary: 'Check that a user id is the signed-in user and answer who they are; any other id is refused (403)',
        security,
        querystring: ValidUserQuery,
        response: { 200: Envelope(UserInfo), ...errors },
      },
    },
    async (req) => {
      // Only about the caller: answering for others would let anyone list who else exists and
      // which organisations they belong to. Another id is refused the same way whether it exists.
      if (req.query.userid !== req.auth.userId) throw forbidden();
      const user = await app.sessions.userInfo(req.auth);
      if (!user) throw notFound('User');
      return ok(user);
    },
  );

  app.get(
    '/valid/token',
    {
      schema: {
        tags: ['session'],
        summary: 'Validate a token: the query token (handed over by another portal) or else the cas-jwt header',
        querystring: ValidTokenQuery,
        headers: Type.Object({ [TOKEN_HEADER]: Type.Optional(Type.String()) }),
        response: { 200: Envelope(UserInfo), ...errors },
      },
    },
    async (req) => {
      const ctx = await app.sessions.authenticate(req.query.token ?? requestToken(req));
      return ok(ctx.user);
    },
  );
};

/** /api/v1/cctv/heartbeat: a signed-in page's heartbeat (every 60 s). */
const heartbeatErrors = { 400: ErrorEnvelope, 401: ErrorEnvelope, 402: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope };

export const heartbeatRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);
  app.get(
    '/heartbeat',
    { schema: { tags: ['session'], summary: 'Session heartbeat (every 60 s)', security, response: { 200: Envelope(HeartbeatData), ...heartbeatErrors } } },
    async (req) => {
      await app.sessions.heartbeat(req.auth);
      return ok({ serverTime: Date.now(), expiresAt: req.auth.expiresAt });
    },
  );
};

export default routes;

