import { EventEmitter } from 'node:events';
import net from 'node:net';
import { CongestionWindow, LOSS_SEGMENT_BYTES, LossDraw } from './loss.ts';
import {
  bytesIn,
  isOffline,
  lossRate,
  queueBoundBytes,
  rateKbps,
  roundTripMs,
  sampleDelayMs,
  segmentBytes,
  serialisationMs,
  type LinkDirection,
  type LinkProfile,
} from './profiles.ts';
import { seededRandom, type RandomSource } from './random.ts';

/** What a link schedule drives: a shaper, or anything else that wants to follow the link. */
export interface LinkControl {
  setProfile(profile: LinkProfile): void;
  setOutage(inOutage: boolean): void;
}

export interface LinkShaperOptions {
  /** Where accepted connections are forwarded to (the shore server). */
  target: { host?: string; port: number };
  profile: LinkProfile;
  /** An outage (or OFFLINE) lasting longer than this destroys every connection. Default 15 s. */
  dropAfterMs?: number;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /**
   * Jitter source; default Math.random. The loss draws of each direction are seeded from it once
   * at construction, so a seeded source gives the same losses every run.
   */
  random?: RandomSource;
  /**
   * Packet loss as the profile says (`upLossPercent`, `downLossPercent`): each lost segment stalls
   * its connection's bytes about a round trip and halves that sender's congestion window. Default
   * true; false gives a loss-free link whatever the profile.
   */
  loss?: boolean;
  /** Called for every chunk delivered across the link. */
  onDeliver?: (direction: LinkDirection, bytes: number) => void;
}

export type LinkShaperEvents = {
  /** A chunk of `bytes` came out of the far end of the link. */
  delivered: [direction: LinkDirection, bytes: number];
  /** An outage outlasted dropAfterMs; `connections` were destroyed and new ones are refused. */
  drop: [connections: number];
  /** The link came back (profile no longer OFFLINE and no outage). */
  restore: [];
  /** A connection through the link failed (e.g. the target refused); it has been torn down. */
  connectionError: [error: Error];
  /** Segments were lost and are being retransmitted (see `LinkLoss`). */
  loss: [loss: LinkLoss];
};

/** One loss on the link, as the shaper reports it. */
export interface LinkLoss {
  readonly direction: LinkDirection;
  /** Where in the direction's byte stream (all its connections together) the lost segment begins. */
  readonly offset: number;
  /** Segments lost: the first, plus its retransmissions lost again. */
  readonly segments: number;
  /** How much later the connection's bytes from there on arrive (a round trip per sending). */
  readonly stallMs: number;
  /**
   * When the lost segment went onto the link (performance.now()'s clock, the link's own schedule:
   * it arrives one delay plus `stallMs` after its sending ended, however late timers run).
   */
  readonly sentAt: number;
  /** Whether the connection's sender halves its congestion window for it (once per window). */
  readonly windowCut: boolean;
}

export interface LinkDirectionStats {
  /** Bytes read from senders and not yet on the wire. */
  queuedBytes: number;
  /** Bytes serialised and propagating (or held by an outage), not yet delivered. */
  inFlightBytes: number;
  /** The queue size at which senders are paused. */
  boundBytes: number;
  /** Connections whose sender is paused by backpressure. */
  pausedSenders: number;
  /** Segments lost so far (each recovered by retransmission; nothing is lost for the receiver). */
  lostSegments: number;
  /** Bytes sent again for those losses (link time they took from other data). */
  retransmittedBytes: number;
  /** Milliseconds the losses held up delivery in total (one round trip or more each). */
  stalledMs: number;
  /** Times a sender's congestion window was halved. */
  windowCuts: number;
  /** Connections whose congestion window is below the link's rate now (growing back after a loss). */
  limitedSenders: number;
}

export const DEFAULT_DROP_AFTER_MS = 15_000;

const now = (): number => performance.now();

interface InFlight {
  /** null is the sender's FIN, delivered in order after its data. */
  readonly chunk: Buffer | null;
  deliverAt: number;
}

