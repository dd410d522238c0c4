import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import {
  type AgentMessage,
  type AgentMessageOf,
  type HelloMessage,
  type InboxKind,
  type LinkFrame,
  type LinkKind,
  type LinkQueueMessage,
  type ShoreMessageOf,
  agreedVersion,
  isAgentMessageOf,
  isBinaryKind,
  type CameraState,
  type LinkReport,
  type RecorderStorage,
  CLOSE_SHORE_RESTART,
  LINK_PURPOSES,
  type LinkPurpose,
  routeOf,
} from '@ship-cctv/protocol';
import { AgentConnection, type LinkCounter, type LivenessOptions, SHORE_VERSIONS } from './connection.ts';
import { LogLimiter, type LogLimiterOptions } from '../lib/log-limiter.ts';
import { AdmissionGate } from './admission.ts';

/**
 * Where the ships' own reports go (the status module): a hello's link and cameras, later link and
 * camera changes, and the link's end. A hello is answered only once `agentOnline` has settled.
 */
export interface ShipReports {
  agentOnline(shipId: string, link: LinkReport, cameras: readonly CameraState[], storage?: RecorderStorage): Promise<void>;
  linkReport(shipId: string, link: LinkReport, storage?: RecorderStorage): Promise<void>;
  cameraReport(shipId: string, camera: CameraState): Promise<void>;
  agentOffline(shipId: string): Promise<void>;
  /** The ship's link here was closed because another instance holds the ship now: its state is that instance's to write. */
  agentMoved(shipId: string): void;
}

const IGNORED_REPORTS: ShipReports = {
  agentOnline: async () => undefined,
  linkReport: async () => undefined,
  cameraReport: async () => undefined,
  agentOffline: async () => undefined,
  agentMoved: () => undefined,
};

/** Close code sent to an older connection of a ship when a newer one arrives. */
export const CLOSE_REPLACED = 4000;

/** What a stream's owner hears from the ship about that stream. */
export interface StreamHandler<K extends LinkKind> {
  /** A message of the stream's kind naming this stream, from the ship that owns it. */
  message(msg: AgentMessageOf<K>): void;
  /** Bytes the ship sent on this stream (binary kinds). Without it such bytes are dropped. */
  data?(payload: Uint8Array): void;
  /** The link the stream was opened on is gone; the stream is closed (not called for close()). */
  closed?(reason: string): void;
}

/** One stream (or request) on one ship's link: the id shore handed out, and how to talk on it. */
export interface LinkStream<K extends LinkKind> {
  readonly shipId: string;
  readonly kind: K;
  readonly id: number;
  /** Until close(), or until the link it was opened on is gone. */
  readonly open: boolean;
  /** Sends a message about this stream (it must name this stream's id); nothing once closed. */
  send(msg: ShoreMessageOf<K>): void;
  /** Sends bytes of this stream down to the ship (binary kinds: talkback audio); nothing once closed. */
  sendBinary(payload: Uint8Array): void;
  /** Ends the stream here: later messages naming it are dropped. Tells the ship nothing. */
  close(): void;
}

export type OpenStreamResult<K extends LinkKind> =
  | { ok: true; stream: LinkStream<K> }
  /** `offline`: the ship's agent is not connected (or has not said hello); `unsupported`: it does not handle the kind. */
  | { ok: false; reason: 'offline' | 'unsupported'; message: string };

/** Opens a stream of one kind on one ship's link (what a stream owner is given). */
export type StreamOpener<K extends LinkKind> = (handler: StreamHandler<K>) => OpenStreamResult<K>;

/** Why a message or frame from a ship was not delivered. */
export interface Dropped {
  shipId: string;
  kind: LinkKind | undefined;
  id: number | undefined;
  /**
   * `notOwned`: no stream of this kind and id was opened on this ship's link (unknown, or another
   * ship's); `closed`: the stream was closed here a short while ago (bytes and answers still on
   * their way when shore stopped it — expected, logged at debug level).
   */
  reason: 'notOwned' | 'closed' | 'unknownKind' | 'short' | 'noData';
  detail: string;
}

