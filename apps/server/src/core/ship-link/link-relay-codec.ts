import type { AgentMessage, LinkKind, ShoreMessage } from '@ship-cctv/protocol';

/**
 * What instances tell each other about streams relayed to a ship's owner. The requesting instance
 * names each relayed stream by a `rid` of its own; the owner holds the real stream on the link.
 */
export type RelayHeader =
  // requesting instance → owner
  | { op: 'open'; rid: string; from: string; shipId: string; kind: LinkKind }
  | { op: 'send'; rid: string; from: string; msg: ShoreMessage }
  | { op: 'bin'; rid: string; from: string }
  | { op: 'close'; rid: string; from: string }
  /** The requester's relayed streams at this owner that it still holds (every heartbeat). */
  | { op: 'beat'; from: string; rids: string[] }
  /** To itself, every heartbeat: hearing it back says Redis carries this instance's messages now. */
  | { op: 'tick'; from: string }
  // owner → requesting instance
  | { op: 'opened'; rid: string }
  | { op: 'refused'; rid: string; reason: 'offline' | 'unsupported'; message: string }
  | { op: 'msg'; rid: string; msg: AgentMessage }
  | { op: 'data'; rid: string }
  | { op: 'closed'; rid: string; reason: string }
  /** The owner's answer to a beat: which of those streams it still serves. */
  | { op: 'ack'; from: string; rids: string[] };

/** Said on the shared channel: a ship came or went on the instance `from`. */
export type ShipNews =
  | { op: 'online' | 'offline'; shipId: string; from: string }
  /** Whoever holds the ship's link is asked to act on `topic`. */
  | { op: 'nudge'; shipId: string; from: string; topic: string };

const NL = 0x0a;

/**
 * One pub/sub message: the header as JSON, a newline, then the bytes (binary ops). JSON.stringify
 * never writes a raw newline, so the first one ends the header whatever the bytes hold.
 */
export function encodeRelay(header: RelayHeader, payload?: Uint8Array): Buffer {
  const head = Buffer.from(JSON.stringify(header), 'utf8');
  if (!payload) return head;
  return Buffer.concat([head, Buffer.of(NL), payload]);
}

/** The header and bytes of a pub/sub message, or undefined when it is not one of ours. */
export function decodeRelay(message: Buffer): { header: RelayHeader; payload: Buffer } | undefined {
  const nl = message.indexOf(NL);
  const head = nl < 0 ? message : message.subarray(0, nl);
  try {
    const header = JSON.parse(head.toString('utf8')) as unknown;
    if (typeof header !== 'object' || header === null || typeof (header as { op?: unknown }).op !== 'string') return undefined;
    return { header: header as RelayHeader, payload: nl < 0 ? Buffer.alloc(0) : message.subarray(nl + 1) };
  } catch {
    return undefined;
  }
}
