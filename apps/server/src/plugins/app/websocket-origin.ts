import fp from 'fastify-plugin';
import { CODES, PATHS } from '@ship-cctv/protocol';

export interface WebSocketOriginOptions {
  /**
   * Origins (scheme://host[:port]) whose pages may open the STOMP and media sockets. Empty: only
   * pages served by this server itself (the Origin's host equals the request's Host).
   */
  allowedOrigins?: readonly string[] | undefined;
}

/** Sockets a browser page opens with the user's cookie; the agent link authenticates by ship key. */
const BROWSER_SOCKETS = new Set<string>([PATHS.stomp, PATHS.media]);

/**
 * Whether a WebSocket upgrade's Origin may connect. No Origin means no browser (a browser always
 * sends one on a WebSocket): such a client must bring its own token, so a page of another site
 * cannot borrow the user's cookie (cross-site WebSocket hijacking) either way.
 */
export function originAllowed(origin: string | undefined, host: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined) return true;
  if (allowed.length > 0) return allowed.includes(origin);
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false;
  }
}

export default fp<WebSocketOriginOptions>(
  async (app, opts) => {
    const allowed = opts.allowedOrigins ?? [];
    app.addHook('onRequest', async (req, reply) => {
      if (req.headers.upgrade?.toLowerCase() !== 'websocket') return;
      const path = req.url.split('?')[0] ?? '';
      if (!BROWSER_SOCKETS.has(path)) return;
      if (originAllowed(req.headers.origin, req.headers.host, allowed)) return;
      req.log.warn({ origin: req.headers.origin }, 'websocket from a foreign origin refused');
      // No upgrade follows: the connection ends with the answer instead of lingering half-open.
      reply.header('connection', 'close');
      return reply.code(CODES.forbidden).send({ code: CODES.forbidden, message: 'This page may not open the socket: its origin is not allowed (ALLOWED_ORIGINS)', data: null });
    });
  },
  { name: 'websocket-origin' },
);
