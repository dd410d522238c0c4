import { EventEmitter } from 'node:events';
import type { AgentMessage, LinkKind, ShoreMessage } from '@ship-cctv/protocol';
import type { GatewayEvents, LinkStream, OpenStreamResult, StreamHandler } from '../../src/core/ship-link/gateway.ts';
import type { RelayGateway } from '../../src/core/ship-link/link-relay.ts';
import type { ShipOwnership } from '../../src/core/ship-link/ownership.ts';

/** A stream the owner's link opened: what it was sent, and its handler (to play the ship). */
export interface LinkSide {
  kind: LinkKind;
  handler: StreamHandler<LinkKind>;
  sent: ShoreMessage[];
  bytes: Buffer[];
  open: boolean;
  stream: LinkStream<LinkKind>;
}

/** The owner's side of the ship link: streams with ids of its own (from 900), or a refusal. */
export class OwnerLink implements RelayGateway {
  readonly events = new EventEmitter<GatewayEvents>();
  readonly streams: LinkSide[] = [];
  refuse: OpenStreamResult<LinkKind> | undefined;
  private nextId = 900;

  get(): undefined {
    return undefined;
  }

  openStream<K extends LinkKind>(shipId: string, kind: K, handler: StreamHandler<K>): OpenStreamResult<K> {
    if (this.refuse && !this.refuse.ok) return this.refuse;
    const id = this.nextId++;
    const side = { kind, handler: handler as StreamHandler<LinkKind>, sent: [], bytes: [], open: true } as unknown as LinkSide;
    side.stream = {
      shipId,
      kind,
      id,
      get open() {
        return side.open;
      },
      send: (msg) => side.sent.push(msg as ShoreMessage),
      sendBinary: (payload) => side.bytes.push(Buffer.from(payload)),
      close: () => (side.open = false),
    };
    this.streams.push(side);
    return { ok: true, stream: side.stream as LinkStream<K> };
  }
}

/** The ship's owner is whoever the test says. */
export function ownership(instanceId: string, owners: Map<string, string>): ShipOwnership {
  return {
    instanceId,
    events: new EventEmitter(),
    claim: () => Promise.reject(new Error('not in this test')),
    release: () => Promise.resolve(),
    ownerOf: (shipId) => Promise.resolve(owners.has(shipId) ? { instanceId: owners.get(shipId) ?? '', epoch: 1 } : undefined),
    close: () => Promise.resolve(),
  };
}

/** What a caller of the relay hears on one stream. */
export function listener() {
  const heard = { messages: [] as AgentMessage[], bytes: [] as Buffer[], closed: [] as string[] };
  const handler: StreamHandler<LinkKind> = {
    message: (m) => heard.messages.push(m),
    data: (p) => heard.bytes.push(Buffer.from(p)),
    closed: (reason) => heard.closed.push(reason),
  };
  return { heard, handler };
}

/** The stream a relay opened, or the reason it did not. */
export const opened = async <K extends LinkKind>(p: OpenStreamResult<K> | Promise<OpenStreamResult<K>>): Promise<LinkStream<K>> => {
  const r = await p;
  if (!r.ok) throw new Error(`not opened: ${r.message}`);
  return r.stream;
};
