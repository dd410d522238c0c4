import { EventEmitter } from 'node:events';
import type { LinkKind } from '@ship-cctv/protocol';
import type { AgentGateway, OpenStreamResult, StreamHandler } from './gateway.ts';

export interface LinkStreamsEvents {
  /** The ship's agent said hello on some instance (here, or the ship's owner elsewhere). */
  online: [shipId: string];
  /** The ship's link went away on the instance that held it. */
  offline: [shipId: string];
  /** Another instance asks whoever holds the ship's link to act on `topic` (see LinkStreams.nudge). */
  nudged: [shipId: string, topic: string];
}

/**
 * Streams on ships' links wherever the link is held: what commands, ship-end playback, vod
 * queries, talkback and picture requests open. The same contract as `AgentGateway.openStream`:
 * answered at once when the ship's link is here (so one instance alone behaves as before), later
 * when an instance without the ship's link has to ask the ship's owner.
 */
export interface LinkStreams {
  openStream<K extends LinkKind>(shipId: string, kind: K, handler: StreamHandler<K>): OpenStreamResult<K> | Promise<OpenStreamResult<K>>;
  readonly events: EventEmitter<LinkStreamsEvents>;
  /**
   * Asks the instance holding the ship's link to act on `topic` (it hears `nudged`): for what that
   * instance does on a long-lived stream of its own, such as handing a ship its snapshot tasks.
   * One instance alone: nobody else to ask.
   */
  nudge(shipId: string, topic: string): void;
  /** Whether some instance (this one, or the ship's owner elsewhere) holds the ship's link now. */
  linkUp(shipId: string): boolean | Promise<boolean>;
}

/** Opens a stream of one kind on one ship's link, here or through its owner (what a stream owner is given). */
export type LinkStreamOpener<K extends LinkKind> = (handler: StreamHandler<K>) => OpenStreamResult<K> | Promise<OpenStreamResult<K>>;

/** One instance alone: the streams are this gateway's, and so are the ships' comings and goings. */
export function localStreams(gateway: AgentGateway): LinkStreams {
  const events = new EventEmitter<LinkStreamsEvents>();
  gateway.events.on('online', (shipId) => events.emit('online', shipId));
  gateway.events.on('offline', (shipId) => events.emit('offline', shipId));
  return {
    openStream: (shipId, kind, handler) => gateway.openStream(shipId, kind, handler),
    events,
    nudge: () => undefined,
    linkUp: (shipId) => gateway.get(shipId)?.ready ?? false,
  };
}
