import type { TalkEndReason, TalkErrorCode, TalkFormat, TalkServerMessage } from '@ship-cctv/protocol';

export interface TalkConnectionEvents {
  started(maxSeconds: number): void;
  /** The talk ended on shore's side (`stopped` after our own stop is not reported). */
  ended(reason: TalkEndReason, message: string): void;
  refused(code: TalkErrorCode, message: string, holder: string | undefined): void;
  /** The socket closed without a word: the server or the network went. */
  lost(): void;
}

/**
 * One talk's media socket: `talk.start` first, then the voice as binary messages (held while the
 * socket opens), `talk.stop` at the end. The session cookie authenticates it as every media socket.
 */
export class TalkConnection {
  private readonly ws: WebSocket;
  private readonly queue: Uint8Array<ArrayBuffer>[] = [];
  private over = false;

  constructor(url: string, cameraId: string, format: TalkFormat, private readonly events: TalkConnectionEvents) {
    this.ws = new WebSocket(url);
    this.ws.binaryType = 'arraybuffer';
    this.ws.onopen = () => {
      this.ws.send(JSON.stringify({ type: 'talk.start', cameraId, format }));
      for (const p of this.queue.splice(0)) this.ws.send(p);
    };
    this.ws.onmessage = (e) => {
      if (typeof e.data !== 'string' || this.over) return;
      const msg = JSON.parse(e.data) as TalkServerMessage;
      if (msg.type === 'talk.started') this.events.started(msg.maxSeconds);
      else if (msg.type === 'talk.ended') this.finish(() => this.events.ended(msg.reason, msg.message ?? ''));
      else this.finish(() => this.events.refused(msg.code, msg.message, msg.holder));
    };
    this.ws.onclose = () => this.finish(() => this.events.lost());
  }

  send(payload: Uint8Array<ArrayBuffer>): void {
    if (this.over) return;
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(payload);
    else if (this.ws.readyState === WebSocket.CONNECTING) this.queue.push(payload);
  }

  /** The operator ends the talk. */
  stop(): void {
    if (this.over) return;
    this.over = true;
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: 'talk.stop' }));
    this.ws.close(1000, 'talk over');
  }

  private finish(report: () => void): void {
    if (this.over) return;
    this.over = true;
    report();
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(1000, 'talk over');
  }
}
