import WebSocket from 'ws';
import { PATHS, type TalkServerMessage, packTalkPackets } from '@ship-cctv/protocol';

/** A talk client as the browser is one: a media socket of its own, talk.start, packed Opus packets, talk.stop. */
export class TalkClient {
  readonly messages: TalkServerMessage[] = [];
  closed = false;
  private waiters: (() => void)[] = [];

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      if (!isBinary) this.messages.push(JSON.parse(String(data)) as TalkServerMessage);
      this.wake();
    });
    ws.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }

  static async open(port: number, token: string): Promise<TalkClient> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${PATHS.media}?token=${encodeURIComponent(token)}`);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new TalkClient(ws);
  }

  start(cameraId: string, format: 'opus' | 'webm' = 'opus'): void {
    this.ws.send(JSON.stringify({ type: 'talk.start', cameraId, format }));
  }

  /** One voice message: these packets packed. Answers the bytes sent. */
  sendPackets(packets: readonly Uint8Array[]): number {
    const packed = packTalkPackets(packets);
    this.ws.send(packed, { binary: true });
    return packed.length;
  }

  /** Bytes as they are (the MediaRecorder fallback's WebM). */
  sendBytes(bytes: Uint8Array): void {
    this.ws.send(bytes, { binary: true });
  }

  stop(): void {
    this.ws.send(JSON.stringify({ type: 'talk.stop' }));
  }

  terminate(): void {
    this.ws.terminate();
  }

  async waitFor<T extends TalkServerMessage['type']>(type: T, timeoutMs = 10_000): Promise<Extract<TalkServerMessage, { type: T }>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find((m): m is Extract<TalkServerMessage, { type: T }> => m.type === type);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0 || this.closed) throw new Error(`talk client: no ${type} (got ${JSON.stringify(this.messages)})`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}