export interface GatewayEvents {
  /** The ship's agent said hello on a new connection (also after a reconnect). */
  online: [shipId: string, conn: AgentConnection];
  offline: [shipId: string];
  /** The ship's report of its uplink queue. */
  queue: [shipId: string, report: LinkQueueMessage];
  /** Every accepted message of a ship's current connection, as it arrives (for traces; routing is openStream's). */
  message: [shipId: string, msg: AgentMessage];
  /** Every binary frame of a ship's current connection, as it arrives (for traces). */
  binary: [shipId: string, frame: LinkFrame];
  /** A message or frame was dropped (it is logged too). */
  dropped: [Dropped];
  /** A ship's hello was not taken now (too many new links at once); it was told to come back after `retryAfterMs`. */
  retryLater: [shipId: string, retryAfterMs: number];
  /** The ship's agent (link version 4) has something for its inbox of `kind`: heard after `online`, never before it. */
  outbox: [shipId: string, kind: InboxKind];
}

class OpenLinkStream<K extends LinkKind> implements LinkStream<K> {
  private isOpen = true;

  constructor(
    readonly shipId: string,
    readonly kind: K,
    readonly id: number,
    readonly conn: AgentConnection,
    private readonly handler: StreamHandler<K>,
    private readonly onClose: () => void,
  ) {}

  get open(): boolean {
    return this.isOpen && this.conn.isOpen;
  }

  send(msg: ShoreMessageOf<K>): void {
    const route = routeOf(msg);
    if (route?.kind !== this.kind || route.id !== this.id) {
      throw new Error(`${msg.type} names ${route?.kind ?? 'no'} stream ${route?.id ?? ''}, not ${this.kind} stream ${this.id}`);
    }
    if (this.open) this.conn.send(msg);
  }

  sendBinary(payload: Uint8Array): void {
    const kind: LinkKind = this.kind;
    if (!isBinaryKind(kind)) throw new Error(`a ${kind} stream carries no bytes`);
    if (this.open) this.conn.sendBinary(kind, this.id, payload);
  }

  close(): void {
    if (!this.isOpen) return;
    this.isOpen = false;
    this.onClose();
  }

  /** The link went away under the stream. */
  lost(reason: string): void {
    if (!this.isOpen) return;
    this.close();
    this.handler.closed?.(reason);
  }
}

/** Where the router delivers what a ship sends about one open stream. */
interface Route {
  conn: AgentConnection;
  /** Delivers a message if it is of the stream's kind (answers false otherwise). */
  message(msg: AgentMessage): boolean;
  data: ((payload: Uint8Array) => void) | undefined;
  lost(reason: string): void;
}

const isLinkPurpose = (kind: LinkKind): kind is LinkKind & LinkPurpose => (LINK_PURPOSES as readonly string[]).includes(kind);

const streamKey = (shipId: string, kind: LinkKind, id: number) => `${shipId}\u0000${kind}\u0000${id}`;

/** How long a closed stream's id is remembered, so what was still on its way is not taken for a stranger's. */
const RETIRED_MS = 60_000;

/**
 * The agents connected to this instance, one per ship, and the one router of their links. It turns
 * the agents' reports into fleet status, hands out stream ids (`openStream`), and delivers each
 * message and binary frame from a ship to the stream it names — by (ship, kind, id): a ship can
 * reach only streams opened on its own link, so a message naming another ship's stream is dropped
 * and logged, never delivered.
 */
