import fp from 'fastify-plugin';
import type {} from '@fastify/websocket';
import { CODES, COOKIES, MESSAGES, PATHS, TOKEN_HEADER } from '@ship-cctv/protocol';
import { ApiError } from '../../core/http/envelope.ts';
import { loadOrgTree } from '../../core/orgs/repo.ts';
import { type EarlyMessage, MediaSocketExtensions } from './media-socket-extensions.ts';
import { PlayGate } from './play-gate.ts';
import { CLOSE_TOO_MANY_MESSAGES, MEDIA_SOCKET_LIMITS, ViewerSession, type WatchClock } from './viewer-session.ts';

export { type EarlyMessage, MediaSocketExtensions, type MediaSocketOwner } from './media-socket-extensions.ts';
export { CLOSE_TOO_MANY_MESSAGES, CLOSE_TOO_SLOW, MEDIA_SOCKET_LIMITS, type WatchClock } from './viewer-session.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Features that take a media socket of their own by its first command (talkback). */
    mediaSocket: MediaSocketExtensions;
  }
}

function asBuffer(data: unknown): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data as Buffer[]);
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  return Buffer.from(String(data));
}

/** Messages a media socket may send before its session is checked. */
const EARLY_MESSAGE_LIMIT = 10 * MEDIA_SOCKET_LIMITS.burst;

export type ViewerPluginOptions = Partial<WatchClock>;

/**
 * The viewer: the media socket (PATHS.media) a player opens, above live and ship-end playback. A
 * socket's session is checked once; its first command says whose it is — a feature's that claimed
 * the command (`app.mediaSocket`: talkback), else a player's, whose plays join live streams
 * (`app.live`) or start ship-end playback (`app.playback`), under the continuous-watching limit and
 * the socket limits. Needs sessions, live, playback, metrics and WebSockets.
 */
export default fp<ViewerPluginOptions>(
  async (app, opts) => {
    const extensions = new MediaSocketExtensions();
    app.decorate('mediaSocket', extensions);
    const sessions = new Set<ViewerSession>();
    const mediaErrors = app.metrics.product.mediaSocketErrors;
    const clock: WatchClock = { minuteMs: opts.minuteMs ?? 60_000 };
    const gate = new PlayGate(MEDIA_SOCKET_LIMITS.resolvingPerUser);
    const log = app.log.child({ module: 'media-socket' });

    // Logout and displacement end the session's players too.
    app.sessions.events.on('ended', ({ sessionId, reason }) => {
      for (const s of sessions) {
        if (s.auth.sessionId !== sessionId) continue;
        s.sendJson({ type: 'error', code: 'unauthorized', message: reason });
        mediaErrors.inc({ code: 'unauthorized' });
        s.close(reason === 'displaced' ? 4402 : 4401, reason);
      }
    });
    app.addHook('preClose', async () => {
      for (const s of sessions) s.close(1001, 'server shutting down');
    });

    app.get(PATHS.media, { websocket: true, schema: { hide: true } }, async (socket, req) => {
      // A player sends `play` as soon as the socket opens: keep what arrives while the token is checked.
      const early: EarlyMessage[] = [];
      const keep = (data: unknown, isBinary: boolean) => {
        early.push({ data: asBuffer(data), isBinary });
        // Held until the session is checked: a player sends a play or two, a talk its first second
        // of voice packets; far more is a flood, not a slow check.
        if (early.length > EARLY_MESSAGE_LIMIT) socket.close(CLOSE_TOO_MANY_MESSAGES, 'too many messages');
      };
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
          mediaErrors.inc({ code: 'internal' });
          socket.close(1011, 'internal error');
          return;
        }
        socket.send(JSON.stringify({ type: 'error', code: 'unauthorized', message: err.message }));
        mediaErrors.inc({ code: 'unauthorized' });
        socket.close(err.code === CODES.displaced ? 4402 : 4401, 'unauthorized');
        return;
      }
      socket.off('message', keep);
      // The first command says whose socket it is: a feature's (extensions) or a live player's.
      const begin = (messages: EarlyMessage[]) => {
        const [first, ...rest] = messages;
        const claimed = first && extensions.ownerOf(first);
        if (claimed) return claimed.owner(socket, auth, claimed.command, rest);
        const session = new ViewerSession(socket, auth, app.live, clock, {
          playback: app.playback,
          onError: (code) => mediaErrors.inc({ code }),
          log,
          gate,
          currentOrgs: () => loadOrgTree(app.database.db),
        });
        sessions.add(session);
        socket.on('close', () => sessions.delete(session));
        for (const m of messages) session.handleText(m.data.toString('utf8'));
      };
      if (early.length > 0) begin(early);
      else socket.once('message', (data, isBinary) => begin([{ data: asBuffer(data), isBinary }]));
    });
  },
  { name: 'viewer', dependencies: ['core-db', 'sessions', 'live', 'playback', 'core-metrics', 'app-websocket'] },
);
