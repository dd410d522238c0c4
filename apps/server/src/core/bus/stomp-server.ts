import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { RawData, WebSocket } from 'ws';
import {
  DEFAULT_FRAME_LIMITS,
  FrameParser,
  HEARTBEAT,
  type OutgoingFrame,
  type StompFrame,
  StompFrameError,
  type StompHeaders,
  serializeFrame,
} from './stomp-frame.ts';
import { TokenBucket } from '../lib/token-bucket.ts';

/**
 * A STOMP 1.2 server over WebSocket for a publish-only broker: clients CONNECT, SUBSCRIBE and
 * UNSUBSCRIBE; the application publishes JSON to destinations. It knows nothing of Fastify: give
 * it each accepted `ws` socket with `handleConnection`.
 *
 * Every ERROR frame is followed by closing the connection (STOMP 1.2 "ERROR"). Frames of one
 * connection are handled strictly in order, one at a time, so a SUBSCRIBE whose authorisation is
 * still pending is never overtaken by the UNSUBSCRIBE after it.
 */

/** What an ERROR frame says: `message` header, and an optional body for details. */
export interface StompErrorInfo {
  message: string;
  body?: string | undefined;
  /** Content type of the body; text/plain when absent. */
  contentType?: string | undefined;
}

/**
 * Thrown by `authenticate` (or `authorizeSubscribe`) to choose what the client is told. Any other
 * error is logged and the client gets a generic message, so internals do not leak.
 */
export class StompError extends Error implements StompErrorInfo {
  readonly body: string | undefined;
  readonly contentType: string | undefined;
  constructor(info: StompErrorInfo) {
    super(info.message);
    this.name = 'StompError';
    this.body = info.body;
    this.contentType = info.contentType;
  }
}

