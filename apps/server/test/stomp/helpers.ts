import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, type IFrame, type IMessage, type IStompSocket, type StompConfig } from '@stomp/stompjs';
import { WebSocket, WebSocketServer } from 'ws';
import { FrameParser, type OutgoingFrame, type StompFrame, serializeFrame } from '../../src/core/bus/stomp-frame.ts';
import { StompError, StompServer, type StompServerOptions } from '../../src/core/bus/stomp-server.ts';
import { STOMP_SUBPROTOCOL, chooseSubprotocol } from '../../src/core/http/websocket.ts';

/** Items pushed by event handlers, taken in order by a test; `next` waits for the next one. */
export class Inbox<T> {
  private readonly items: T[] = [];
  private readonly waiters: ((item: T) => void)[] = [];

  push(item: T): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter(item);
    else this.items.push(item);
  }

  get size(): number {
    return this.items.length;
  }

  /** The time-out only guards a broken test from hanging; nothing waits for it on success. */
  next(timeoutMs = 5000): Promise<T> {
    if (this.items.length > 0) return Promise.resolve(this.items.shift() as T);
    return new Promise<T>((resolve, reject) => {
      const waiter = (item: T) => {
        clearTimeout(timer);
        resolve(item);
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`nothing arrived within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }
}

export interface Principal {
  name: string;
  session: string;
}

export interface TestStomp {
  url: string;
  stomp: StompServer<Principal, IncomingMessage>;
  close(): Promise<void>;
}

/**
 * A StompServer on a real `ws` server on port 0. Passcode "token-NAME" signs in as NAME; anything
 * else is refused. NAME may subscribe to /public/... and to /private/NAME.
 */
export async function startStomp(opts: Partial<StompServerOptions<Principal, IncomingMessage>> = {}): Promise<TestStomp> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: chooseSubprotocol });
  await once(wss, 'listening');
  let sessions = 0;
  const stomp = new StompServer<Principal, IncomingMessage>({
    async authenticate({ headers }) {
      const token = headers.passcode ?? '';
      if (!token.startsWith('token-')) throw new StompError({ message: 'Authentication failed' });
      return { name: token.slice('token-'.length), session: `s${++sessions}` };
    },
    async authorizeSubscribe(principal, destination) {
      return destination.startsWith('/public/') || destination === `/private/${principal.name}`;
    },
    ...opts,
  });
  wss.on('connection', (ws, req) => stomp.handleConnection(ws, req));
  const { port } = wss.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/`,
    stomp,
    async close() {
      await stomp.close();
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** A stompjs client as the web app configures it: v12.stomp, heart-beats 1000/1000, no reconnect. */
export function stompClient(url: string, config: StompConfig = {}): Client {
  return new Client({
    webSocketFactory: () => new WebSocket(url, [STOMP_SUBPROTOCOL]) as unknown as IStompSocket,
    connectHeaders: { login: '', passcode: 'token-alice' },
    heartbeatIncoming: 1000,
    heartbeatOutgoing: 1000,
    reconnectDelay: 0,
    ...config,
  });
}

/** What a stompjs client saw: frames by kind and the socket's closing. */
export interface Observed {
  connected: Promise<IFrame>;
  errors: Inbox<IFrame>;
  closes: Inbox<number>;
}

/** Activates a stompjs client and watches it. `connected` rejects if an ERROR or a close comes first. */
export function observe(client: Client): Observed {
  const errors = new Inbox<IFrame>();
  const closes = new Inbox<number>();
  const connected = new Promise<IFrame>((resolve, reject) => {
    client.onConnect = resolve;
    client.onStompError = (frame) => {
      errors.push(frame);
      reject(new Error(`STOMP ERROR: ${frame.headers.message}`));
    };
    client.onWebSocketClose = (evt: { code: number }) => {
      closes.push(evt.code);
      reject(new Error(`closed with ${evt.code}`));
    };
  });
  // Tests that expect a refusal read `errors`; keep the rejection from being unhandled.
  connected.catch(() => {});
  client.activate();
  return { connected, errors, closes };
}

export async function connected(client: Client): Promise<IFrame> {
  return observe(client).connected;
}

/** A bare `ws` client speaking frames by hand, for what stompjs would never send. */
export class RawClient {
  readonly frames = new Inbox<StompFrame>();
  readonly heartBeats = new Inbox<number>();
  readonly closed: Promise<number>;
  private readonly parser = new FrameParser({ maxFrameBytes: 1024 * 1024 });

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      if (data.length === 1 && data[0] === 0x0a) {
        this.heartBeats.push(Date.now());
        return;
      }
      this.parser.push(data, (f) => this.frames.push(f));
    });
    this.closed = new Promise((resolve) => ws.on('close', (code) => resolve(code)));
  }

  static async open(url: string, protocols: string[] = [STOMP_SUBPROTOCOL]): Promise<RawClient> {
    const ws = new WebSocket(url, protocols);
    await once(ws, 'open');
    return new RawClient(ws);
  }

  send(data: OutgoingFrame | string | Buffer): void {
    this.ws.send(typeof data === 'string' || Buffer.isBuffer(data) ? data : serializeFrame(data));
  }

  /** CONNECT and answer the server's reply (CONNECTED or ERROR). */
  async connect(headers: Record<string, string> = {}): Promise<StompFrame> {
    this.send({ command: 'CONNECT', headers: { 'accept-version': '1.2', host: 'ship-cctv', passcode: 'token-raw', 'heart-beat': '0,0', ...headers } });
    return this.frames.next();
  }
}

/** Listens on a free port of 127.0.0.1 and answers the STOMP endpoint's ws:// URL. */
export async function listenStomp(app: { listen(o: { port: number; host: string }): Promise<string> }, path: string): Promise<string> {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return `${address.replace(/^http/, 'ws')}${path}`;
}

let receipts = 0;

/** Subscribes and waits for the server's RECEIPT, so the subscription is in place; answers its id. */
export async function subscribe(c: Client, destination: string, inbox: Inbox<IMessage>, headers: Record<string, string> = {}): Promise<string> {
  const receipt = `sub-${++receipts}`;
  const done = new Inbox<IFrame>();
  c.watchForReceipt(receipt, (frame) => done.push(frame));
  const sub = c.subscribe(destination, (m) => inbox.push(m), { ...headers, receipt });
  await done.next();
  return sub.id;
}
