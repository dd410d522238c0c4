import type { FastifyBaseLogger } from 'fastify';
import { type AgentMessageOf, INBOX_ON_DEMAND_VERSION, type InboxKind, type ShoreMessageOf } from '@ship-cctv/protocol';
import type { AgentConnection } from './connection.ts';
import type { AgentGateway, LinkStream } from './gateway.ts';

/** A ship's inbox while it is open: its stream, the hand-overs under way on it, and whether the ship said idle. */
export interface InboxState<K extends InboxKind> {
  readonly stream: LinkStream<K>;
  /** Hand-overs (snapshot tasks, analysis settings) being read or sent and not yet done: it closes only once none is. */
  pending: number;
  /** The ship said `<kind>.idle` (it sends nothing new on it since, only answers): closed once nothing is pending. */
  idle: boolean;
}

export interface ShipInboxesOptions<K extends InboxKind, I extends InboxState<K>, H> {
  gateway: AgentGateway;
  kind: K;
  log: FastifyBaseLogger;
  /**
   * What shore holds for the ship to take (read at the hello of an agent whose inboxes open on
   * demand): the inbox opens at once for it. Undefined: nothing, the inbox waits for the ship to ask.
   */
  heldFor(shipId: string): Promise<H | undefined>;
  /** The state of an inbox just opened on `stream`. */
  create(stream: LinkStream<K>): I;
  /** It opened and the ship was told (`<kind>.inbox`): what goes down on it first, with what `heldFor` read when it did. */
  opened(shipId: string, inbox: I, held: H | undefined): void;
  /** A message of the ship on it, other than `<kind>.idle`. */
  message(shipId: string, inbox: I, msg: AgentMessageOf<K>): Promise<void>;
  /** Bytes the ship sent on it. */
  data(shipId: string, inbox: I, payload: Uint8Array): void;
  /** It is no longer open (closed here, replaced by a new one, or its link went): its timers stop. */
  ended?(inbox: I): void;
  /** Its link went while it was open (not called when shore closed or replaced it). */
  lost?(shipId: string, inbox: I): void;
}

/**
 * The store-and-forward inboxes of one kind (pictures, events), one per connected ship while it
 * has something to carry. An agent of link version 3 or older gets its inbox at hello, open while
 * the link lasts. From version 4 an inbox opens on demand — when the ship asks (`outbox`: it has
 * something to send, or holds something shore may have changed), or at hello when shore holds
 * something for it (`heldFor`) — and closes (`<kind>.inboxClosed`) once the ship has said
 * `<kind>.idle` and no hand-over is under way, so an idle ship costs shore no inbox. What crosses
 * on an inbox is its module's (the `message` and `data` it is given).
 */
export class ShipInboxes<K extends InboxKind, I extends InboxState<K>, H> {
  private readonly inboxes = new Map<string, I>();
  private readonly onOnline = (shipId: string, conn: AgentConnection | undefined) => {
    if ((conn?.protocol ?? 0) < INBOX_ON_DEMAND_VERSION) return this.open(shipId);
    this.opts
      .heldFor(shipId)
      .then((held) => {
        if (held !== undefined && !this.inboxes.has(shipId)) this.open(shipId, held);
      })
      .catch((err: unknown) => this.opts.log.error({ err, shipId }, `${this.opts.kind} inbox: reading what shore holds for the ship failed`));
  };
  private readonly onOutbox = (shipId: string, kind: InboxKind) => {
    if (kind === this.opts.kind && !this.inboxes.has(shipId)) this.open(shipId);
  };

  constructor(private readonly opts: ShipInboxesOptions<K, I, H>) {
    opts.gateway.events.on('online', this.onOnline);
    opts.gateway.events.on('outbox', this.onOutbox);
    for (const shipId of opts.gateway.connectedShips()) this.onOnline(shipId, opts.gateway.get(shipId));
  }

  /** The ship's inbox, while it is open. */
  get(shipId: string): I | undefined {
    return this.inboxes.get(shipId);
  }

  /** Whether the ship's inbox is open now. */
  isOpen(shipId: string): boolean {
    return this.inboxes.has(shipId);
  }

  /** Whether the ship's link is on this instance (its inbox is open here, or opens here on demand). */
  holds(shipId: string): boolean {
    return this.inboxes.has(shipId) || this.opts.gateway.get(shipId)?.ready === true;
  }

  /** Opens the ship's inbox (a new one replaces what is open); `held` goes to `opened`. Nothing when its agent has no such outbox. */
  open(shipId: string, held?: H): void {
    const before = this.inboxes.get(shipId);
    if (before) {
      before.stream.close();
      this.forget(shipId, before);
    }
    const opened = this.opts.gateway.openStream(shipId, this.opts.kind, {
      message: (msg) => {
        const inbox = this.inboxes.get(shipId);
        if (!inbox) return;
        if (msg.type === `${this.opts.kind}.idle`) {
          inbox.idle = true;
          return this.closeIfIdle(shipId, inbox);
        }
        this.opts.message(shipId, inbox, msg).catch((err: unknown) => this.opts.log.error({ err, shipId }, `${this.opts.kind} inbox: message failed`));
      },
      data: (payload) => {
        const inbox = this.inboxes.get(shipId);
        if (inbox) this.opts.data(shipId, inbox, payload);
      },
      closed: () => {
        const inbox = this.inboxes.get(shipId);
        if (inbox?.stream !== stream) return;
        this.forget(shipId, inbox);
        this.opts.lost?.(shipId, inbox);
      },
    });
    if (!opened.ok) return;
    const stream = opened.stream;
    const inbox = this.opts.create(stream);
    this.inboxes.set(shipId, inbox);
    // Both kinds name their inbox messages `<kind>.inbox` and `<kind>.inboxClosed`.
    stream.send({ type: `${this.opts.kind}.inbox`, streamId: stream.id } as ShoreMessageOf<K>);
    this.opts.opened(shipId, inbox, held);
  }

  /** A hand-over on the inbox is done (answered, or never sent): it closes if the ship said idle and nothing else is under way. */
  release(shipId: string, inbox: I): void {
    inbox.pending = Math.max(0, inbox.pending - 1);
    this.closeIfIdle(shipId, inbox);
  }

  /** Stops listening and closes every inbox (the ships ask again on their next link). */
  close(): void {
    this.opts.gateway.events.off('online', this.onOnline);
    this.opts.gateway.events.off('outbox', this.onOutbox);
    for (const [shipId, inbox] of [...this.inboxes]) {
      inbox.stream.close();
      this.forget(shipId, inbox);
    }
  }

  /** Closes the inbox and tells the ship, which asks for a new one when it has something, once it is idle with nothing under way. */
  private closeIfIdle(shipId: string, inbox: I): void {
    if (!inbox.idle || inbox.pending > 0 || this.inboxes.get(shipId) !== inbox) return;
    inbox.stream.send({ type: `${this.opts.kind}.inboxClosed`, streamId: inbox.stream.id } as ShoreMessageOf<K>);
    inbox.stream.close();
    this.forget(shipId, inbox);
  }

  private forget(shipId: string, inbox: I): void {
    if (this.inboxes.get(shipId) === inbox) this.inboxes.delete(shipId);
    this.opts.ended?.(inbox);
  }
}
