import { EventEmitter } from 'node:events';
import {
  type ControlShoreMessage,
  type LinkKind,
  type ShoreMessage,
  type ShoreMessageOf,
  checkShoreMessage,
  isShoreMessageOf,
  parseJson,
  parseLinkFrame,
  routeOf,
} from '@ship-cctv/protocol';

/** What handles one kind of shore's messages on the ship (live streams, playback, …). */
export interface KindHandler<K extends LinkKind> {
  /** A message of this kind; it names its stream (or request) by the id shore handed out. */
  message(msg: ShoreMessageOf<K>): void;
  /** Bytes shore sent down on a stream of this kind (talkback audio). Without it such bytes are dropped. */
  data?(streamId: number, payload: Uint8Array): void;
}

export interface RouterEvents {
  /** Every message from shore that passed its schema, as it arrives. */
  message: [ShoreMessage];
  /** `welcome` and `error`: about the link itself. */
  control: [ControlShoreMessage];
  /** Something from shore could not be delivered: not JSON, not its schema, or a kind nothing here handles. */
  dropped: [reason: string];
}

interface Route {
  message(msg: ShoreMessage): boolean;
  data: ((streamId: number, payload: Uint8Array) => void) | undefined;
}

/**
 * The agent's end of the link router: every frame from shore is checked against its schema and
 * handed to the handler of its kind (which finds the stream by id). The kinds with a handler are
 * what the agent tells shore it can do (hello `capabilities`); shore opens no stream of another
 * kind, and anything of such a kind that still arrives is dropped with the reason.
 */
export class AgentLinkRouter extends EventEmitter<RouterEvents> {
  private readonly routes = new Map<LinkKind, Route>();

  /** Registers the handler of a kind (one per kind). */
  handle<K extends LinkKind>(kind: K, handler: KindHandler<K>): void {
    if (this.routes.has(kind)) throw new Error(`a handler of ${kind} is registered already`);
    const { data } = handler;
    this.routes.set(kind, {
      message: (msg) => {
        if (!isShoreMessageOf(kind, msg)) return false;
        handler.message(msg);
        return true;
      },
      data: data && ((streamId, payload) => handler.data?.(streamId, payload)),
    });
  }

  /** The kinds this agent handles (its hello's capabilities). */
  get capabilities(): LinkKind[] {
    return [...this.routes.keys()];
  }

  /** One WebSocket message from shore. */
  receive(data: Uint8Array, isBinary: boolean): void {
    if (isBinary) return this.receiveFrame(data);
    const json = parseJson(Buffer.from(data).toString('utf8'));
    if (!json.ok) return this.drop(json.error);
    const checked = checkShoreMessage(json.value);
    if (!checked.ok) return this.drop(checked.error);
    const msg = checked.message;
    this.emit('message', msg);
    const route = routeOf(msg);
    if (!route) {
      if (msg.type === 'welcome' || msg.type === 'error' || msg.type === 'link.ack') this.emit('control', msg);
      return;
    }
    if (!this.routes.get(route.kind)?.message(msg)) this.drop(`${msg.type}: this agent does not handle ${route.kind}`);
  }

  private receiveFrame(data: Uint8Array): void {
    const parsed = parseLinkFrame(data);
    if (!parsed.ok) return this.drop(parsed.message);
    const { kind, streamId, payload } = parsed.frame;
    const deliver = this.routes.get(kind)?.data;
    if (!deliver) return this.drop(`binary frame for ${kind} stream ${streamId}: this agent takes no ${kind} bytes`);
    deliver(streamId, payload);
  }

  private drop(reason: string): void {
    this.emit('dropped', reason);
  }
}
