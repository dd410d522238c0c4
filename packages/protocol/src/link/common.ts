import { Type, type Static } from 'typebox';
import { MAX_EPOCH_MS } from '../schemas/common.ts';

/**
 * Schema pieces every message group of the agent link shares. The link is one WebSocket per ship
 * (see ./index.ts); everything that crosses it is checked against these schemas at the receiving
 * end, whichever end that is.
 */

/**
 * What a message or a binary frame belongs to. Each kind is one message group (one file beside
 * this one) and one capability an agent announces in its hello: shore opens streams of a kind only
 * to a ship whose agent handles it.
 */
export const LINK_KINDS = ['live', 'playback', 'pictures', 'ptz', 'talk', 'backfill', 'events'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

/**
 * First byte of a binary frame: the kinds that carry bytes. Live, playback and pictures go up
 * (ship → shore); talk goes down (shore → ship: the operator's voice to the ship's speaker);
 * backfill goes up (copies of the ship recorder's segment files refilling shore's recording);
 * events go up (the best picture of each event the ship's analysis found).
 */
export const BINARY_KIND = { live: 1, playback: 2, pictures: 3, talk: 4, backfill: 5, events: 6 } as const;
export type BinaryKind = keyof typeof BINARY_KIND;

/** The binary kind of a frame's first byte, or undefined for a byte no kind has. */
export function binaryKindOf(code: number): BinaryKind | undefined {
  for (const kind of Object.keys(BINARY_KIND)) {
    if (isBinaryKind(kind) && BINARY_KIND[kind] === code) return kind;
  }
  return undefined;
}

export function isBinaryKind(kind: string): kind is BinaryKind {
  return Object.hasOwn(BINARY_KIND, kind);
}

/**
 * What shore counts the link's bytes under (`shipcctv_link_bytes_total{purpose}`): JSON messages
 * are control; binary frames count under their kind.
 */
export const LINK_PURPOSES = ['control', 'live', 'playback', 'pictures', 'talk', 'backfill', 'events'] as const;
export type LinkPurpose = (typeof LINK_PURPOSES)[number];

/** Names one stream of its kind on one ship's link; shore hands it out (see AgentGateway.openStream). */
export const StreamId = Type.Integer({ minimum: 0, maximum: 0xffff_ffff });
export const EpochMs = Type.Integer({ minimum: 0, maximum: MAX_EPOCH_MS });
export const CameraId = Type.String({ minLength: 1, maxLength: 64 });
/** A human-readable reason or error text. */
export const Text = Type.String({ maxLength: 4096 });

/**
 * Encoding parameters of one uplink stream (a definition model). The schema is the wire contract;
 * what sizes and rates an agent's encoder can produce is the agent's to say (it answers a request
 * it cannot encode with its kind's failure message and the reason).
 */
export const EncodeSpec = Type.Object({
  width: Type.Integer({ minimum: 1 }),
  height: Type.Integer({ minimum: 1 }),
  frameRate: Type.Number({ exclusiveMinimum: 0 }),
  bitrateKbps: Type.Integer({ minimum: 1 }),
  /** `av1` only to an agent whose hello lists ENCODES_AV1_CAPABILITY; older shores send `h264`. */
  codec: Type.Union([Type.Literal('h264'), Type.Literal('av1')]),
});
export type EncodeSpec = Static<typeof EncodeSpec>;
