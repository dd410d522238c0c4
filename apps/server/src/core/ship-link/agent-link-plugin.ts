import type { Socket } from 'node:net';
import fp from 'fastify-plugin';
import type { WebSocket } from 'ws';
import type {} from '@fastify/websocket';
import { AGENT_HEADERS, CODES, PATHS } from '@ship-cctv/protocol';
import { upgradeResponse } from '../http/websocket.ts';
import { type AdmissionOptions, AdmissionGate } from './admission.ts';
import { AgentGateway } from './gateway.ts';
import type { LinkCounter, LivenessOptions } from './connection.ts';
import { AgentKeyService } from './repo.ts';

declare module 'fastify' {
  interface FastifyInstance {
    agents: AgentGateway;
    agentKeys: AgentKeyService;
  }
}

export interface AgentLinkOptions {
  liveness?: LivenessOptions | undefined;
  /** How fast this instance takes ships' new links (defaults in admission.ts). */
  admission?: AdmissionOptions | undefined;
}

/**
 * Lets go of the upgrade's HTTP request once the link is handed over. @fastify/websocket keeps the
 * request, its reply, its logger and the placeholder response it routed the upgrade with for as
 * long as the socket lives (its error listener holds the first three, the TCP socket the response,
 * whose listeners hold them again): a few kB a ship, for thousands of ships that are connected for
 * days and never look at their upgrade request again. The error listener is replaced by one that
 * does what the app's WebSocket error handler did (log, terminate) without holding the request.
 */
function releaseUpgrade(socket: WebSocket, raw: Socket, onError: (err: Error) => void): void {
  socket.removeAllListeners('error');
  socket.on('error', (err) => {
    onError(err);
    socket.terminate();
  });
  const response = upgradeResponse(raw);
  if (response && response.socket === raw) response.detachSocket(raw);
}

/**
 * Where ship agents dial in: a WebSocket at PATHS.agentLink, authenticated on the upgrade by the
 * ship id and its key, so an unauthenticated socket never opens.
 */
export default fp<AgentLinkOptions>(
  async (app, opts) => {
    const keys = new AgentKeyService(app.database.db);
    const gateway = new AgentGateway(
      (shipId) => {
        app.metrics.initShip(shipId, 'control');
        const count: LinkCounter = (direction, purpose, bytes) => app.metrics.countLink(shipId, direction, purpose, bytes);
        // A stream's purpose gets its series when the first stream of it opens (before its bytes flow).
        count.opened = (purpose) => app.metrics.initShip(shipId, purpose);
        return count;
      },
      opts.liveness ?? { pingMs: 5_000, timeoutMs: 12_000 },
      app.log,
      {},
      new AdmissionGate(opts.admission),
    );
    app.decorate('agentKeys', keys);
    app.decorate('agents', gateway);
    app.addHook('preClose', () => gateway.closeAll());
    // Each connected ship's last uplink-queue report in /metrics; a ship that left this instance
    // has no queue here: its series goes rather than freezing.
    const queue = app.metrics.product.uplinkQueueMs;
    gateway.events.on('queue', (shipId, report) => queue.set({ ship: shipId }, report.queuedMs));
    gateway.events.on('offline', (shipId) => queue.remove({ ship: shipId }));

    app.get(
      PATHS.agentLink,
      {
        websocket: true,
        schema: { hide: true },
        preValidation: async (req, reply) => {
          const shipId = req.headers[AGENT_HEADERS.shipId];
          const auth = req.headers[AGENT_HEADERS.authorization];
          const key = typeof auth === 'string' && auth.startsWith('Ship ') ? auth.slice(5) : '';
          if (typeof shipId !== 'string' || !shipId || !key || !(await keys.verify(shipId, key))) {
            return reply.code(CODES.unauthorized).send({ code: CODES.unauthorized, message: 'Unknown ship or wrong agent key', data: null });
          }
        },
      },
      (socket, req) => {
        const shipId = String(req.headers[AGENT_HEADERS.shipId]);
        const raw = req.raw.socket;
        releaseUpgrade(socket, raw, (err) => app.log.warn({ err, shipId }, 'agent link: websocket error'));
        gateway.attach(shipId, socket, raw);
      },
    );
  },
  { name: 'agent-link', dependencies: ['core-metrics', 'core-db'] },
);
