import fp from 'fastify-plugin';
import agentLinkPlugin, { type AgentLinkOptions } from './agent-link-plugin.ts';
import linkStreamsPlugin from './link-streams-plugin.ts';
import ownershipPlugin from './ownership-plugin.ts';

export type { AgentGateway, Dropped, GatewayEvents, LinkStream, OpenStreamResult, ShipReports, StreamHandler, StreamOpener } from './gateway.ts';
export type { LinkStreamOpener, LinkStreams, LinkStreamsEvents } from './link-streams.ts';
export type { OwnershipEvents, ShipOwner, ShipOwnership } from './ownership.ts';
export type { AgentConnection, LivenessOptions } from './connection.ts';
export type { AgentLinkOptions } from './agent-link-plugin.ts';
export { ADMISSION_DEFAULTS, type AdmissionOptions } from './admission.ts';
export { AgentKeyService } from './repo.ts';
export { type Asked, type Question, type Reply, SHIP_FAILURE_STATUS, ShipAskError, ask, shipFailureMessage, startAsk } from './ask.ts';
export { CLOSE_OWNED_ELSEWHERE } from './ship-claims.ts';
export { type InboxState, ShipInboxes, type ShipInboxesOptions } from './ship-inboxes.ts';

export interface ShipLinkOptions extends AgentLinkOptions {
  /** With a Redis URL, ships are owned cluster-wide and streams to a ship held elsewhere go through its owner. */
  redisUrl?: string | undefined;
  redisPrefix?: string | undefined;
  /** How long a ship's ownership claim lives without renewal (default 10 s). */
  ownershipLeaseMs?: number | undefined;
  /** This instance in ownership claims. */
  instanceId?: string | undefined;
}

/**
 * The only part of the server that speaks to ship agents: their WebSocket link (`app.agents`, the
 * router of what each ship sends), the agents' keys (`app.agentKeys`), which instance owns each ship
 * (`app.ownership`), and streams of a kind on a ship's link wherever the link is held
 * (`app.linkStreams`, relayed through the owner in a cluster). Modules open streams of their kind
 * through these; they never hold a socket or a frame of the link.
 */
export default fp<ShipLinkOptions>(
  async (app, opts) => {
    await app.register(agentLinkPlugin, { liveness: opts.liveness, admission: opts.admission });
    await app.register(ownershipPlugin, { redisUrl: opts.redisUrl, redisPrefix: opts.redisPrefix, leaseMs: opts.ownershipLeaseMs, instanceId: opts.instanceId });
    await app.register(linkStreamsPlugin, { redisUrl: opts.redisUrl, redisPrefix: opts.redisPrefix, leaseMs: opts.ownershipLeaseMs });
  },
  { name: 'ship-link', dependencies: ['core-db', 'core-metrics'] },
);
