import { EventEmitter } from 'node:events';
import type { WebSocket } from 'ws';
import {
  AGENT_LINK_MIN_VERSION,
  AGENT_LINK_VERSION,
  type AgentMessage,
  BINARY_KIND,
  type BinaryKind,
  CLOSE_RETRY_LATER,
  CLOSE_UNSUPPORTED_VERSION,
  LINK_ACK_INTERVAL_MS,
  LINK_ACK_VERSION,
  type LinkKind,
  type LinkPurpose,
  type ParsedFrame,
  type ShoreMessage,
  type VersionRange,
  agreedVersion,
  checkAgentMessage,
  encodeStreamFrame,
  helloProtocol,
  isLinkKind,
  parseJson,
  parseLinkFrame,
  wsFrameOverhead,
} from '@ship-cctv/protocol';

export { wsFrameOverhead };

/** The link protocol versions this shore speaks. */
export const SHORE_VERSIONS: VersionRange = { min: AGENT_LINK_MIN_VERSION, max: AGENT_LINK_VERSION };

export interface LinkCounter {
  (direction: 'up' | 'down', purpose: LinkPurpose, bytes: number): void;
  /** A stream of this purpose opened on the link (its counters may start at zero now). */
  opened?: (purpose: LinkPurpose) => void;
}

export interface ConnectionEvents {
  /** A message that passed its schema. */
  message: [AgentMessage];
  /** A binary frame, decoded (or why it could not be). */
  frame: [ParsedFrame];
  /** What the agent sent was refused (answered with an error); for the log. */
  refused: [reason: string];
  close: [reason: string];
}

export interface LivenessOptions {
  /** A direction of the link quiet this long gets a ping (see AgentConnection). */
  pingMs: number;
  /** Silence after which the link is taken as lost. */
  timeoutMs: number;
}

/**
 * One agent's WebSocket on shore: decodes and counts every frame in both directions, and notices
 * a silent link (satellite outage) by ping/pong within `timeoutMs`, closing it so the ship goes
 * OFFLINE within seconds rather than when TCP gives up.
 *
 * Liveness works both ways. Shore pings when the agent has been quiet for `pingMs` (its pong, or
 * any byte, proves the link), and also when shore itself has sent the agent nothing for `pingMs`:
 * the agent gives up a link on which it hears nothing from shore (its silence timeout, 30 s), and
 * an agent busy sending video never goes quiet, so without this it would hear nothing at all for as
 * long as a stream or playback runs and drop a healthy link.
 */
