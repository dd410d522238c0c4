import fp from 'fastify-plugin';
import type {} from '@fastify/websocket';
import { AGENT_HEADERS, CODES, PATHS } from '@ship-cctv/protocol';
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
        gateway.attach(String(req.headers[AGENT_HEADERS.shipId]), socket, req.raw.socket);
      },
    );
  },
  { name: 'agent-link', dependencies: ['core-metrics', 'core-db'] },
);
