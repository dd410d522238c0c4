import type { StompSubscriber } from '../lib/realtime/store.ts';

/** Records SUBSCRIBE/UNSUBSCRIBE as a STOMP client would send them, and lets a test publish. */
export class FakeStompClient implements StompSubscriber {
  connected = true;
  readonly log: string[] = [];
  private readonly handlers = new Map<string, (message: { body: string }) => void>();

  subscribe(destination: string, callback: (message: { body: string }) => void) {
    this.log.push(`SUB ${destination}`);
    this.handlers.set(destination, callback);
    return {
      unsubscribe: () => {
        this.log.push(`UNSUB ${destination}`);
        this.handlers.delete(destination);
      },
    };
  }

  publish(destination: string, body: unknown): void {
    this.handlers.get(destination)?.({ body: JSON.stringify(body) });
  }
}
