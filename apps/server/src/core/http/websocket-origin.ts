import fp from 'fastify-plugin';
import { CODES } from '@ship-cctv/protocol';

export interface WebSocketOriginOptions {
  /**
   * Origins (scheme://host[:port]) whose pages may open this server's WebSockets. Empty: only
   * pages served by this server itself (the Origin's host equals the request's Host).
   */
  allowedOrigins?: readonly string[] | undefined;
}

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
    // Every upgrade, whatever its path: the router decodes a path (`%63ctv` is `cctv`), so a check
    // that picked sockets by the raw path could be walked around. Ship agents send no Origin.
    app.addHook('onRequest', async (req, reply) => {
      if (req.headers.upgrade?.toLowerCase() !== 'websocket') return;
      if (originAllowed(req.headers.origin, req.headers.host, allowed)) return;
      req.log.warn({ origin: req.headers.origin, url: req.url }, 'websocket from a foreign origin refused');
      // No upgrade follows: the connection ends with the answer instead of lingering half-open.
      reply.header('connection', 'close');
      return reply.code(CODES.forbidden).send({ code: CODES.forbidden, message: '此页面的来源不被允许，不能打开该连接 (This page may not open the socket: its origin is not allowed, ALLOWED_ORIGINS)', data: null });
    });
  },
  { name: 'websocket-origin' },
);
