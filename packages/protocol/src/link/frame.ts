import { BINARY_KIND, type BinaryKind, binaryKindOf } from './common.ts';

/**
 * Binary frames of the agent link, in both directions: `[kind u8][streamId u32 BE][payload]`.
 * The kind byte is BINARY_KIND; the stream id is the one shore handed out when it opened the
 * stream, so a frame is routed by (ship of the socket, kind, stream id) exactly as a JSON message
 * about the same stream is. For live and playback the payload is a slice of fragmented MP4, in
 * order; slices need not align with MP4 boxes.
 */
export const STREAM_HEADER_BYTES = 5;

/**
 * The most media bytes an agent puts in one link frame. A larger fragment (a big keyframe) goes up
 * as consecutive slices — shore reassembles the fMP4 from slices in order — so no frame nears
 * shore's WebSocket message limit (256 KiB, past which shore closes the whole agent link).
 */
export const LINK_FRAME_MAX_PAYLOAD = 64 * 1024;

/**
 * WebSocket framing bytes around a payload (RFC 6455): what crosses the link besides the payload.
 * Frames from the agent (a client) are masked (4 bytes more).
 */
export function wsFrameOverhead(payloadBytes: number, masked: boolean): number {
  const length = payloadBytes < 126 ? 0 : payloadBytes < 65_536 ? 2 : 8;
  return 2 + length + (masked ? 4 : 0);
}

export function encodeStreamFrame(kind: number, streamId: number, payload: Uint8Array): Uint8Array {
  if (!Number.isInteger(streamId) || streamId < 0 || streamId > 0xffff_ffff) throw new RangeError(`stream id ${streamId} is not a u32`);
  const out = new Uint8Array(STREAM_HEADER_BYTES + payload.length);
  out[0] = kind;
  new DataView(out.buffer).setUint32(1, streamId);
  out.set(payload, STREAM_HEADER_BYTES);
  return out;
}

/** A frame's header and payload (a view into the frame, not a copy); undefined when shorter than a header. */
export function decodeStreamFrame(frame: Uint8Array): { kind: number; streamId: number; payload: Uint8Array } | undefined {
  if (frame.length < STREAM_HEADER_BYTES) return undefined;
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  return { kind: frame[0] ?? 0, streamId: view.getUint32(1), payload: frame.subarray(STREAM_HEADER_BYTES) };
}

export type LinkFrame = { kind: BinaryKind; streamId: number; payload: Uint8Array };

/** What a receiving router makes of a binary frame: the frame, or why it cannot be routed. */
export type ParsedFrame = { ok: true; frame: LinkFrame } | { ok: false; error: 'short' | 'unknownKind'; message: string };

/** Decodes a frame for routing: a frame too short for its header, or of a kind no group has, is refused with the reason. */
export function parseLinkFrame(frame: Uint8Array): ParsedFrame {
  const decoded = decodeStreamFrame(frame);
  if (!decoded) return { ok: false, error: 'short', message: `a binary frame of ${frame.length} bytes is shorter than its ${STREAM_HEADER_BYTES}-byte header` };
  const kind = binaryKindOf(decoded.kind);
  if (!kind) return { ok: false, error: 'unknownKind', message: `binary kind ${decoded.kind} is not one of ${Object.values(BINARY_KIND).join(', ')}` };
  return { ok: true, frame: { kind, streamId: decoded.streamId, payload: decoded.payload } };
}