export class AgentGateway {
  private readonly connections = new Map<string, AgentConnection>();
  private readonly streams = new Map<string, Route>();
  /** Streams closed lately, in closing order: key → the connection they were on, and until when they are remembered. */
  private readonly retired = new Map<string, { conn: AgentConnection; until: number }>();
  /** Stream ids are unique on this instance (whatever the ship and kind), which keeps logs unambiguous. */
  private nextStreamId = 1;
  readonly events = new EventEmitter<GatewayEvents>();
  /** Warnings about what a ship sent, at most a few a minute per ship (one ship cannot flood the log). */
  private readonly shipWarnings: LogLimiter;
  private status: ShipReports = IGNORED_REPORTS;
  /**
   * Connections that stand for a ship that went online here: their hello was taken, or they replaced
   * such a connection (or one that did so in turn). Only these take the ship offline when they
   * close: a link shore refused before taking its hello leaves the ship's status as it was, so a
   * ship told to come back later does not flap.
   */
  private readonly owesOffline = new WeakSet<AgentConnection>();
  /** Connections closed because the ship is held by another instance now: they do not write the ship offline. */
  private readonly movedAway = new WeakSet<AgentConnection>();
  /** Connections whose hello was taken (from the moment it was, before the ship's status is written). */
  private readonly helloTaken = new WeakSet<AgentConnection>();
  /** Asks for an inbox (`outbox`) that arrived before the connection was ready: told once it is online. */
  private readonly earlyAsks = new WeakMap<AgentConnection, Set<InboxKind>>();
  /** Hellos refused in a row by admission, logged once in a while rather than once per ship. */
  private refusedSinceLog = 0;
  private refusedLoggedAt = 0;

  constructor(
    private readonly counterFor: (shipId: string) => LinkCounter,
    private readonly liveness: LivenessOptions,
    private readonly log: FastifyBaseLogger,
    warnings: LogLimiterOptions = {},
    /** Takes new links at a bounded rate (admission.ts). */
    readonly admission: AdmissionGate = new AdmissionGate(),
  ) {
    this.shipWarnings = new LogLimiter(log, warnings);
  }

  /** Sends the ships' reports to `reports` from now on (given once, before any agent connects). */
  reportTo(reports: ShipReports): void {
    if (this.status !== IGNORED_REPORTS) throw new Error("the ships' reports go to one place");
    this.status = reports;
  }

  get(shipId: string): AgentConnection | undefined {
    return this.connections.get(shipId);
  }

  connectedShips(): string[] {
    return [...this.connections.keys()];
  }

  /**
   * Opens a stream of `kind` on the ship's current link and hands out its id; the handler hears
   * every message and frame the ship sends naming it, until the stream is closed. Refused while
   * the ship's agent has not said hello, or when its hello did not list the kind.
   */
  openStream<K extends LinkKind>(shipId: string, kind: K, handler: StreamHandler<K>): OpenStreamResult<K> {
    const conn = this.connections.get(shipId);
    if (!conn?.ready) return { ok: false, reason: 'offline', message: `ship ${shipId} is not connected` };
    if (!conn.capabilities.has(kind)) {
      return { ok: false, reason: 'unsupported', message: `the agent of ship ${shipId} does not handle ${kind} (it handles: ${[...conn.capabilities].join(', ') || 'nothing'})` };
    }
    let id = this.nextStreamId;
    while (this.streams.has(streamKey(shipId, kind, id))) id = id >= 0xffff_ffff ? 1 : id + 1;
    this.nextStreamId = id >= 0xffff_ffff ? 1 : id + 1;
    const key = streamKey(shipId, kind, id);
    if (isLinkPurpose(kind)) conn.streamOpened(kind);
    const stream = new OpenLinkStream(shipId, kind, id, conn, handler, () => {
      if (this.streams.get(key) !== route) return;
      this.streams.delete(key);
      const now = Date.now();
      for (const [k, r] of this.retired) {
        if (r.until > now && r.conn.isOpen) break;
        this.retired.delete(k);
      }
      if (conn.isOpen) this.retired.set(key, { conn, until: now + RETIRED_MS });
    });
    const { data } = handler;
    const route: Route = {
      conn,
      message: (msg) => {
        if (!isAgentMessageOf(kind, msg)) return false;
        handler.message(msg);
        return true;
      },
      data: data && ((payload) => data.call(handler, payload)),
      lost: (reason) => stream.lost(reason),
    };
    this.streams.set(key, route);
    return { ok: true, stream };
  }