/** One direction of one proxied connection. */
class Flow {
  readonly #queue: (Buffer | null)[] = [];
  #queuedBytes = 0;
  readonly #inFlight: InFlight[] = [];
  #inFlightBytes = 0;
  #lastDeliverAt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  paused = false;
  /** This sender's congestion window (unlimited until the link loses one of its segments). */
  readonly window = new CongestionWindow();

  constructor(
    readonly lane: Lane,
    readonly source: net.Socket,
    readonly dest: net.Socket,
  ) {}

  get queuedBytes(): number {
    return this.#queuedBytes;
  }

  get inFlightBytes(): number {
    return this.#inFlightBytes;
  }

  get hasQueued(): boolean {
    return this.#queue.length > 0;
  }

  enqueue(chunk: Buffer | null): void {
    this.#queue.push(chunk);
    if (chunk) this.#queuedBytes += chunk.length;
  }

  /** Takes at most `max` bytes (or the FIN marker) from the head of the queue for serialisation. */
  take(max: number): Buffer | null | undefined {
    if (this.#queue.length === 0) return undefined;
    const head = this.#queue[0];
    if (head === undefined) return undefined;
    if (head === null || head.length <= max) {
      this.#queue.shift();
      if (head) this.#queuedBytes -= head.length;
      return head;
    }
    this.#queue[0] = head.subarray(max);
    this.#queuedBytes -= max;
    return head.subarray(0, max);
  }

  /** A serialised chunk starts propagating; it arrives at `deliverAt` (never before earlier ones). */
  propagate(chunk: Buffer | null, deliverAt: number): void {
    const at = Math.max(deliverAt, this.#lastDeliverAt);
    this.#lastDeliverAt = at;
    this.#inFlight.push({ chunk, deliverAt: at });
    if (chunk) this.#inFlightBytes += chunk.length;
    this.#arm();
  }

  /** The link came back: what was held arrives no sooner than one delay from now. */
  restore(earliest: number): void {
    for (const item of this.#inFlight) item.deliverAt = Math.max(item.deliverAt, earliest);
    const last = this.#inFlight.at(-1);
    if (last) this.#lastDeliverAt = Math.max(this.#lastDeliverAt, last.deliverAt);
    this.#arm();
  }

  /** The link went down: stop delivering until `restore`. */
  hold(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  dispose(): void {
    this.hold();
    this.lane.remove(this);
  }

  #arm(): void {
    if (this.#timer || this.lane.isDown) return;
    const head = this.#inFlight[0];
    if (!head) return;
    const wait = head.deliverAt - now();
    if (wait <= 0) {
      this.#deliverDue();
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#deliverDue();
    }, Math.ceil(wait));
  }

  #deliverDue(): void {
    const t = now();
    for (;;) {
      if (this.lane.isDown) return;
      const head = this.#inFlight[0];
      if (!head || head.deliverAt > t) break;
      this.#inFlight.shift();
      if (this.dest.destroyed) continue;
      if (head.chunk === null) {
        this.dest.end();
        continue;
      }
      this.#inFlightBytes -= head.chunk.length;
      this.dest.write(head.chunk);
      this.lane.delivered(head.chunk.length);
    }
    this.lane.updateBackpressure();
    this.#arm();
  }
}

interface OnTheWire {
  readonly flow: Flow;
  readonly chunk: Buffer | null;
  readonly endsAt: number;
  /** Added to its delivery: the retransmission of a lost segment (0 when none was lost). */
  readonly stallMs: number;
}

interface LossCounts {
  lostSegments: number;
  retransmittedBytes: number;
  stalledMs: number;
  windowCuts: number;
}

/** One direction of the link, shared by every connection through the shaper. */
class Lane {
  readonly #flows: Flow[] = [];
  #next = 0;
  #queuedBytes = 0;
  #linkFreeAt = 0;
  #current: OnTheWire | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Waits for an acknowledgement to open a congestion window when nothing else can go. */
  #ackTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #loss: LossDraw;
  readonly #counts: LossCounts = { lostSegments: 0, retransmittedBytes: 0, stalledMs: 0, windowCuts: 0 };

  constructor(
    readonly direction: LinkDirection,
    readonly link: LinkShaper,
    readonly onDelivered: (n: number) => void,
    lossRandom: RandomSource,
  ) {
    this.#loss = new LossDraw(lossRandom);
  }

  get isDown(): boolean {
    return this.link.isDown;
  }

  get kbps(): number {
    return rateKbps(this.link.profile, this.direction);
  }

  get boundBytes(): number {
    return queueBoundBytes(this.kbps);
  }

  stats(): LinkDirectionStats {
    let inFlightBytes = this.#current?.chunk?.length ?? 0;
    let pausedSenders = 0;
    let limitedSenders = 0;
    for (const f of this.#flows) {
      inFlightBytes += f.inFlightBytes;
      if (f.paused) pausedSenders++;
      if (f.window.limited) limitedSenders++;
    }
    return {
      queuedBytes: this.#queuedBytes,
      inFlightBytes,
      boundBytes: this.boundBytes,
      pausedSenders,
      ...this.#counts,
      stalledMs: Math.round(this.#counts.stalledMs),
      limitedSenders,
    };
  }

  add(flow: Flow): void {
    this.#flows.push(flow);
  }

  remove(flow: Flow): void {
    const i = this.#flows.indexOf(flow);
    if (i < 0) return;
    this.#flows.splice(i, 1);
    this.#queuedBytes -= flow.queuedBytes;
    if (this.#next > i) this.#next--;
    if (this.#current?.flow === flow) this.#current = undefined;
    this.updateBackpressure();
  }

  push(flow: Flow, chunk: Buffer | null): void {
    flow.enqueue(chunk);
    if (chunk) this.#queuedBytes += chunk.length;
    this.updateBackpressure();
    this.pump();
  }

  delivered(n: number): void {
    this.onDelivered(n);
  }

  /**
   * Senders stop being read while the link's queue is over its bound (or the receiver does not keep
   * up), so backpressure reaches the sending application just as on a slow real link.
   */
  updateBackpressure(): void {
    const bound = this.boundBytes;
    const queueFull = this.#queuedBytes >= bound;
    for (const f of this.#flows) {
      const pause = queueFull || f.dest.writableLength >= bound;
      if (pause === f.paused) continue;
      f.paused = pause;
      if (pause) f.source.pause();
      else if (!f.source.destroyed) f.source.resume();
    }
  }

  /**
   * Moves data across the link: one segment on the wire at a time, each occupying it for
   * bytes*8/kbps ms. Time is kept as a virtual "link free at" so late timers do not lower the rate.
   */
  pump(): void {
    if (this.#timer) return;
    if (this.#ackTimer) clearTimeout(this.#ackTimer);
    this.#ackTimer = undefined;
    const t = now();
    let chained = false;
    for (;;) {
      const current = this.#current;
      if (current) {
        if (current.endsAt > t) {
          this.#timer = setTimeout(() => {
            this.#timer = undefined;
            this.pump();
          }, Math.ceil(current.endsAt - t));
          return;
        }
        this.#current = undefined;
        current.flow.propagate(current.chunk, current.endsAt + this.link.sampleDelayMs() + current.stallMs);
        chained = true;
      }
      const kbps = this.kbps;
      if (this.isDown || kbps <= 0) return;
      const start = chained ? this.#linkFreeAt : Math.max(t, this.#linkFreeAt);
      const profile = this.link.profile;
      this.#loss.setRate(this.link.lossEnabled ? lossRate(profile, this.direction) : 0);
      // A chunk ends where the next lost segment begins, so only what follows a loss waits for it.
      const beforeLoss = this.#loss.bytesBeforeLoss();
      const max = beforeLoss > 0 ? Math.min(segmentBytes(kbps), beforeLoss) : segmentBytes(kbps);
      const rttMs = roundTripMs(profile);
      const picked = this.#takeSegment(max, start, bytesIn(rttMs, kbps) + segmentBytes(kbps));
      if (!picked) {
        this.#awaitAck(t);
        return;
      }
      const [flow, chunk] = picked;
      const endsAt = start + (chunk ? serialisationMs(chunk.length, kbps) : 0);
      this.#linkFreeAt = endsAt;
      let stallMs = 0;
      if (chunk) {
        const offset = this.#loss.offset;
        const lost = this.#loss.carry(chunk.length);
        if (lost > 0) {
          stallMs = this.#lose(flow, chunk.length, offset, lost, start, rttMs);
          // The retransmission takes link time from whatever comes next.
          this.#linkFreeAt += serialisationMs(Math.min(chunk.length, lost * LOSS_SEGMENT_BYTES), kbps);
        }
        // A loss-free link keeps no window books: everything goes as it did before loss existed.
        if (this.#loss.rate > 0 || flow.window.limited) flow.window.sent(chunk.length, endsAt + rttMs + stallMs);
      }
      this.#current = { flow, chunk, endsAt, stallMs };
      if (chunk) this.#queuedBytes -= chunk.length;
      this.updateBackpressure();
    }
  }

  /**
   * `lost` segments of `flow`'s chunk of `bytes` sent at `sentAt` were lost: TCP notices about a
   * round trip later and retransmits, so the chunk (and, in order, everything behind it) arrives a
   * round trip later — more if the retransmission is lost too — and the sender's window halves.
   * Returns the delay added.
   */
  #lose(flow: Flow, bytes: number, offset: number, lost: number, sentAt: number, rttMs: number): number {
    const sends = this.#loss.retransmissions();
    let stallMs = 0;
    for (let i = 0; i < sends; i++) stallMs += this.link.sampleDelayMs() + this.link.sampleDelayMs();
    const cut = flow.window.lose(sentAt, sentAt + rttMs);
    const resent = Math.min(bytes, lost * LOSS_SEGMENT_BYTES) * sends;
    this.#counts.lostSegments += lost + sends - 1;
    this.#counts.retransmittedBytes += resent;
    this.#counts.stalledMs += stallMs;
    if (cut) this.#counts.windowCuts++;
    this.link.emit('loss', { direction: this.direction, offset, segments: lost + sends - 1, stallMs, sentAt, windowCut: cut });
    return stallMs;
  }

  /** Nothing could go: if a congestion window holds data back, wake when it opens. */
  #awaitAck(t: number): void {
    let next = Infinity;
    for (const f of this.#flows) {
      if (!f.hasQueued) continue;
      const at = f.window.nextAckAt;
      if (at !== undefined) next = Math.min(next, at);
    }
    if (next === Infinity) return;
    this.#ackTimer = setTimeout(
      () => {
        this.#ackTimer = undefined;
        this.pump();
      },
      Math.max(0, Math.ceil(next - t)),
    );
  }

  /**
   * Round robin over connections with queued data: a ship's connections share its uplink. A
   * connection whose congestion window is full waits for acknowledgements (at time `t`);
   * `ceiling` is the window at which it no longer limits (what the link carries in a round trip).
   */
  #takeSegment(max: number, t: number, ceiling: number): [Flow, Buffer | null] | undefined {
    const n = this.#flows.length;
    for (let k = 0; k < n; k++) {
      const i = (this.#next + k) % n;
      const flow = this.#flows[i];
      if (!flow?.hasQueued) continue;
      flow.window.ack(t, ceiling);
      const room = flow.window.room();
      if (room < Math.min(LOSS_SEGMENT_BYTES, flow.queuedBytes)) continue;
      const chunk = flow.take(Math.min(max, Math.max(Math.floor(room), LOSS_SEGMENT_BYTES)));
      if (chunk === undefined) continue;
      this.#next = (i + 1) % n;
      return [flow, chunk];
    }
    return undefined;
  }

  onDown(): void {
    for (const f of this.#flows) f.hold();
  }

  onRestore(earliest: number): void {
    for (const f of this.#flows) f.restore(earliest);
    this.pump();
  }

  dispose(): void {
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#ackTimer) clearTimeout(this.#ackTimer);
    this.#timer = undefined;
    this.#ackTimer = undefined;
    this.#current = undefined;
  }
}

class Connection {
  readonly up: Flow;
  readonly down: Flow;
  #closed = false;
  #connected = false;

  constructor(
    readonly link: LinkShaper,
    readonly client: net.Socket,
    readonly target: net.Socket,
    upLane: Lane,
    downLane: Lane,
    readonly onClosed: (c: Connection) => void,
  ) {
    this.up = new Flow(upLane, client, target);
    this.down = new Flow(downLane, target, client);
    upLane.add(this.up);
    downLane.add(this.down);
    for (const [flow, lane] of [
      [this.up, upLane],
      [this.down, downLane],
    ] as const) {
      flow.source.on('data', (chunk: Buffer) => lane.push(flow, chunk));
      flow.source.on('end', () => lane.push(flow, null));
      flow.dest.on('drain', () => lane.updateBackpressure());
    }
    const fail = (err: Error): void => {
      if (this.#closed) return;
      this.destroy();
      this.link.emit('connectionError', err);
    };
    client.on('error', fail);
    target.on('error', fail);
    // A side closing with an error (reset) takes the other with it; a graceful close has already
    // passed its FIN across the link.
    client.on('close', (hadError) => (hadError ? this.destroy() : this.#maybeDone()));
    target.on('close', (hadError) => (hadError ? this.destroy() : this.#maybeDone()));
    client.setNoDelay(true);
  }

  /** Opens the shore side; deferred while the link is down, as no SYN would cross it. */
  connect(host: string, port: number): void {
    if (this.#connected || this.#closed) return;
    this.#connected = true;
    this.target.connect({ host, port }, () => this.target.setNoDelay(true));
  }

  get isConnected(): boolean {
    return this.#connected;
  }

  destroy(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.up.dispose();
    this.down.dispose();
    this.client.destroy();
    this.target.destroy();
    this.onClosed(this);
  }

  #maybeDone(): void {
    if (this.client.destroyed && (this.target.destroyed || !this.#connected)) this.destroy();
  }
}

/**
 * A TCP proxy that behaves like a ship's link: one-way delay with jitter, a bandwidth per direction
 * shared by all its connections, backpressure on the senders, outages that hold data and, when long,
 * drop every connection. "up" is the connecting client (the ship) → target (shore).
 */
export class LinkShaper extends EventEmitter<LinkShaperEvents> implements LinkControl {
  #profile: LinkProfile;
  #outage = false;
  #down: boolean;
  #refusing = false;
  #closed = false;
  #dropTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #bytes = { up: 0, down: 0 };
  readonly #connections = new Set<Connection>();
  readonly #server: net.Server;
  readonly #lanes: { up: Lane; down: Lane };
  readonly #targetHost: string;
  readonly #targetPort: number;
  readonly #host: string;
  readonly #dropAfterMs: number;
  readonly #random: RandomSource;
  readonly #loss: boolean;
  readonly #onDeliver: ((direction: LinkDirection, bytes: number) => void) | undefined;

  constructor(options: LinkShaperOptions) {
    super();
    this.#profile = options.profile;
    this.#targetHost = options.target.host ?? '127.0.0.1';
    this.#targetPort = options.target.port;
    this.#host = options.host ?? '127.0.0.1';
    this.#dropAfterMs = options.dropAfterMs ?? DEFAULT_DROP_AFTER_MS;
    this.#random = options.random ?? Math.random;
    this.#loss = options.loss ?? true;
    this.#onDeliver = options.onDeliver;
    // Each direction draws its losses from its own stream, so jitter draws do not move them.
    const lossSeed = Math.floor(this.#random() * 0x1_0000_0000);
    const counted = (direction: LinkDirection) => (n: number) => {
      this.#bytes[direction] += n;
      this.#onDeliver?.(direction, n);
      this.emit('delivered', direction, n);
    };
    this.#lanes = {
      up: new Lane('up', this, counted('up'), seededRandom(lossSeed)),
      down: new Lane('down', this, counted('down'), seededRandom(lossSeed ^ 0x5bd1e995)),
    };
    this.#down = isOffline(this.#profile);
    this.#server = net.createServer({ allowHalfOpen: true }, (socket) => this.#accept(socket));
    if (this.#down) this.#armDrop();
  }

  /** Starts listening; resolves with the port (also `.port`). */
  listen(port = 0): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, this.#host, () => {
        this.#server.off('error', reject);
        resolve(this.port);
      });
    });
  }

  get port(): number {
    const address = this.#server.address();
    if (!address || typeof address === 'string') throw new Error('LinkShaper is not listening');
    return address.port;
  }

  get profile(): LinkProfile {
    return this.#profile;
  }

  /** True while nothing crosses the link (OFFLINE profile or an outage). */
  get isDown(): boolean {
    return this.#down;
  }

  /** True after a long outage dropped the connections, until the link is back. */
  get isRefusing(): boolean {
    return this.#refusing;
  }

  get inOutage(): boolean {
    return this.#outage;
  }

  /** False when the shaper was made loss-free (`loss: false`); otherwise the profile's loss applies. */
  get lossEnabled(): boolean {
    return this.#loss;
  }

  /** Cumulative bytes delivered across the link per direction. */
  get bytes(): { readonly up: number; readonly down: number } {
    return { up: this.#bytes.up, down: this.#bytes.down };
  }

  get connectionCount(): number {
    return this.#connections.size;
  }

  stats(direction: LinkDirection): LinkDirectionStats {
    return this.#lanes[direction].stats();
  }

  /** Changes the link's figures; data already on the wire keeps the old rate, queued data the new. */
  setProfile(profile: LinkProfile): void {
    this.#profile = profile;
    this.#update();
    this.#lanes.up.updateBackpressure();
    this.#lanes.down.updateBackpressure();
  }

  /** An outage on the current profile (Iridium dropping out): bytes wait; long ones drop connections. */
  setOutage(inOutage: boolean): void {
    this.#outage = inOutage;
    this.#update();
  }

  /** One one-way delay with the current profile's jitter. */
  sampleDelayMs(): number {
    return sampleDelayMs(this.#profile, this.#random);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#clearDrop();
    for (const c of [...this.#connections]) c.destroy();
    this.#lanes.up.dispose();
    this.#lanes.down.dispose();
    if (!this.#server.listening) return;
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #update(): void {
    const down = this.#outage || isOffline(this.#profile);
    if (down === this.#down) {
      if (!down) {
        this.#lanes.up.pump();
        this.#lanes.down.pump();
      }
      return;
    }
    this.#down = down;
    if (down) {
      this.#lanes.up.onDown();
      this.#lanes.down.onDown();
      this.#armDrop();
      return;
    }
    this.#clearDrop();
    this.#refusing = false;
    const earliest = performance.now() + this.#profile.oneWayDelayMs;
    for (const c of this.#connections) c.connect(this.#targetHost, this.#targetPort);
    this.#lanes.up.onRestore(earliest);
    this.#lanes.down.onRestore(earliest);
    this.emit('restore');
  }

  #armDrop(): void {
    this.#clearDrop();
    this.#dropTimer = setTimeout(() => {
      this.#dropTimer = undefined;
      if (!this.#down || this.#closed) return;
      this.#refusing = true;
      const dropped = [...this.#connections];
      for (const c of dropped) c.destroy();
      this.emit('drop', dropped.length);
    }, this.#dropAfterMs);
    this.#dropTimer.unref();
  }

  #clearDrop(): void {
    if (this.#dropTimer) clearTimeout(this.#dropTimer);
    this.#dropTimer = undefined;
  }

  #accept(client: net.Socket): void {
    if (this.#closed || this.#refusing) {
      client.on('error', () => {});
      client.destroy();
      return;
    }
    const target = new net.Socket({ allowHalfOpen: true });
    const connection = new Connection(this, client, target, this.#lanes.up, this.#lanes.down, (c) =>
      this.#connections.delete(c),
    );
    this.#connections.add(connection);
    if (!this.#down) connection.connect(this.#targetHost, this.#targetPort);
  }
}
