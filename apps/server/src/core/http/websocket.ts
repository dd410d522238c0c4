import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import fp from 'fastify-plugin';
import websocket from '@fastify/websocket';
import { CLOSE_SHORE_RESTART } from '@ship-cctv/protocol';

/** STOMP over WebSocket subprotocol names; this server speaks STOMP 1.2 only. */
export const STOMP_SUBPROTOCOL = 'v12.stomp';

/**
 * Largest WebSocket message accepted from a client. Clients here only send small control frames
 * (STOMP frames are limited to 64 KiB by the STOMP server, and a message may carry a few of them).
 */
export const WS_MAX_PAYLOAD = 256 * 1024;

/**
 * Picks the subprotocol of an upgrade. Clients such as stompjs offer v10.stomp, v11.stomp and
 * v12.stomp together: v12.stomp is chosen when offered. An offer without it gets no subprotocol
 * (a browser then carries on and the CONNECT frame's version negotiation refuses a pre-1.2 client;
 * a client that insists on a subprotocol fails the handshake), and non-STOMP sockets are unaffected.
 */
export function chooseSubprotocol(offered: ReadonlySet<string>): string | false {
  return offered.has(STOMP_SUBPROTOCOL) ? STOMP_SUBPROTOCOL : false;
}

/**
 * The placeholder response @fastify/websocket routes an upgrade with, bound to the upgrade's socket
 * (Node keeps it in the socket's private `_httpMessage`); null or undefined once let go.
 */
export function upgradeResponse(socket: Duplex): ServerResponse | null | undefined {
  return (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
}

/** @fastify/websocket, once for the whole app; routes opt in with `{ websocket: true }`. */
export default fp(
  async (app) => {
    await app.register(websocket, {
      options: {
        maxPayload: WS_MAX_PAYLOAD,
        handleProtocols: (protocols) => chooseSubprotocol(protocols),
      },
      // The server stopping closes every socket saying it restarts (1012, not the library's code-less
      // close): ships' agents then redial within seconds instead of on their backoff of up to 30 s,
      // and browsers reconnect as after any close. Parts that close their own sockets earlier (with
      // their own code) are not overruled: a socket already closing keeps its code.
      // Like the library's own, it does not wait for the sockets' closing handshakes.
      preClose(done) {
        for (const client of app.websocketServer.clients) client.close(CLOSE_SHORE_RESTART, 'server restarting');
        app.websocketServer.close();
        done();
      },
      // A broken socket is the client's doing (reset, bad frame), not a server error.
      errorHandler(error, socket, request) {
        request.log.warn({ err: error }, 'websocket error');
        socket.terminate();
      },
    });
    // An upgrade that a stopping server answers 503 at once (a ship redialling while the shore
    // shuts down) passes none of the hooks that end a refused upgrade's socket, and the server's
    // close would wait for that socket for ever: once its answer is written, the socket is ended.
    // Upgrades on their way to a route are answered later and left alone. Runs after the plugin's
    // own listener, which routes the upgrade.
    app.server.on('upgrade', (_req, socket: Duplex) => {
      if (upgradeResponse(socket)?.writableEnded) socket.end(() => socket.destroy());
    });
  },
  { name: 'app-websocket' },
);
