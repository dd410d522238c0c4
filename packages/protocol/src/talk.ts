/**
 * Talkback on the media socket (PATHS.media). A talk uses a media socket of its own: its first
 * command is `talk.start`, which hands the socket to the talkback feature (the live player's
 * sockets never see talk commands). After `talk.start` the browser sends its voice as binary
 * messages — packed Opus packets (packTalkPackets) or, from the MediaRecorder fallback, WebM
 * chunks — and `talk.stop` (or closing the socket) ends the talk.
 *
 *   client → {"type":"talk.start","cameraId":"S1001-C01-1","format":"opus"}
 *   client → <binary: 3 packed 60 ms Opus packets> …
 *   server ← {"type":"talk.started","maxSeconds":120,"talker":"Demo Operator"}
 *   client → {"type":"talk.stop"}
 *   server ← {"type":"talk.ended","reason":"stopped"}
 */
import type { TalkFormat } from './link/talk.ts';

export type TalkStartCommand = { type: 'talk.start'; cameraId: string; format: TalkFormat };
export type TalkClientMessage = TalkStartCommand | { type: 'talk.stop' };

/** Why a talk could not start (or was cut off): each has its own text in the browser. */
export type TalkErrorCode =
  /** Another operator (or this one, in another tab) holds the ship's talkback: `holder` says who. */
  | 'occupied'
  /** The ship's config has talk off. */
  | 'talkOff'
  | 'shipOffline'
  /** The ship's agent does not handle talkback. */
  | 'unsupported'
  | 'failed'
  | 'badRequest'
  | 'unauthorized'
  | 'forbidden'
  | 'notFound'
  | 'internal';

/** Why a talk that had started ended. */
export type TalkEndReason = 'stopped' | 'maxDuration' | 'shipOffline' | 'failed' | 'signedOut';

export type TalkServerMessage =
  | { type: 'talk.started'; maxSeconds: number; talker: string }
  | { type: 'talk.ended'; reason: TalkEndReason; message?: string }
  | { type: 'talk.error'; code: TalkErrorCode; message: string; holder?: string };

/** Default and bounds of the talk's maximum duration (server setting TALK_MAX_SECONDS). */
export const TALK_MAX_SECONDS_DEFAULT = 120;

/** Largest Opus packet (RFC 6716: 120 ms of 1275-byte frames stays well under). */
const MAX_PACKET = 0xffff;

/** Packs Opus packets into one message: each a 2-byte big-endian length, then its bytes. */
export function packTalkPackets(packets: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  let size = 0;
  for (const p of packets) {
    if (p.length > MAX_PACKET) throw new Error(`an Opus packet of ${p.length} bytes is too large`);
    size += 2 + p.length;
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of packets) {
    out[at] = p.length >> 8;
    out[at + 1] = p.length & 0xff;
    out.set(p, at + 2);
    at += 2 + p.length;
  }
  return out;
}

/** The packets of a packed message; undefined when its lengths do not add up. */
export function unpackTalkPackets(data: Uint8Array): Uint8Array[] | undefined {
  const out: Uint8Array[] = [];
  let at = 0;
  while (at < data.length) {
    if (at + 2 > data.length) return undefined;
    const len = ((data[at] ?? 0) << 8) | (data[at + 1] ?? 0);
    if (at + 2 + len > data.length) return undefined;
    out.push(data.subarray(at + 2, at + 2 + len));
    at += 2 + len;
  }
  return out;
}
