import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { type LinkKind, type ShoreMessageOf, isAgentMessageOf, isBinaryKind, routeOf, withStreamId } from '@ship-cctv/protocol';
import type { AgentGateway, LinkStream, OpenStreamResult, StreamHandler } from './gateway.ts';
import type { LinkStreams, LinkStreamsEvents } from './link-streams.ts';
import { type RelayHeader, type ShipNews, decodeRelay, encodeRelay } from './link-relay-codec.ts';
import type { ShipOwnership } from './ownership.ts';

export interface LinkRelayOptions {
  /**
   * How often a requester says which relayed streams it still holds (default 1 s). Either side gives
   * up on the other after three heartbeats of silence while Redis carries its own messages (a dead
   * instance); silence while Redis carries nothing (a stall) is waited out up to `leaseMs`.
   */
  heartbeatMs?: number | undefined;
  /**
   * The ship ownership lease (default 10 s): a Redis stall shorter than it plus five heartbeats
   * closes no relayed stream, as it drops no ship link; a longer one closes them.
   */
  leaseMs?: number | undefined;
  /** How long the owner has to open a relayed stream before the caller hears `offline` (default 3 s). */
  openTimeoutMs?: number | undefined;
}

/** The gateway as the relay uses it (the owner's real streams, and whether a ship's link is here). */
export type RelayGateway = Pick<AgentGateway, 'get' | 'openStream' | 'events'>;

/** A stream this instance asked another instance (the ship's owner) to open for it. */
interface Requested {
  shipId: string;
  kind: LinkKind;
  owner: string;
  /** The id the caller sees: local, not the id on the ship's link. */
  localId: number;
  handler: StreamHandler<LinkKind>;
  open: boolean;
  /** When the owner last said it still serves the stream. */
  acked: number;
  /** Set until the owner answered the open. */
  answer?: ((h: Extract<RelayHeader, { op: 'opened' | 'refused' }>) => void) | undefined;
}

/** A real stream on a ship's link here, opened for another instance. */
interface Served {
  from: string;
  stream: LinkStream<LinkKind>;
  seen: number;
}

/**
 * Streams on ships' links for every instance of a cluster, over Redis pub/sub. A ship's link here:
 * the gateway's own stream. Else the relay asks the ship's owner (`ShipOwnership.ownerOf`) to open
 * the stream on its link and carries JSON messages and binary frames both ways, in order (one
 * connection publishes, one channel per receiving instance). The caller sees a stream id of its
 * own; each side renames messages to the id it uses. The owner closes a relayed stream on `close`,
 * and when its requester stops saying it holds it (the requesting instance died); it tells the
 * requester when the ship's link goes (handler.closed). A ship no instance owns is `offline` at once.
 */
export class LinkRelay implements LinkStreams {
  readonly instanceId: string;
  readonly events = new EventEmitter<LinkStreamsEvents>();
  private readonly requested = new Map<string, Requested>();
  private readonly served = new Map<string, Served>();
  private readonly heartbeatMs: number;
  private readonly openTimeoutMs: number;
  /** The longest silence of the other side waited out while Redis carries nothing. */
  private readonly stallHoldMs: number;
  /** When this instance last heard its own tick back through Redis. */
  private tickHeardAt = Date.now();
  /** Since when Redis has carried this instance's ticks without a gap: the other side's silence counts from then at the earliest. */
  private carryingSince = Date.now();
  private readonly timer: NodeJS.Timeout;
  private nextLocalId = 1;
  /** Which instance last said it holds each ship's link (to tell a moved link from a lost one). */
  private readonly heldBy = new Map<string, string>();

  private constructor(
    private readonly cmd: Redis,
    private readonly sub: Redis,
    private readonly prefix: string,
    private readonly gateway: RelayGateway,
    private readonly ownership: ShipOwnership,
    private readonly log: FastifyBaseLogger,
    opts: LinkRelayOptions,
  ) {
    this.instanceId = ownership.instanceId;
    this.heartbeatMs = opts.heartbeatMs ?? 1_000;
    this.openTimeoutMs = opts.openTimeoutMs ?? 3_000;
    this.stallHoldMs = (opts.leaseMs ?? 10_000) + this.heartbeatMs * 5;
    this.timer = setInterval(() => this.beat(), this.heartbeatMs);
    this.timer.unref();
  }

