import type { FastifyBaseLogger } from 'fastify';
import type { AgentGateway } from './gateway.ts';
import type { ShipOwnership } from './ownership.ts';

/** Close code sent to a ship's agent link when another instance took the ship (the agent reconnects). */
export const CLOSE_OWNED_ELSEWHERE = 4001;

/**
 * Ties the gateway's links to the ownership registry: a ship whose agent says hello here is claimed,
 * a ship whose link goes is released, and a ship claimed by another instance loses its link here —
 * closing it ends every stream opened on it (live uplinks, playback, talkback), as a lost link does.
 * Claims and releases of one ship run one after another, in the order the link events came.
 */
export function tieClaimsToLinks(gateway: AgentGateway, ownership: ShipOwnership, log: FastifyBaseLogger): void {
  const queues = new Map<string, Promise<void>>();
  const inTurn = (shipId: string, work: () => Promise<void>) => {
    const next = (queues.get(shipId) ?? Promise.resolve())
      .then(work)
      .catch((err: unknown) => log.error({ err, shipId }, 'ship ownership: claim or release failed'));
    queues.set(shipId, next);
    void next.then(() => {
      if (queues.get(shipId) === next) queues.delete(shipId);
    });
  };

  gateway.events.on('online', (shipId, conn) =>
    inTurn(shipId, async () => {
      const owner = await ownership.claim(shipId);
      log.info({ shipId, epoch: owner.epoch }, 'ship owned by this instance');
      // The link may have gone while the claim was on its way: then its release has run already.
      if (gateway.get(shipId) !== conn || !conn.isOpen) await ownership.release(shipId);
      else ownership.events.emit('claimed', shipId, owner.epoch);
    }),
  );
  gateway.events.on('offline', (shipId) => inTurn(shipId, () => ownership.release(shipId)));
  ownership.events.on('reasserted', (shipId, epoch) => log.info({ shipId, epoch }, 'ship claim set again after a Redis stall (no other claim came meanwhile)'));
  ownership.events.on('lost', (shipId, epoch, why) => {
    log.warn({ shipId, epoch, why }, 'ship owned elsewhere now: closing its link here');
    gateway.closeMoved(shipId, CLOSE_OWNED_ELSEWHERE, 'the ship is owned by another instance');
  });
}