export interface StompLogger {
  debug(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface HeartBeatPreference {
  /** Smallest interval at which the server can send heart-beats (sx); 0 = never. */
  outgoingMs: number;
  /** Interval at which the server wants the client's heart-beats (sy); 0 = not wanted. */
  incomingMs: number;
}

/**
 * Current state of a destination as message bodies, sent right after a SUBSCRIBE is accepted: one
 * body, several (e.g. one per camera of a /mediaList instance), or none.
 */
export type Snapshot = string | readonly string[] | undefined;
export type SnapshotProvider<P> = (destination: string, principal: P) => Snapshot | Promise<Snapshot>;

export interface StompServerOptions<P, R = unknown> {
  /** Resolves the principal of a CONNECT; throwing refuses it (ERROR, then close). */
  authenticate(ctx: { headers: StompHeaders; request: R }): Promise<P>;
  /** False refuses the SUBSCRIBE with "You do not have permission to do this" (ERROR, then close). */
  authorizeSubscribe(principal: P, destination: string): Promise<boolean>;
  /** Current state of a destination, sent as a MESSAGE right after a SUBSCRIBE is accepted. */
  snapshot?: SnapshotProvider<P> | undefined;
  /** When a principal stops being valid (e.g. its session expires): the connection is closed then. */
  expiry?: ((principal: P) => { at: number; error: StompErrorInfo } | undefined) | undefined;
  /** Default 64 KiB. */
  maxFrameBytes?: number | undefined;
  maxHeaders?: number | undefined;
  maxHeaderBytes?: number | undefined;
  /** Per connection; default 256. */
  maxSubscriptions?: number | undefined;
  /**
   * Per principal across all its connections (with `principalKey`); default 512: two browser tabs
   * subscribed to as many ships as one connection may.
   */
  maxSubscriptionsPerPrincipal?: number | undefined;
  /** Names the principal whose subscriptions count together (a user id); none: no such limit. */
  principalKey?: ((principal: P) => string) | undefined;
  /**
   * Frames a connection may send at once (default 512: a client subscribing to every destination
   * it may, and some) and a second after that (default 50). Past them: ERROR, then close.
   */
  frameBurst?: number | undefined;
  framesPerSecond?: number | undefined;
  /** Server preferences (CONNECTED heart-beat sx,sy); default 1000,1000 as the spec's clients ask. */
  heartBeat?: HeartBeatPreference | undefined;
  /** Added to twice the agreed client interval before a silent connection is dropped; default 1000. */
  heartBeatGraceMs?: number | undefined;
  /** A socket that has not sent CONNECT by then is closed; default 10 s. */
  connectTimeoutMs?: number | undefined;
  /** A client whose socket holds more unsent bytes than this is dropped; default 1 MiB. */
  maxBufferedBytes?: number | undefined;
  /** Messages published while a new subscription's snapshot is being fetched, kept to send after it. */
  maxPendingPerSubscription?: number | undefined;
  /** close() terminates sockets whose closing handshake has not finished by then; default 2 s. */
  closeTimeoutMs?: number | undefined;
  /** CONNECTED `server` header. */
  serverName?: string | undefined;
  logger?: StompLogger | undefined;
}

export interface StompServerEvents {
  /** A destination got its first subscriber (across all connections). */
  firstSubscriber: [destination: string];
  /** A destination lost its last subscriber. */
  lastUnsubscribe: [destination: string];
}

export const FORBIDDEN_MESSAGE = 'You do not have permission to do this';

/** WebSocket close codes (RFC 6455 §7.4.1). */
const CLOSE = {
  normal: 1000,
  goingAway: 1001,
  protocolError: 1002,
  policy: 1008,
  tooBig: 1009,
  internal: 1011,
} as const;

const WS_OPEN = 1;
const NOOP_LOGGER: StompLogger = { debug() {}, warn() {}, error() {} };
/** Frames parsed but not yet handled before the socket stops being read. */
const MAX_QUEUED_FRAMES = 32;
/** setTimeout's upper bound. */
const MAX_TIMER_MS = 2 ** 31 - 1;

type ConnectionState = 'awaiting-connect' | 'connected' | 'closing';

interface Subscription<P> {
  readonly id: string;
  readonly destination: string;
  readonly conn: Connection<P>;
  /** Set while the snapshot is being fetched: publishes wait here so they follow it. */
  pending: Buffer[] | undefined;
}

interface Connection<P> {
  readonly id: string;
  readonly ws: WebSocket;
  readonly parser: FrameParser;
  state: ConnectionState;
  principal: P | undefined;
  /** The principal's key, whose subscriptions count together across connections. */
  principalKey: string | undefined;
  readonly subscriptions: Map<string, Subscription<P>>;
  readonly frames: TokenBucket;
  chain: Promise<void>;
  queued: number;
  lastReceivedAt: number;
  lastSentAt: number;
  timers: NodeJS.Timeout[];
}

export class StompServer<P, R = unknown> {
  readonly events = new EventEmitter<StompServerEvents>();
  private readonly connections = new Set<Connection<P>>();
  private readonly byDestination = new Map<string, Set<Subscription<P>>>();
  private readonly log: StompLogger;
  private snapshotProvider: SnapshotProvider<P> | undefined;
  private readonly maxSubscriptions: number;
  private readonly maxPerPrincipal: number;
  /** Subscriptions of each principal key, over all its connections. */
  private readonly principalSubscriptions = new Map<string, number>();
  private readonly heartBeat: HeartBeatPreference;
  private readonly graceMs: number;
  private readonly maxBufferedBytes: number;
  private readonly maxPending: number;
  private readonly connIdPrefix = randomBytes(4).toString('hex');
  private connSeq = 0;
  private messageSeq = 0;
  private closed = false;
  /** Sockets closed by the server whose closing handshake has not finished. */
  private readonly closingSockets = new Set<WebSocket>();

  constructor(private readonly opts: StompServerOptions<P, R>) {
    this.log = opts.logger ?? NOOP_LOGGER;
    this.snapshotProvider = opts.snapshot;
    this.maxSubscriptions = opts.maxSubscriptions ?? 256;
    this.maxPerPrincipal = opts.maxSubscriptionsPerPrincipal ?? 512;
    this.heartBeat = opts.heartBeat ?? { outgoingMs: 1000, incomingMs: 1000 };
    this.graceMs = opts.heartBeatGraceMs ?? 1000;
    this.maxBufferedBytes = opts.maxBufferedBytes ?? 1024 * 1024;
    this.maxPending = opts.maxPendingPerSubscription ?? 256;
  }

  /** Replaces the snapshot provider (the status service supplies it once it exists). */
  setSnapshotProvider(provider: SnapshotProvider<P> | undefined): void {
    this.snapshotProvider = provider;
  }

  /** Takes over an open WebSocket: reads its frames until it closes. */
  handleConnection(ws: WebSocket, request: R): void {
    if (this.closed) {
      ws.close(CLOSE.goingAway);
      return;
    }
    const now = Date.now();
    const conn: Connection<P> = {
      id: `${this.connIdPrefix}-${(++this.connSeq).toString(36)}`,
      ws,
      parser: new FrameParser({
        maxFrameBytes: this.opts.maxFrameBytes ?? DEFAULT_FRAME_LIMITS.maxFrameBytes,
        maxHeaders: this.opts.maxHeaders ?? DEFAULT_FRAME_LIMITS.maxHeaders,
        maxHeaderBytes: this.opts.maxHeaderBytes ?? DEFAULT_FRAME_LIMITS.maxHeaderBytes,
      }),
      state: 'awaiting-connect',
      principal: undefined,
      principalKey: undefined,
      subscriptions: new Map(),
      frames: new TokenBucket(this.opts.frameBurst ?? 512, this.opts.framesPerSecond ?? 50),
      chain: Promise.resolve(),
      queued: 0,
      lastReceivedAt: now,
      lastSentAt: now,
      timers: [],
    };
    this.connections.add(conn);

    ws.on('message', (data: RawData) => this.onMessage(conn, request, data));
    ws.on('close', () => {
      this.closingSockets.delete(ws);
      this.detach(conn);
    });
    // The socket's owner (e.g. @fastify/websocket) may log errors too; this one keeps an error from
    // being unhandled when the server is used on its own. 'close' follows.
    ws.on('error', (err) => this.log.debug({ err, connection: conn.id }, 'stomp socket error'));

    const connectTimeoutMs = this.opts.connectTimeoutMs ?? 10_000;
    this.addTimer(
      conn,
      setTimeout(() => {
        if (conn.state === 'awaiting-connect') this.fail(conn, { message: 'No CONNECT frame received in time' }, CLOSE.policy);
      }, connectTimeoutMs),
    );
  }

  /**
   * Sends `body` (JSON) as a MESSAGE to every subscription of `destination`; answers how many
   * subscriptions it went to. Cost is proportional to that destination's subscribers only.
   */
  publish(destination: string, body: string): number {
    const subs = this.byDestination.get(destination);
    if (!subs) return 0;
    const bytes = Buffer.from(body, 'utf8');
    let sent = 0;
    let slow: Connection<P>[] | undefined;
    for (const sub of subs) {
      if (sub.pending) {
        if (sub.pending.length >= this.maxPending) sub.pending.shift();
        sub.pending.push(bytes);
        continue;
      }
      const result = this.sendMessage(sub, bytes);
      if (result === 'sent') sent++;
      else if (result === 'slow') (slow ??= []).push(sub.conn);
    }
    // Dropped after the loop: dropping edits the set being iterated.
    for (const conn of slow ?? []) this.dropSlow(conn);
    return sent;
  }

  /** Sends an ERROR to every connection whose principal matches, then closes it; answers how many. */
  closeWhere(pred: (principal: P) => boolean, error: string | StompErrorInfo): number {
    const info = typeof error === 'string' ? { message: error } : error;
    let count = 0;
    for (const conn of [...this.connections]) {
      if (conn.state !== 'connected' || conn.principal === undefined) continue;
      if (!pred(conn.principal)) continue;
      this.fail(conn, info, CLOSE.policy);
      count++;
    }
    return count;
  }

  /**
   * The subscriptions of the destinations `match` picks, each with its principal and a way to end
   * it: for principals who may no longer read a destination (a rule changed after they subscribed).
   * An ended subscription gets no more messages, without a frame (STOMP has no UNSUBSCRIBE from the
   * server); the connection and its other subscriptions go on.
   */
  subscriptionsWhere(match: (destination: string) => boolean): { destination: string; principal: P; end(): void }[] {
    const out: { destination: string; principal: P; end(): void }[] = [];
    for (const [destination, subs] of this.byDestination) {
      if (!match(destination)) continue;
      for (const sub of subs) {
        const principal = sub.conn.principal;
        if (principal !== undefined) out.push({ destination, principal, end: () => this.endSubscription(sub) });
      }
    }
    return out;
  }

  subscriberCount(destination: string): number {
    return this.byDestination.get(destination)?.size ?? 0;
  }

  /** Open connections, signed in or not, that the server has not started closing. */
  connectionCount(): number {
    return this.connections.size;
  }

  /** Destinations with at least one subscriber. */
  destinations(): string[] {
    return [...this.byDestination.keys()];
  }

  /**
   * Closes every connection (going away) and refuses new ones. Resolves when all sockets have
   * closed, terminating those that have not finished the closing handshake within closeTimeoutMs.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const conn of [...this.connections]) this.shutdown(conn, CLOSE.goingAway);
    const waiting = [...this.closingSockets].filter((ws) => ws.readyState !== 3);
    if (waiting.length === 0) return;
    await new Promise<void>((resolve) => {
      let left = waiting.length;
      const done = () => {
        if (--left === 0) {
          clearTimeout(timer);
          resolve();
        }
      };
      const timer = setTimeout(() => {
        for (const ws of waiting) ws.terminate();
      }, this.opts.closeTimeoutMs ?? 2000);
      timer.unref();
      for (const ws of waiting) ws.once('close', done);
    });
  }

  // ---- incoming ----------------------------------------------------------------------------

  private onMessage(conn: Connection<P>, request: R, data: RawData): void {
    conn.lastReceivedAt = Date.now();
    if (conn.state === 'closing' || conn.parser.failed) return;
    const chunk = Array.isArray(data) ? Buffer.concat(data) : data;
    try {
      conn.parser.push(chunk, (frame) => {
        if (conn.state === 'closing') return;
        if (!conn.frames.take()) {
          const { capacity, perSecond } = conn.frames;
          this.log.warn({ connection: conn.id, burst: capacity, perSecond }, 'stomp client sends too many frames; closing it');
          this.fail(conn, { message: `Too many frames: at most ${capacity} at once and ${perSecond} a second` }, CLOSE.policy);
          return;
        }
        this.enqueue(conn, () => this.handleFrame(conn, request, frame));
      });
    } catch (err) {
      if (err instanceof StompFrameError) {
        // After the frames before it, which are already queued.
        this.enqueue(conn, () => this.fail(conn, { message: err.message }, err.code === 'frame-too-large' ? CLOSE.tooBig : CLOSE.protocolError));
      } else {
        this.internalError(conn, err);
      }
    }
  }

  private enqueue(conn: Connection<P>, work: () => void | Promise<void>): void {
    conn.queued++;
    // Back-pressure: stop reading a client that sends faster than its frames are handled.
    if (conn.queued > MAX_QUEUED_FRAMES && !conn.ws.isPaused) conn.ws.pause();
    // Each frame on a fresh turn of the event loop: a frame's work may be a chain of database reads,
    // and many frames at once must not hold the loop for everyone else.
    conn.chain = conn.chain
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(work)
      .catch((err: unknown) => this.internalError(conn, err))
      .finally(() => {
        conn.queued--;
        if (conn.queued === 0 && conn.ws.isPaused && conn.state !== 'closing') conn.ws.resume();
      });
  }

  private async handleFrame(conn: Connection<P>, request: R, frame: StompFrame): Promise<void> {
    if (conn.state === 'closing') return;
    const { command } = frame;
    if (command === 'CONNECT' || command === 'STOMP') return this.onConnect(conn, request, frame);
    if (conn.state !== 'connected') return this.fail(conn, { message: `${command} before CONNECT` }, CLOSE.protocolError, frame);
    switch (command) {
      case 'SUBSCRIBE':
        return this.onSubscribe(conn, frame);
      case 'UNSUBSCRIBE':
        return this.onUnsubscribe(conn, frame);
      case 'DISCONNECT':
        this.receipt(conn, frame);
        this.shutdown(conn, CLOSE.normal);
        return;
      case 'SEND':
        return this.fail(conn, { message: 'SEND is not allowed: clients only subscribe here' }, CLOSE.policy, frame);
      case 'ACK':
      case 'NACK':
      case 'BEGIN':
      case 'COMMIT':
      case 'ABORT':
        return this.fail(conn, { message: `${command} is not supported: subscriptions are ack:auto` }, CLOSE.protocolError, frame);
      default:
        return this.fail(conn, { message: `Unknown command ${command}` }, CLOSE.protocolError, frame);
    }
  }

  private async onConnect(conn: Connection<P>, request: R, frame: StompFrame): Promise<void> {
    if (conn.state !== 'awaiting-connect') return this.fail(conn, { message: 'Already connected' }, CLOSE.protocolError, frame);
    const versions = (frame.headers['accept-version'] ?? '1.0').split(',').map((v) => v.trim());
    if (!versions.includes('1.2')) {
      this.send(conn, { command: 'ERROR', headers: { version: '1.2', message: 'Supported protocol versions are 1.2', 'content-type': 'text/plain' }, body: 'Supported protocol versions are 1.2' });
      this.shutdown(conn, CLOSE.protocolError);
      return;
    }
    const hb = /^\s*(\d{1,9})\s*,\s*(\d{1,9})\s*$/.exec(frame.headers['heart-beat'] ?? '0,0');
    if (!hb) return this.fail(conn, { message: 'Invalid heart-beat header' }, CLOSE.protocolError, frame);
    const clientSends = Number(hb[1]);
    const clientWants = Number(hb[2]);

    let principal: P;
    try {
      principal = await this.opts.authenticate({ headers: frame.headers, request });
    } catch (err) {
      if (conn.state !== 'awaiting-connect') return;
      if (!(err instanceof StompError)) this.log.warn({ err, connection: conn.id }, 'stomp authentication failed');
      return this.fail(conn, err instanceof StompError ? err : { message: 'Authentication failed' }, CLOSE.policy, frame);
    }
    // The socket may have closed, or the connect timer fired, while authenticating.
    if (conn.state !== 'awaiting-connect') return;
    conn.principal = principal;
    conn.principalKey = this.opts.principalKey?.(principal);
    conn.state = 'connected';
    this.clearTimers(conn);

    const { outgoingMs: sx, incomingMs: sy } = this.heartBeat;
    this.send(conn, {
      command: 'CONNECTED',
      headers: { version: '1.2', 'heart-beat': `${sx},${sy}`, session: conn.id, server: this.opts.serverName },
    });
    // Heart-beat negotiation (spec "Heart-beating"): each direction runs at the larger of the two
    // wishes, or not at all if either side says 0.
    const outgoing = sx > 0 && clientWants > 0 ? Math.max(sx, clientWants) : 0;
    const incoming = sy > 0 && clientSends > 0 ? Math.max(sy, clientSends) : 0;
    if (outgoing > 0) {
      this.addTimer(
        conn,
        setInterval(() => {
          // Any frame counts as a heart-beat; send one only when the line has been quiet.
          if (Date.now() - conn.lastSentAt >= outgoing / 2) this.sendRaw(conn, HEARTBEAT);
        }, outgoing),
      );
    }
    if (incoming > 0) {
      const limit = 2 * incoming + this.graceMs;
      this.addTimer(
        conn,
        setInterval(() => {
          // While paused for back-pressure the server is not reading, so silence proves nothing.
          if (conn.ws.isPaused) return;
          const silent = Date.now() - conn.lastReceivedAt;
          if (silent > limit) {
            this.log.debug({ connection: conn.id, silent }, 'stomp client silent; dropping it');
            this.drop(conn);
          }
        }, Math.max(10, Math.floor(incoming / 2))),
      );
    }
    const expiry = this.opts.expiry?.(principal);
    if (expiry) {
      this.addTimer(
        conn,
        setTimeout(() => this.fail(conn, expiry.error, CLOSE.policy), Math.min(MAX_TIMER_MS, Math.max(0, expiry.at - Date.now()))),
      );
    }
  }

  private async onSubscribe(conn: Connection<P>, frame: StompFrame): Promise<void> {
    const { id, destination, ack } = frame.headers;
    if (!id) return this.fail(conn, { message: 'SUBSCRIBE needs an id header' }, CLOSE.protocolError, frame);
    if (!destination) return this.fail(conn, { message: 'SUBSCRIBE needs a destination header' }, CLOSE.protocolError, frame);
    if (ack !== undefined && ack !== 'auto') return this.fail(conn, { message: `ack:${ack} is not supported; use ack:auto` }, CLOSE.protocolError, frame);
    if (conn.subscriptions.has(id)) return this.fail(conn, { message: `Subscription id ${id} is already in use` }, CLOSE.protocolError, frame);
    if (conn.subscriptions.size >= this.maxSubscriptions) {
      return this.fail(conn, { message: `Too many subscriptions: at most ${this.maxSubscriptions} per connection` }, CLOSE.policy, frame);
    }
    if (conn.principalKey !== undefined && (this.principalSubscriptions.get(conn.principalKey) ?? 0) >= this.maxPerPrincipal) {
      this.log.warn({ connection: conn.id, principal: conn.principalKey }, 'stomp principal has too many subscriptions');
      return this.fail(conn, { message: `Too many subscriptions: at most ${this.maxPerPrincipal} per user over all connections` }, CLOSE.policy, frame);
    }
    const principal = conn.principal as P;
    let allowed: boolean;
    try {
      allowed = await this.opts.authorizeSubscribe(principal, destination);
    } catch (err) {
      if (conn.state !== 'connected') return;
      if (err instanceof StompError) return this.fail(conn, err, CLOSE.policy, frame);
      this.log.error({ err, connection: conn.id, destination }, 'stomp subscribe authorisation failed');
      return this.fail(conn, { message: 'Internal server error' }, CLOSE.internal, frame);
    }
    if (conn.state !== 'connected') return;
    if (!allowed) return this.fail(conn, { message: FORBIDDEN_MESSAGE }, CLOSE.policy, frame);

    const provider = this.snapshotProvider;
    const sub: Subscription<P> = { id, destination, conn, pending: provider ? [] : undefined };
    conn.subscriptions.set(id, sub);
    this.countFor(conn, 1);
    this.index(sub);

    if (provider) {
      let snapshot: Snapshot;
      try {
        snapshot = await provider(destination, principal);
      } catch (err) {
        this.log.error({ err, destination }, 'stomp snapshot failed');
      }
      // Unsubscribed in the meantime only by the connection going away (frames are sequential).
      if (conn.subscriptions.get(id) !== sub) return;
      const current = snapshot === undefined ? [] : typeof snapshot === 'string' ? [snapshot] : snapshot;
      const queued = [...current.map((body) => Buffer.from(body, 'utf8')), ...(sub.pending ?? [])];
      sub.pending = undefined;
      for (const body of queued) {
        const result = this.sendMessage(sub, body);
        if (result === 'slow') return this.dropSlow(conn);
        if (result === 'closed') return;
      }
    }
    this.receipt(conn, frame);
  }

  private onUnsubscribe(conn: Connection<P>, frame: StompFrame): void {
    const { id } = frame.headers;
    if (!id) return this.fail(conn, { message: 'UNSUBSCRIBE needs an id header' }, CLOSE.protocolError, frame);
    // An unknown id is not an error: the client may have raced its own bookkeeping.
    const sub = conn.subscriptions.get(id);
    if (sub) this.endSubscription(sub);
    this.receipt(conn, frame);
  }

  private endSubscription(sub: Subscription<P>): void {
    if (sub.conn.subscriptions.get(sub.id) !== sub) return;
    sub.conn.subscriptions.delete(sub.id);
    this.countFor(sub.conn, -1);
    this.unindex(sub);
  }

  // ---- subscriptions index -----------------------------------------------------------------

  /** Keeps the count of the connection's principal's subscriptions. */
  private countFor(conn: Connection<P>, delta: number): void {
    const key = conn.principalKey;
    if (key === undefined || delta === 0) return;
    const n = (this.principalSubscriptions.get(key) ?? 0) + delta;
    if (n > 0) this.principalSubscriptions.set(key, n);
    else this.principalSubscriptions.delete(key);
  }

  private index(sub: Subscription<P>): void {
    let set = this.byDestination.get(sub.destination);
    if (!set) {
      set = new Set();
      this.byDestination.set(sub.destination, set);
      set.add(sub);
      this.emit('firstSubscriber', sub.destination);
      return;
    }
    set.add(sub);
  }

  private unindex(sub: Subscription<P>): void {
    const set = this.byDestination.get(sub.destination);
    if (!set?.delete(sub)) return;
    if (set.size === 0) {
      this.byDestination.delete(sub.destination);
      this.emit('lastUnsubscribe', sub.destination);
    }
  }

  private emit(event: keyof StompServerEvents, destination: string): void {
    try {
      this.events.emit(event, destination);
    } catch (err) {
      this.log.error({ err, event, destination }, 'stomp event listener threw');
    }
  }

  // ---- outgoing ----------------------------------------------------------------------------

  private sendMessage(sub: Subscription<P>, body: Buffer): 'sent' | 'slow' | 'closed' {
    const frame = serializeFrame({
      command: 'MESSAGE',
      headers: {
        destination: sub.destination,
        subscription: sub.id,
        'message-id': `${sub.conn.id}-${(++this.messageSeq).toString(36)}`,
        'content-type': 'application/json',
      },
      body,
    });
    return this.sendRaw(sub.conn, frame, false);
  }

  private send(conn: Connection<P>, frame: OutgoingFrame): void {
    if (this.sendRaw(conn, serializeFrame(frame)) === 'slow') this.dropSlow(conn);
  }

  /**
   * Writes to the socket unless it is already too far behind. Frames go as text messages (they
   * are UTF-8: JSON bodies). Answers 'slow' without writing when the client should be dropped;
   * with `dropNow` (the default) it is dropped here.
   */
  private sendRaw(conn: Connection<P>, data: Buffer | string, dropNow = true): 'sent' | 'slow' | 'closed' {
    const { ws } = conn;
    if (ws.readyState !== WS_OPEN) return 'closed';
    if (ws.bufferedAmount > this.maxBufferedBytes) {
      if (dropNow) this.dropSlow(conn);
      return 'slow';
    }
    ws.send(data, { binary: false });
    conn.lastSentAt = Date.now();
    return 'sent';
  }

  private receipt(conn: Connection<P>, frame: StompFrame): void {
    const receipt = frame.headers.receipt;
    if (receipt !== undefined) this.send(conn, { command: 'RECEIPT', headers: { 'receipt-id': receipt } });
  }

  // ---- ending connections ------------------------------------------------------------------

  /** ERROR, then close (STOMP 1.2: the server closes the connection after an ERROR). */
  private fail(conn: Connection<P>, error: StompErrorInfo, code: number, cause?: StompFrame): void {
    if (conn.state === 'closing') return;
    const body = error.body ?? error.message;
    this.sendRaw(
      conn,
      serializeFrame({
        command: 'ERROR',
        headers: {
          message: error.message,
          'receipt-id': cause?.headers.receipt,
          'content-type': error.contentType ?? 'text/plain',
        },
        body,
      }),
      false,
    );
    this.log.debug({ connection: conn.id, message: error.message }, 'stomp error sent');
    this.shutdown(conn, code);
  }

  private internalError(conn: Connection<P>, err: unknown): void {
    this.log.error({ err, connection: conn.id }, 'stomp frame handling failed');
    this.fail(conn, { message: 'Internal server error' }, CLOSE.internal);
  }

  private dropSlow(conn: Connection<P>): void {
    if (conn.state === 'closing') return;
    this.log.warn({ connection: conn.id, bufferedAmount: conn.ws.bufferedAmount }, 'stomp client too slow; dropping it');
    this.drop(conn);
  }

  /** Closes without a handshake: for clients that are gone or cannot keep up. */
  private drop(conn: Connection<P>): void {
    this.detach(conn);
    conn.ws.terminate();
  }

  /** Starts the closing handshake after whatever was already queued for the client. */
  private shutdown(conn: Connection<P>, code: number): void {
    this.detach(conn);
    if (conn.ws.readyState === WS_OPEN || conn.ws.readyState === 0) {
      this.closingSockets.add(conn.ws);
      conn.ws.close(code);
    }
  }

  /** Forgets a connection and its subscriptions; idempotent. */
  private detach(conn: Connection<P>): void {
    if (conn.state === 'closing') return;
    conn.state = 'closing';
    this.clearTimers(conn);
    this.connections.delete(conn);
    for (const sub of conn.subscriptions.values()) this.unindex(sub);
    this.countFor(conn, -conn.subscriptions.size);
    conn.subscriptions.clear();
    if (conn.ws.isPaused) conn.ws.resume();
  }

  private addTimer(conn: Connection<P>, timer: NodeJS.Timeout): void {
    // Connection timers never keep the process alive on their own.
    timer.unref();
    conn.timers.push(timer);
  }

  private clearTimers(conn: Connection<P>): void {
    for (const t of conn.timers) clearTimeout(t);
    conn.timers = [];
  }
}