  static async connect(url: string, prefix: string, gateway: RelayGateway, ownership: ShipOwnership, log: FastifyBaseLogger, opts: LinkRelayOptions = {}): Promise<LinkRelay> {
    const onError = (err: Error) => log.warn({ err: err.message }, 'link relay: redis error');
    const cmd = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    const sub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    cmd.on('error', onError);
    sub.on('error', onError);
    const relay = new LinkRelay(cmd, sub, prefix, gateway, ownership, log, opts);
    await cmd.connect();
    await sub.connect();
    sub.on('messageBuffer', (channel: Buffer, message: Buffer) => relay.heard(channel.toString(), message));
    await sub.subscribe(relay.channel(relay.instanceId), relay.newsChannel());
    gateway.events.on('online', (shipId) => relay.events.emit('online', shipId));
    gateway.events.on('offline', (shipId) => {
      relay.events.emit('offline', shipId);
      relay.tell({ op: 'offline', shipId, from: relay.instanceId });
      relay.movedAway(shipId);
    });
    // Said once the claim is in: a requester hearing it finds this instance as the ship's owner.
    ownership.events.on('claimed', (shipId) => relay.tell({ op: 'online', shipId, from: relay.instanceId }));
    return relay;
  }

  openStream<K extends LinkKind>(shipId: string, kind: K, handler: StreamHandler<K>): OpenStreamResult<K> | Promise<OpenStreamResult<K>> {
    // The ship's link here: the gateway's stream, at once (no Redis on the way).
    if (this.gateway.get(shipId)?.ready) return this.gateway.openStream(shipId, kind, handler);
    return this.openRemote(shipId, kind, handler);
  }

  private async openRemote<K extends LinkKind>(shipId: string, kind: K, handler: StreamHandler<K>): Promise<OpenStreamResult<K>> {
    let owner: Awaited<ReturnType<ShipOwnership['ownerOf']>>;
    try {
      owner = await this.ownership.ownerOf(shipId);
    } catch (err) {
      this.log.warn({ err, shipId }, 'link relay: reading who owns the ship failed');
      return { ok: false, reason: 'offline', message: `ship ${shipId} is not reachable: who holds its link could not be read` };
    }
    // The link may have come here while the owner was looked up.
    if (this.gateway.get(shipId)?.ready) return this.gateway.openStream(shipId, kind, handler);
    if (!owner || owner.instanceId === this.instanceId) return { ok: false, reason: 'offline', message: `ship ${shipId} is not connected` };
    return this.openAt(owner.instanceId, shipId, kind, handler);
  }

  linkUp(shipId: string): boolean | Promise<boolean> {
    if (this.gateway.get(shipId)?.ready) return true;
    return this.ownership.ownerOf(shipId).then(
      (owner) => owner !== undefined && owner.instanceId !== this.instanceId,
      () => false,
    );
  }

  nudge(shipId: string, topic: string): void {
    this.tell({ op: 'nudge', shipId, from: this.instanceId, topic });
  }

  /** Relayed streams this instance holds at owners, and streams it serves for other instances (tests, introspection). */
  get counts(): { requested: number; served: number } {
    return { requested: this.requested.size, served: this.served.size };
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    for (const [rid, s] of [...this.served]) {
      this.served.delete(rid);
      s.stream.close();
      this.publish(s.from, { op: 'closed', rid, reason: 'the instance holding the ship link is shutting down' });
    }
    for (const [rid, r] of [...this.requested]) {
      this.requested.delete(rid);
      this.publish(r.owner, { op: 'close', rid, from: this.instanceId });
    }
    await this.cmd.quit().catch(() => undefined);
    this.sub.disconnect();
  }

  private channel(instanceId: string): string {
    return `${this.prefix}link-relay:${instanceId}`;
  }
  private newsChannel(): string {
    return `${this.prefix}link-ships`;
  }

  private publish(instanceId: string, header: RelayHeader, payload?: Uint8Array): void {
    this.cmd.publish(this.channel(instanceId), encodeRelay(header, payload)).catch((err: unknown) => this.log.warn({ err, op: header.op }, 'link relay: publishing failed'));
  }

  private tell(news: ShipNews): void {
    this.cmd.publish(this.newsChannel(), JSON.stringify(news)).catch((err: unknown) => this.log.warn({ err, news }, 'link relay: publishing ship news failed'));
  }

  /** The requesting side: asks the owner to open the stream, and waits for its answer. */
  private openAt<K extends LinkKind>(owner: string, shipId: string, kind: K, handler: StreamHandler<K>): Promise<OpenStreamResult<K>> {
    const rid = randomUUID();
    const localId = this.nextLocalId;
    this.nextLocalId = localId >= 0xffff_ffff ? 1 : localId + 1;
    const r: Requested = { shipId, kind, owner, localId, handler: handler as StreamHandler<LinkKind>, open: false, acked: Date.now() };
    this.requested.set(rid, r);
    return new Promise<OpenStreamResult<K>>((resolve) => {
      const timer = setTimeout(() => {
        this.requested.delete(rid);
        this.publish(owner, { op: 'close', rid, from: this.instanceId });
        resolve({ ok: false, reason: 'offline', message: `ship ${shipId} is not reachable: the instance holding its link did not answer within ${this.openTimeoutMs / 1000} s` });
      }, this.openTimeoutMs);
      timer.unref();
      r.answer = (h) => {
        clearTimeout(timer);
        r.answer = undefined;
        if (h.op === 'refused') {
          this.requested.delete(rid);
          return resolve({ ok: false, reason: h.reason, message: h.message });
        }
        r.open = true;
        r.acked = Date.now();
        resolve({ ok: true, stream: this.relayedStream(rid, r, kind) });
      };
      this.publish(owner, { op: 'open', rid, from: this.instanceId, shipId, kind });
    });
  }