  /** How many streams are open now (for tests and introspection). */
  get openStreamCount(): number {
    return this.streams.size;
  }

  attach(shipId: string, ws: WebSocket, raw?: ConstructorParameters<typeof AgentConnection>[4]): AgentConnection {
    const conn = new AgentConnection(shipId, ws, this.counterFor(shipId), this.liveness, raw);
    const previous = this.connections.get(shipId);
    if (previous && this.owesOffline.has(previous)) this.owesOffline.add(conn);
    this.connections.set(shipId, conn);
    previous?.close(CLOSE_REPLACED, 'replaced by a newer connection');
    this.log.info({ shipId }, 'agent connected');

    conn.on('frame', (parsed) => {
      if (this.connections.get(shipId) !== conn) return;
      if (!parsed.ok) return this.drop({ shipId, kind: undefined, id: undefined, reason: parsed.error, detail: parsed.message });
      this.events.emit('binary', shipId, parsed.frame);
      const { kind, streamId, payload } = parsed.frame;
      const stream = this.streamOf(conn, kind, streamId);
      if (!stream) return this.drop({ shipId, kind, id: streamId, reason: this.unowned(conn, kind, streamId), detail: `binary frame for ${kind} stream ${streamId}` });
      if (!stream.data) return this.drop({ shipId, kind, id: streamId, reason: 'noData', detail: `${kind} stream ${streamId} takes no bytes` });
      try {
        stream.data(payload);
      } catch (err) {
        // One stream's handler failing must not take the server (and every other ship's link) down.
        this.log.error({ err, shipId, kind, streamId }, 'a stream handler failed on bytes from the ship');
      }
    });
    conn.on('message', (msg) => {
      this.handle(conn, msg).catch((err: unknown) => this.log.error({ err, shipId }, 'agent message failed'));
    });
    conn.on('refused', (reason) => this.shipWarnings.warn('shipId', shipId, { reason }, 'agent message refused'));
    conn.on('close', (reason) => {
      this.log.info({ shipId, reason }, 'agent disconnected');
      for (const r of [...this.streams.values()]) if (r.conn === conn) r.lost(`ship link closed: ${reason}`);
      if (this.connections.get(shipId) !== conn) return;
      this.connections.delete(shipId);
      if (!this.owesOffline.has(conn)) return;
      this.events.emit('offline', shipId);
      // The ship's new owner wrote it online already: writing it offline here would undo that.
      if (this.movedAway.has(conn)) return this.status.agentMoved(shipId);
      this.status.agentOffline(shipId).catch((err: unknown) => this.log.error({ err, shipId }, 'marking ship offline failed'));
    });
    return conn;
  }

  /**
   * Closes the ship's link here because another instance holds the ship now (a newer claim fenced
   * this one): everything the link carried ends as when a link is lost, but the ship is not written
   * offline — it is online at its new owner.
   */
  closeMoved(shipId: string, code: number, reason: string): void {
    const conn = this.connections.get(shipId);
    if (!conn) return;
    this.movedAway.add(conn);
    conn.close(code, reason);
  }

  closeAll(): void {
    this.shipWarnings.close();
    // 1012 (service restart): agents redial within seconds rather than on their usual backoff.
    for (const conn of this.connections.values()) conn.close(CLOSE_SHORE_RESTART, 'server restarting');
    this.connections.clear();
  }

  /** The open stream of (ship, kind, id), if it was opened on this very connection. */
  private streamOf(conn: AgentConnection, kind: LinkKind, id: number): Route | undefined {
    const stream = this.streams.get(streamKey(conn.shipId, kind, id));
    return stream?.conn === conn ? stream : undefined;
  }

