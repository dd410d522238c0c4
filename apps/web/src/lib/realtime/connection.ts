import { Client, type IFrame } from '@stomp/stompjs';
import { CODES, LIMITS } from '@ship-cctv/protocol';
import { DestinationStore } from './store.ts';

/** STOMP 1.2 over WebSocket, the subprotocol the shore server speaks. */
const STOMP_SUBPROTOCOLS = ['v12.stomp'];

/** ws:// or wss:// (by the page's protocol) to `path` on the page's own host (spec §7). */
export function brokerUrl(path: string, location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${path.startsWith('/') ? path : `/${path}`}`;
}

/** Code of an ERROR frame whose body is the `{code, message, data}` envelope, if it is one. */
export function errorFrameCode(frame: Pick<IFrame, 'body'>): number | undefined {
  try {
    const parsed: unknown = JSON.parse(frame.body);
    const code = (parsed as { code?: unknown } | null)?.code;
    return typeof code === 'number' ? code : undefined;
  } catch {
    return undefined;
  }
}

export type RealtimeSessionEnded = (code: number) => void;

/**
 * The tab's one STOMP connection plus its destination store. `start` on sign-in, `stop` on
 * sign-out; the store survives (it is what views hold on to) and is reset by `stop`.
 */
export class RealtimeConnection {
  readonly store = new DestinationStore();
  private client: Client | null = null;
  private readonly sessionEndedListeners = new Set<RealtimeSessionEnded>();

  get active(): boolean {
    return this.client !== null;
  }

  start(path: string): void {
    if (this.client) return;
    const client = new Client({
      brokerURL: brokerUrl(path),
      webSocketFactory: () => new WebSocket(brokerUrl(path), STOMP_SUBPROTOCOLS),
      // Spec §7: empty login and passcode; the newOrgToken cookie on the upgrade authenticates.
      connectHeaders: { login: '', passcode: '' },
      heartbeatIncoming: LIMITS.socketHeartbeatMs,
      heartbeatOutgoing: LIMITS.socketHeartbeatMs,
      reconnectDelay: LIMITS.socketReconnectMs,
      debug: () => undefined,
    });
    client.onConnect = () => this.store.connected(client);
    client.onWebSocketClose = () => this.store.disconnected();
    client.onStompError = (frame) => {
      // A client already stopped (sign-out) may still read the ERROR its own logout caused: that
      // is not a session ending elsewhere.
      if (this.client !== client) return;
      const code = errorFrameCode(frame);
      if (code === CODES.unauthorized || code === CODES.displaced) {
        for (const listener of [...this.sessionEndedListeners]) listener(code);
      }
    };
    this.client = client;
    client.activate();
  }

  /** Disconnects and forgets every value (sign-out). */
  stop(): void {
    const client = this.client;
    this.client = null;
    this.store.reset();
    if (client) void client.deactivate();
  }

  /** A STOMP ERROR with code 401/402 ended the session (spec §8); answers an unsubscribe function. */
  onSessionEnded(listener: RealtimeSessionEnded): () => void {
    this.sessionEndedListeners.add(listener);
    return () => this.sessionEndedListeners.delete(listener);
  }
}

/** The app's one connection (one per signed-in tab). */
export const realtime = new RealtimeConnection();