  private relayedStream<K extends LinkKind>(rid: string, r: Requested, kind: K): LinkStream<K> {
    const from = this.instanceId;
    return {
      shipId: r.shipId,
      kind,
      id: r.localId,
      get open() {
        return r.open;
      },
      send: (msg: ShoreMessageOf<K>) => {
        const route = routeOf(msg);
        if (route?.kind !== kind || route.id !== r.localId) {
          throw new Error(`${msg.type} names ${route?.kind ?? 'no'} stream ${route?.id ?? ''}, not ${kind} stream ${r.localId}`);
        }
        if (r.open) this.publish(r.owner, { op: 'send', rid, from, msg });
      },
      sendBinary: (payload: Uint8Array) => {
        const k: LinkKind = kind;
        if (!isBinaryKind(k)) throw new Error(`a ${k} stream carries no bytes`);
        if (r.open) this.publish(r.owner, { op: 'bin', rid, from }, payload);
      },
      close: () => {
        if (!r.open) return;
        r.open = false;
        this.requested.delete(rid);
        this.publish(r.owner, { op: 'close', rid, from });
      },
    };
  }

  /** The requesting side: a relayed stream is gone at its owner. */
  private lost(rid: string, reason: string): void {
    const r = this.requested.get(rid);
    if (!r) return;
    this.requested.delete(rid);
    if (r.answer) return r.answer({ op: 'refused', rid, reason: 'offline', message: reason });
    if (!r.open) return;
    r.open = false;
    r.handler.closed?.(reason);
  }

  private heard(channel: string, message: Buffer): void {
    if (channel === this.newsChannel()) return this.news(message);
    const decoded = decodeRelay(message);
    if (!decoded) return;
    const { header: h, payload } = decoded;
    try {
      this.handle(h, payload);
    } catch (err) {
      // One stream's handler failing must not take the relay (and every other stream) down.
      this.log.error({ err, op: h.op }, 'link relay: handling a message failed');
    }
  }

  private handle(h: RelayHeader, payload: Buffer): void {
    switch (h.op) {
      case 'open':
        return this.serve(h);
      case 'send': {
        const s = this.servedFor(h.rid, h.from);
        if (!s) return;
        s.seen = Date.now();
        s.stream.send(withStreamId(h.msg, s.stream.id) as ShoreMessageOf<LinkKind>);
        return;
      }
      case 'bin':
        this.servedFor(h.rid, h.from)?.stream.sendBinary(payload);
        return;
      case 'close': {
        const s = this.served.get(h.rid);
        if (s?.from !== h.from) return;
        this.served.delete(h.rid);
        s.stream.close();
        return;
      }
      case 'tick': {
        if (h.from !== this.instanceId) return;
        const now = Date.now();
        if (now - this.tickHeardAt > this.heartbeatMs * 2) this.carryingSince = now;
        this.tickHeardAt = now;
        return;
      }
      case 'beat': {
        const now = Date.now();
        const held: string[] = [];
        for (const rid of h.rids) {
          const s = this.servedFor(rid, h.from);
          if (!s) continue;
          s.seen = now;
          held.push(rid);
        }
        this.publish(h.from, { op: 'ack', from: this.instanceId, rids: held });
        return;
      }
      case 'opened':
      case 'refused':
        this.requested.get(h.rid)?.answer?.(h);
        return;
      case 'msg': {
        const r = this.requested.get(h.rid);
        if (!r?.open || !isAgentMessageOf(r.kind, h.msg)) return;
        r.handler.message(withStreamId(h.msg, r.localId));
        return;
      }
      case 'data': {
        const r = this.requested.get(h.rid);
        if (r?.open) r.handler.data?.(payload);
        return;
      }
      case 'closed':
        return this.lost(h.rid, h.reason);
      case 'ack': {
        const now = Date.now();
        for (const rid of h.rids) {
          const r = this.requested.get(rid);
          if (r?.owner === h.from) r.acked = now;
        }
        return;
      }
    }
  }