  /** Why no open stream takes (kind, id) from this connection: closed here lately, or never this ship's. */
  private unowned(conn: AgentConnection, kind: LinkKind, id: number): 'closed' | 'notOwned' {
    const r = this.retired.get(streamKey(conn.shipId, kind, id));
    return r?.conn === conn && r.until > Date.now() ? 'closed' : 'notOwned';
  }

  private refusedHello(shipId: string, retryAfterMs: number): void {
    this.events.emit('retryLater', shipId, retryAfterMs);
    this.refusedSinceLog += 1;
    const now = Date.now();
    if (now - this.refusedLoggedAt < 5_000) return;
    this.log.info(
      { refused: this.refusedSinceLog, retryAfterMs, perSecond: this.admission.perSecond, burst: this.admission.burst },
      'too many ships arriving at once: hellos refused with a time to come back',
    );
    this.refusedLoggedAt = now;
    this.refusedSinceLog = 0;
  }

  private drop(d: Dropped): void {
    if (d.reason === 'closed') this.log.debug(d, 'agent link message for a stream closed here dropped');
    else this.shipWarnings.warn('shipId', d.shipId, d, 'agent link message dropped');
    this.events.emit('dropped', d);
  }

  private async handle(conn: AgentConnection, msg: AgentMessage): Promise<void> {
    const { shipId } = conn;
    if (this.connections.get(shipId) !== conn) return;
    this.events.emit('message', shipId, msg);
    switch (msg.type) {
      case 'hello':
        return this.hello(conn, msg);
      case 'link':
        return this.status.linkReport(shipId, msg, msg.storage);
      case 'camera':
        return this.status.cameraReport(shipId, msg);
      case 'link.queue':
        this.events.emit('queue', shipId, msg);
        return;
      case 'outbox': {
        if (conn.ready) {
          this.events.emit('outbox', shipId, msg.kind);
          return;
        }
        // The agent asks once it is welcomed, which may be before its hello is written through.
        const asks = this.earlyAsks.get(conn) ?? new Set<InboxKind>();
        asks.add(msg.kind);
        this.earlyAsks.set(conn, asks);
        return;
      }
      default: {
        const route = routeOf(msg);
        if (!route) return;
        const stream = this.streamOf(conn, route.kind, route.id);
        if (!stream?.message(msg)) {
          return this.drop({ shipId, kind: route.kind, id: route.id, reason: this.unowned(conn, route.kind, route.id), detail: `${msg.type} for ${route.kind} stream ${route.id}` });
        }
      }
    }
  }

  private async hello(conn: AgentConnection, msg: HelloMessage): Promise<void> {
    const { shipId } = conn;
    // The connection refuses a hello whose versions do not meet shore's before it gets here.
    const protocol = agreedVersion(msg.protocol, SHORE_VERSIONS);
    if (protocol === undefined) return;
    // A hello on a connection already taken (agents say it once) costs no new admission.
    const admission = this.helloTaken.has(conn) ? { admitted: true as const } : this.admission.admit();
    if (!admission.admitted) {
      this.refusedHello(shipId, admission.retryAfterMs);
      conn.retryLater(admission.retryAfterMs);
      return;
    }
    this.helloTaken.add(conn);
    this.owesOffline.add(conn);
    conn.send({ type: 'welcome', shipId, serverTime: Date.now(), protocol });
    await this.status.agentOnline(shipId, msg.link, msg.cameras, msg.storage);
    conn.markReady(protocol, msg.capabilities);
    this.log.info({ shipId, protocol, agentVersion: msg.agentVersion, capabilities: msg.capabilities }, 'agent said hello');
    if (this.connections.get(shipId) !== conn) return;
    this.events.emit('online', shipId, conn);
    const asks = this.earlyAsks.get(conn);
    this.earlyAsks.delete(conn);
    for (const kind of asks ?? []) if (this.connections.get(shipId) === conn) this.events.emit('outbox', shipId, kind);
  }
}
