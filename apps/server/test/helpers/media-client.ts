import WebSocket from 'ws';
import { type MediaClientMessage, type MediaServerMessage, PATHS } from '@ship-cctv/protocol';

/**
 * A media-socket client as a player uses it: JSON commands out, JSON events and fMP4 bytes in.
 * Shared by the server's tests and the cross-application tests (tests/integration).
 */
export class MediaClient {
  readonly events: MediaServerMessage[] = [];
  readonly chunks: Buffer[] = [];
  /** Every message in arrival order: a JSON event's type, or "binary:" and the first box type. */
  readonly order: string[] = [];
  bytes = 0;
  closed: { code: number; reason: string } | undefined;
  private waiters: (() => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const buf = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
      if (isBinary) {
        this.chunks.push(buf);
        this.bytes += buf.length;
        this.order.push(`binary:${buf.subarray(4, 8).toString('latin1')}`);
      } else {
        const event = JSON.parse(buf.toString('utf8')) as MediaServerMessage;
        this.events.push(event);
        this.order.push(event.type);
      }
      this.wake();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
  }

  static open(port: number, token: string | undefined): Promise<MediaClient> {
    const url = `ws://127.0.0.1:${port}${PATHS.media}${token ? `?token=${encodeURIComponent(token)}` : ''}`;
    // A server that takes the connection but never answers the upgrade fails the open, not the test's timeout.
    const ws = new WebSocket(url, { handshakeTimeout: 15_000 });
    const client = new MediaClient(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client));
      ws.once('error', reject);
    });
  }

  send(msg: MediaClientMessage | Record<string, unknown>): void {
    this.ws.send(JSON.stringify(msg));
  }

  /** Waits until the predicate over what arrived so far holds. */
  async until(pred: (c: MediaClient) => boolean, timeoutMs = 15_000, what = 'condition'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pred(this)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`media client: no ${what} within ${timeoutMs} ms; events: ${JSON.stringify(this.events.slice(-8))}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  event<T extends MediaServerMessage['type']>(type: T, pred: (e: Extract<MediaServerMessage, { type: T }>) => boolean = () => true) {
    return this.events.find((e): e is Extract<MediaServerMessage, { type: T }> => e.type === type && pred(e as Extract<MediaServerMessage, { type: T }>));
  }

  /** Waits for the next error event after those already seen, and answers it. */
  async nextError(timeoutMs = 10_000): Promise<Extract<MediaServerMessage, { type: 'error' }>> {
    const seen = this.events.filter((e) => e.type === 'error').length;
    await this.until((c) => c.events.filter((e) => e.type === 'error').length > seen, timeoutMs, 'error');
    const errors = this.events.filter((e): e is Extract<MediaServerMessage, { type: 'error' }> => e.type === 'error');
    return errors[seen] as Extract<MediaServerMessage, { type: 'error' }>;
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }
}
