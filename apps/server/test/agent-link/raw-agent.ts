/**
 * A ship agent reduced to its link: it dials the real agent link with a ship's key, says the hello
 * it is given, keeps every message (checked against the link's schema, as a real agent checks it)
 * and binary frame shore sends, and sends whatever a test tells it to — including what a real
 * agent would never send (another ship's stream ids, an old hello, unknown kinds).
 */
import WebSocket from 'ws';
import {
  AGENT_HEADERS,
  AGENT_LINK_MIN_VERSION,
  AGENT_LINK_VERSION,
  type AgentMessage,
  type InboxKind,
  type LinkFrame,
  PATHS,
  type ShoreMessage,
  checkShoreMessage,
  encodeStreamFrame,
  parseLinkFrame,
  wsFrameOverhead,
} from '@ship-cctv/protocol';

export interface RawAgentOptions {
  /** The hello to send on open (undefined: none); fields override a current-version hello. */
  hello?: Record<string, unknown> | undefined;
  capabilities?: string[];
  /** Inboxes asked for (`outbox`) as soon as shore welcomes the hello, as an agent with something to send does. */
  asks?: InboxKind[];
  /** Answered to every message shore sends (the agent's behaviour). */
  onMessage?: (msg: ShoreMessage, agent: RawAgent) => void;
}

export class RawAgent {
  readonly received: ShoreMessage[] = [];
  readonly frames: LinkFrame[] = [];
  closed: { code: number; reason: string } | undefined;
  /** Bytes sent so far as on the wire, WebSocket framing included (what shore acknowledges). */
  sentBytes = 0;
  private waiters: (() => void)[] = [];

  private constructor(private readonly ws: WebSocket) {}

  static async connect(port: number, shipId: string, key: string, opts: RawAgentOptions = {}): Promise<RawAgent> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${PATHS.agentLink}`, {
      headers: { [AGENT_HEADERS.shipId]: shipId, [AGENT_HEADERS.authorization]: `Ship ${key}` },
    });
    const agent = new RawAgent(ws);
    ws.on('message', (data, isBinary) => {
      const buf = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
      if (isBinary) {
        const parsed = parseLinkFrame(buf);
        if (!parsed.ok) throw new Error(`shore sent a frame the agent would refuse: ${parsed.message}`);
        agent.frames.push(parsed.frame);
      } else {
        const checked = checkShoreMessage(JSON.parse(buf.toString('utf8')));
        if (!checked.ok) throw new Error(`shore sent a message the agent would refuse: ${checked.error}`);
        agent.received.push(checked.message);
        if (checked.message.type === 'welcome') for (const kind of opts.asks ?? []) agent.send({ type: 'outbox', kind });
        opts.onMessage?.(checked.message, agent);
      }
      agent.wake();
    });
    ws.on('close', (code, reason) => {
      agent.closed = { code, reason: reason.toString() };
      agent.wake();
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    if (opts.hello !== undefined) {
      agent.sendRaw({
        type: 'hello',
        protocol: { min: AGENT_LINK_MIN_VERSION, max: AGENT_LINK_VERSION },
        agentVersion: 'raw',
        capabilities: opts.capabilities ?? ['live', 'playback'],
        link: { linkType: 'VSAT', quality: 80, duplex: 'BOTH' },
        cameras: [],
        ...opts.hello,
      });
    }
    return agent;
  }

  send(msg: AgentMessage): void {
    this.sendRaw(msg);
  }

  /** Sends any JSON, valid or not. */
  sendRaw(value: unknown): void {
    const text = JSON.stringify(value);
    this.sentBytes += Buffer.byteLength(text) + wsFrameOverhead(Buffer.byteLength(text), true);
    this.ws.send(text);
  }

  sendFrame(kind: number, streamId: number, payload: Uint8Array): void {
    const frame = encodeStreamFrame(kind, streamId, payload);
    this.sentBytes += frame.length + wsFrameOverhead(frame.length, true);
    this.ws.send(frame, { binary: true });
  }

  of<T extends ShoreMessage['type']>(type: T): Extract<ShoreMessage, { type: T }>[] {
    return this.received.filter((m): m is Extract<ShoreMessage, { type: T }> => m.type === type);
  }

  async until(pred: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pred()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`raw agent: no ${what} within ${timeoutMs} ms; received ${JSON.stringify(this.received.slice(-6))}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}
