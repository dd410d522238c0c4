import type { MediaClientMessage } from '@ship-cctv/protocol';
import type { SocketConstructor, SocketLike } from './types.ts';

const SOCKET_OPEN = 1;

export interface MediaSocketHandlers {
  /** The socket opened: send the command that starts the stream. */
  open(): void;
  text(text: string): void;
  binary(bytes: Uint8Array<ArrayBuffer>): void;
  /** The server or the network closed it (not `drop`). */
  closed(): void;
}

/**
 * The media socket (PATHS.media) of one player: one WebSocket at a time, JSON commands out, JSON
 * events and binary fMP4 in. Every socket is a session: what an old one still delivers after it
 * was dropped or replaced is ignored. When to open again is the player's decision, not this one's.
 */
export class MediaSocket {
  private socket: SocketLike | undefined;
  private current = 0;

  constructor(
    private readonly Socket: SocketConstructor,
    private readonly url: () => string,
  ) {}

  /** Counts sockets: a callback remembers it and checks it is still current. */
  get session(): number {
    return this.current;
  }

  get connected(): boolean {
    return this.socket !== undefined;
  }

  get isOpen(): boolean {
    return this.socket?.readyState === SOCKET_OPEN;
  }

  /** Opens a new socket (the previous one must have been dropped or closed). */
  open(on: MediaSocketHandlers): void {
    const session = ++this.current;
    const socket = new this.Socket(this.url());
    socket.binaryType = 'arraybuffer';
    socket.onopen = () => {
      if (session === this.current) on.open();
    };
    socket.onmessage = (ev) => {
      if (session !== this.current) return;
      if (typeof ev.data === 'string') on.text(ev.data);
      else if (ev.data instanceof ArrayBuffer) on.binary(new Uint8Array(ev.data));
    };
    // An error is always followed by a close; the close decides.
    socket.onclose = () => {
      if (session !== this.current) return;
      this.socket = undefined;
      on.closed();
    };
    this.socket = socket;
  }

  send(message: MediaClientMessage): void {
    if (this.socket?.readyState === SOCKET_OPEN) this.socket.send(JSON.stringify(message));
  }

  /** Forgets the socket without a `closed` call; with `stop`, tells the server first. */
  drop(stop: boolean): void {
    const socket = this.socket;
    if (!socket) return;
    if (stop) this.send({ type: 'stop' });
    this.socket = undefined;
    this.current++;
    socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
    socket.close();
  }
}

/** A media socket URL for the page: a path resolves against it, http(s) becomes ws(s), the token goes as ?token=. */
export function mediaSocketUrl(path: string, token: string | undefined): string {
  const url = new URL(path, globalThis.location?.href);
  if (url.protocol === 'http:') url.protocol = 'ws:';
  if (url.protocol === 'https:') url.protocol = 'wss:';
  if (token) url.searchParams.set('token', token);
  return url.toString();
}