  /** The owner's side: opens the real stream on the ship's link for another instance. */
  private serve(h: Extract<RelayHeader, { op: 'open' }>): void {
    const { rid, from, shipId, kind } = h;
    if (this.served.has(rid)) return;
    const opened = this.gateway.openStream(shipId, kind, {
      message: (msg) => this.publish(from, { op: 'msg', rid, msg }),
      data: (payload) => this.publish(from, { op: 'data', rid }, payload),
      closed: (reason) => {
        this.served.delete(rid);
        this.publish(from, { op: 'closed', rid, reason });
      },
    });
    if (!opened.ok) return this.publish(from, { op: 'refused', rid, reason: opened.reason, message: opened.message });
    this.served.set(rid, { from, stream: opened.stream, seen: Date.now() });
    this.publish(from, { op: 'opened', rid });
    this.log.debug({ rid, from, shipId, kind, streamId: opened.stream.id }, 'link relay: serving a stream for another instance');
  }

  /** A served stream, if it is still open here for that requester; else the requester hears it is gone. */
  private servedFor(rid: string, from: string): Served | undefined {
    const s = this.served.get(rid);
    if (s?.from === from && s.stream.open) return s;
    if (s) this.served.delete(rid);
    this.publish(from, { op: 'closed', rid, reason: 'the stream is no longer open at the instance holding the ship link' });
    return undefined;
  }

  /**
   * Whether the other side, last heard at `heard`, fell silent. While Redis carries this
   * instance's own ticks: three heartbeats without a word, counted from when the ticks came back at
   * the earliest (it died, or forgot the stream). While Redis carries nothing (a stall silences
   * every instance alike): only once the silence outlasts the stall hold.
   */
  private silent(heard: number, now: number): boolean {
    const carrying = now - this.tickHeardAt <= this.heartbeatMs * 2;
    if (!carrying) return now - heard > this.stallHoldMs;
    return now - Math.max(heard, this.carryingSince) > this.heartbeatMs * 3;
  }

  /** Every heartbeat: tells each owner which streams this instance still holds there, and gives up on silent ones (both sides). */
  private beat(): void {
    const now = Date.now();
    this.publish(this.instanceId, { op: 'tick', from: this.instanceId });
    const byOwner = new Map<string, string[]>();
    for (const [rid, r] of [...this.requested]) {
      if (!r.open) continue;
      if (this.silent(r.acked, now)) {
        this.lost(rid, 'the instance holding the ship link stopped answering');
        continue;
      }
      const rids = byOwner.get(r.owner) ?? [];
      rids.push(rid);
      byOwner.set(r.owner, rids);
    }
    for (const [owner, rids] of byOwner) this.publish(owner, { op: 'beat', from: this.instanceId, rids });
    for (const [rid, s] of [...this.served]) {
      if (!this.silent(s.seen, now)) continue;
      // The requesting instance died (or forgot the stream): nobody reads what the ship sends.
      this.served.delete(rid);
      s.stream.close();
      this.log.info({ rid, from: s.from, shipId: s.stream.shipId, kind: s.stream.kind }, 'link relay: closed a stream its requester no longer holds');
    }
  }

  /**
   * The ship's link left this instance: if another instance took it meanwhile, its `online` was
   * ignored here (the link was still here then), so callers here hear it now.
   */
  private movedAway(shipId: string): void {
    this.ownership
      .ownerOf(shipId)
      .then((owner) => {
        if (!owner || owner.instanceId === this.instanceId || this.gateway.get(shipId)?.ready) return;
        this.heldBy.set(shipId, owner.instanceId);
        this.events.emit('online', shipId);
      })
      .catch((err: unknown) => this.log.warn({ err, shipId }, 'link relay: looking up a moved ship failed'));
  }

  /** Another instance's ship came or went: callers here (playback runs) resume or pause as for a link here. */
  private news(message: Buffer): void {
    let n: ShipNews;
    try {
      n = JSON.parse(message.toString('utf8')) as ShipNews;
    } catch {
      return;
    }
    if (n.from === this.instanceId) return;
    if (n.op === 'nudge') {
      if (this.gateway.get(n.shipId)?.ready) this.events.emit('nudged', n.shipId, n.topic);
      return;
    }
    // Our own news was told to our callers by the gateway already; and a ship whose link is here now is not gone.
    if (this.gateway.get(n.shipId)?.ready) return;
    if (n.op === 'online') {
      this.heldBy.set(n.shipId, n.from);
      this.events.emit('online', n.shipId);
    } else if (n.op === 'offline') {
      // A link that moved: the old holder's offline may come after the new one's online.
      const holder = this.heldBy.get(n.shipId);
      if (holder !== undefined && holder !== n.from) return;
      this.heldBy.delete(n.shipId);
      this.events.emit('offline', n.shipId);
    }
  }
}