export class AgentConnection extends EventEmitter<ConnectionEvents> {
  private lastHeard = Date.now();
  /** When shore last sent the agent anything (a message or a ping). */
  private lastSent = Date.now();
  private readonly timer: NodeJS.Timeout;
  private closed = false;
  private accepted: { protocol: number; capabilities: ReadonlySet<LinkKind>; features: ReadonlySet<string> } | undefined;
  /**
   * Bytes of WebSocket frames received from the agent (headers and payloads, as on the wire), and
   * how many of them it was told of (`link.ack`). Counted on the TCP socket when there is one.
   */
  private received = 0;
  private readonly countsRaw: boolean;
  private acknowledged = 0;
  private ackTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly shipId: string,
    private readonly ws: WebSocket,
    private readonly count: LinkCounter,
    liveness: LivenessOptions,
    /** The TCP socket under the WebSocket: any byte on it proves the link, even mid-frame. */
    raw?: { on(event: 'data', listener: (chunk: Uint8Array) => void): unknown },
  ) {
    super();
    // A 64 KiB video message takes over a second on FleetBroadband; bytes still flowing mean the
    // link is alive, even before the message is complete.
    raw?.on('data', (chunk: Uint8Array) => {
      this.lastHeard = Date.now();
      // What shore acknowledges is counted as it arrives, mid-message too: a 64 KiB message takes
      // over a second on FleetBroadband, and the agent's send window must see it arrive.
      this.received += chunk.length;
      this.scheduleAck();
    });
    this.countsRaw = raw !== undefined;
    ws.on('message', (data, isBinary) => this.receive(data, isBinary));
    ws.on('pong', (data) => {
      this.lastHeard = Date.now();
      this.count('up', 'control', data.length + wsFrameOverhead(data.length, true));
    });
    ws.on('close', (code, reason) => this.finish(`closed ${code} ${reason.toString()}`.trim()));
    ws.on('error', (err) => this.finish(`error ${err.message}`));
    this.timer = setInterval(() => {
      const now = Date.now();
      if (now - this.lastHeard > liveness.timeoutMs) {
        this.ws.terminate();
        this.finish('link silent');
        return;
      }
      // Any byte from the agent proves the link, and any message to it tells it shore is there: ping
      // only when one way or the other has been quiet (pings cost money on L-band; a ping and its
      // pong are 8 bytes).
      if (now - this.lastHeard < liveness.pingMs && now - this.lastSent < liveness.pingMs) return;
      this.ws.ping();
      this.lastSent = now;
      this.count('down', 'control', wsFrameOverhead(0, false));
    }, liveness.pingMs);
    this.timer.unref();
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /** A stream of `purpose` opened on this link: its byte counters start now (at zero) if they had not. */
  streamOpened(purpose: LinkPurpose): void {
    this.count.opened?.(purpose);
  }

  /** Bytes queued on shore for this ship's downlink, not yet handed to the network. */
  get bufferedAmount(): number {
    return this.ws.bufferedAmount;
  }

  /** Whether the agent has said hello on this connection (it is then ready for stream requests). */
  get ready(): boolean {
    return this.accepted !== undefined;
  }
  /** The link protocol version both ends speak (after hello). */
  get protocol(): number | undefined {
    return this.accepted?.protocol;
  }
  /** The kinds the agent said it handles (after hello). */
  get capabilities(): ReadonlySet<LinkKind> {
    return this.accepted?.capabilities ?? new Set();
  }
  /** Whether the agent's hello listed `feature` beside its link kinds (e.g. ENCODES_AV1_CAPABILITY). */
  offers(feature: string): boolean {
    return this.accepted?.features.has(feature) ?? false;
  }
  /** The hello was accepted: from now on shore may open streams of the agent's kinds. */
  markReady(protocol: number, capabilities: readonly string[]): void {
    this.accepted = {
      protocol,
      capabilities: new Set(capabilities.filter(isLinkKind)),
      features: new Set(capabilities.filter((c) => !isLinkKind(c))),
    };
    this.scheduleAck();
  }

  send(message: ShoreMessage): void {
    if (this.closed) return;
    const text = JSON.stringify(message);
    const bytes = Buffer.byteLength(text);
    this.ws.send(text);
    this.lastSent = Date.now();
    this.count('down', 'control', bytes + wsFrameOverhead(bytes, false));
  }

  /** Sends bytes of a stream down to the ship (talkback audio), counted under the stream's kind. */
  sendBinary(kind: BinaryKind, streamId: number, payload: Uint8Array): void {
    if (this.closed) return;
    const frame = encodeStreamFrame(BINARY_KIND[kind], streamId, payload);
    this.ws.send(frame, { binary: true });
    this.lastSent = Date.now();
    this.count('down', kind, frame.length + wsFrameOverhead(frame.length, false));
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.ws.close(code, reason);
    this.finish(reason);
  }

  /**
   * Tells an agent of version 3 or later what shore has received, at most every
   * LINK_ACK_INTERVAL_MS and only after something arrived: the agent's send window lives on it.
   */
  private scheduleAck(): void {
    if (this.closed || this.ackTimer || (this.accepted?.protocol ?? 0) < LINK_ACK_VERSION || this.received === this.acknowledged) return;
    this.ackTimer = setTimeout(() => {
      this.ackTimer = undefined;
      this.acknowledged = this.received;
      this.send({ type: 'link.ack', bytes: this.received });
    }, LINK_ACK_INTERVAL_MS);
  }

  private receive(data: Buffer | Buffer[] | ArrayBuffer, isBinary: boolean): void {
    this.lastHeard = Date.now();
    const buf = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    if (!this.countsRaw) {
      this.received += buf.length + wsFrameOverhead(buf.length, true);
      this.scheduleAck();
    }
    const overhead = wsFrameOverhead(buf.length, true);
    if (isBinary) {
      const parsed = parseLinkFrame(buf);
      const purpose: LinkPurpose = parsed.ok ? parsed.frame.kind : 'control';
      this.count('up', purpose, buf.length + overhead);
      this.emit('frame', parsed);
      return;
    }
    this.count('up', 'control', buf.length + overhead);
    const json = parseJson(buf.toString('utf8'));
    if (!json.ok) return this.refuse('badMessage', json.error);
    // Versions first: an agent too old (or too new) for this shore learns why, whatever else its hello says.
    const range = helloProtocol(json.value);
    if (range && agreedVersion(range, SHORE_VERSIONS) === undefined) {
      const reason =
        `agent link protocol ${range.min}–${range.max} is not supported: this shore speaks ` +
        `${SHORE_VERSIONS.min}–${SHORE_VERSIONS.max}; update the ship agent`;
      this.refuse('unsupportedVersion', reason);
      this.close(CLOSE_UNSUPPORTED_VERSION, 'unsupported agent link version');
      return;
    }
    const checked = checkAgentMessage(json.value);
    if (!checked.ok) return this.refuse('badMessage', checked.error);
    this.emit('message', checked.message);
  }

  /**
   * Refuses the agent's hello for now: tells it when to come back (`retryLater`) and closes the link.
   * Not a fault of the agent's: it is not reported as `refused`.
   */
  retryLater(retryAfterMs: number): void {
    this.send({ type: 'error', code: 'retryLater', message: `shore is taking many ships at once: dial again in ${Math.ceil(retryAfterMs / 1000)} s`, retryAfterMs });
    this.close(CLOSE_RETRY_LATER, 'come back later');
  }

  private refuse(code: 'badMessage' | 'unsupportedVersion', message: string): void {
    this.send({ type: 'error', code, message });
    this.emit('refused', `${code}: ${message}`);
  }

  private finish(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    clearTimeout(this.ackTimer);
    this.emit('close', reason);
  }
}
