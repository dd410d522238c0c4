import fp from 'fastify-plugin';
import type {} from '@fastify/websocket';
import { CODES, COOKIES, MESSAGES, PATHS, TOKEN_HEADER } from '@ship-cctv/protocol';
import { ApiError } from '../../lib/envelope.ts';
import { LiveService, type LiveServiceOptions } from '../../live/live-service.ts';
import { ViewerSession, type WatchClock } from '../../live/viewer-session.ts';

declare module 'fastify' {
  interface FastifyInstance {
    live: LiveService;
  }
}

export interface LivePluginOptions extends Partial<LiveServiceOptions>, Partial<WatchClock> {}

/** The media socket (PATHS.media) and the live-stream service behind it. */
export default fp<LivePluginOptions>(
  async (app, opts) => {
    const live = new LiveService(app.fleet, app.agents, app.log.child({ module: 'live' }), {
      lingerMs: Math.min(opts.lingerMs ?? 10_000, 10_000),
      ...(opts.definitionControl ? { definitionControl: opts.definitionControl } : {}),
      ...(opts.retryMs !== undefined ? { retryMs: opts.retryMs } : {}),
    });
    app.decorate('live', live);
    const sessions = new Set<ViewerSession>();
    const clock: WatchClock = { minuteMs: opts.minuteMs ?? 60_000 };

    // Logout and displacement end the session's players too.
    app.sessions.events.on('ended', ({ sessionId, reason }) => {
      for (const s of sessions) {
        if (s.auth.sessionId !== sessionId) continue;
        s.sendJson({ type: 'error', code: 'unauthorized', message: reason });
        s.close(reason === 'displaced' ? 4402 : 4401, reason);
      }
    });
    app.addHook('preClose', async () => {
      for (const s of sessions) s.close(1001, 'server shutting down');
      live.stopAll();
    });

    app.get(PATHS.media, { websocket: true, schema: { hide: true } }, async (socket, req) => {
      // A player sends `play` as soon as the socket opens: keep what arrives while the token is checked.
      const early: string[] = [];
      const keep = (data: unknown) => early.push(String(data));
      socket.on('message', keep);
      const query = req.query as { token?: unknown };
      const header = req.headers[TOKEN_HEADER];
      const token =
        (typeof query.token === 'string' && query.token) || (typeof header === 'string' && header) || req.cookies[COOKIES.token] || undefined;
      let auth;
      try {
        auth = await app.sessions.authenticate(token);
      } catch (err) {
        if (!(err instanceof ApiError)) {
          // A database or other internal fault: the viewer gets a code and a generic text; its
          // details (SQL, session ids) go to the log only.
          req.log.error({ err }, 'media socket: checking the session failed');
          socket.send(JSON.stringify({ type: 'error', code: 'internal', message: MESSAGES.internal }));
          socket.close(1011, 'internal error');
          return;
        }
        socket.send(JSON.stringify({ type: 'error', code: 'unauthorized', message: err.message }));
        socket.close(err.code === CODES.displaced ? 4402 : 4401, 'unauthorized');
        return;
      }
      socket.off('message', keep);
      const session = new ViewerSession(socket, auth, live, clock, app.playback);
      sessions.add(session);
      socket.on('close', () => sessions.delete(session));
      for (const text of early) session.handleText(text);
    });
  },
  { name: 'live', dependencies: ['agent-link', 'app-websocket', 'playback'] },
);
