/**
 * The media socket (PATHS.media): one WebSocket per player. The client sends JSON commands; the
 * server answers JSON events and binary fragmented MP4 (H.264): the init segment first, then media
 * fragments (moof+mdat) starting at a keyframe. After a definition change a new `codec` event and
 * a new init segment follow. The same socket carries ship-end playback in a later issue.
 *
 *   client → {"type":"play","mode":"live","cameraId":"S1001-C01-1","templateId":6}
 *   server ← {"type":"status","state":"starting","waitSeconds":8}
 *   server ← {"type":"codec","mime":"video/mp4; codecs=\"avc1.42c01e\"",...}
 *   server ← <binary init segment> <binary fragment> <binary fragment> …
 *   server ← {"type":"status","state":"playing"}
 */
import type { PlaybackControlCommand, PlaybackServerMessage, ShipPlaybackCommand } from './playback.ts';

export const MEDIA_PROTOCOL_VERSION = 1;

export type PlayCommand = {
  type: 'play';
  mode: 'live';
  cameraId: string;
  /** Definition model id; absent means the ship's default. */
  templateId?: number;
};

export type MediaClientMessage =
  | PlayCommand
  | ShipPlaybackCommand
  | PlaybackControlCommand
  | { type: 'stop' }
  /** After the continuous-watching limit stopped the stream: carry on watching. */
  | { type: 'continue' };

export type StreamState = 'starting' | 'playing' | 'stalled' | 'offline' | 'limit' | 'ended';

export type MediaServerMessage =
  | { type: 'codec'; mime: string; width: number; height: number; frameRate: number; templateId: number }
  | {
      type: 'status';
      state: StreamState;
      reason?: string;
      /** With `starting`: seconds the organisation expects before the first frame. */
      waitSeconds?: number;
      /** With `limit` before the stop: seconds left; 0 when stopped. */
      countdownSeconds?: number;
    }
  /** The link could not carry the stream: switched to the lowest definition (or back up). */
  | { type: 'notice'; code: 'lowestDefinition' | 'definitionRestored'; templateId: number }
  | { type: 'error'; code: MediaErrorCode; message: string }
  | PlaybackServerMessage;

export type MediaErrorCode =
  | 'badRequest'
  | 'unauthorized'
  | 'forbidden'
  | 'notFound'
  | 'noDefaultTemplate'
  | 'cameraOffline'
  | 'startFailed'
  /** Ship-end playback: no playback video in the selected time range. */
  | 'noRecording'
  /** Ship-end playback: playback failed. */
  | 'playbackFailed'
  | 'internal';

/** Encoding parameters of one uplink stream (a definition model). */
export interface EncodeSpec {
  width: number;
  height: number;
  frameRate: number;
  bitrateKbps: number;
  codec: 'h264';
}

/** Agent-link messages about live streams (JSON text frames; media goes as binary frames). */
export type ShoreStreamMessage =
  | { type: 'live.start'; streamId: number; cameraId: string; encode: EncodeSpec }
  | { type: 'live.stop'; streamId: number };

export type AgentStreamMessage =
  | { type: 'live.started'; streamId: number }
  | { type: 'live.failed'; streamId: number; message: string }
  | { type: 'live.ended'; streamId: number; reason: string }
  /** The ship's uplink queue: how many ms of sending are waiting (WebSocket bufferedAmount ÷ rate). */
  | { type: 'link.queue'; bufferedBytes: number; queuedMs: number };

/**
 * Binary agent-link frame: [kind u8][streamId u32 BE][payload]. For live the payload is a slice of
 * the encoder's fragmented MP4 output, in order; slices need not align with MP4 boxes.
 */
export const STREAM_HEADER_BYTES = 5;

/**
 * The most media bytes an agent puts in one link frame. A larger fragment (a big keyframe) goes up
 * as consecutive slices — shore reassembles the fMP4 from slices in order — so no frame nears
 * shore's WebSocket message limit (256 KiB, past which shore closes the whole agent link).
 */
export const LINK_FRAME_MAX_PAYLOAD = 64 * 1024;

export function encodeStreamFrame(kind: number, streamId: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(STREAM_HEADER_BYTES + payload.length);
  out[0] = kind;
  new DataView(out.buffer).setUint32(1, streamId >>> 0);
  out.set(payload, STREAM_HEADER_BYTES);
  return out;
}

export function decodeStreamFrame(frame: Uint8Array): { kind: number; streamId: number; payload: Uint8Array } | undefined {
  if (frame.length < STREAM_HEADER_BYTES) return undefined;
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  return { kind: frame[0] ?? 0, streamId: view.getUint32(1), payload: frame.subarray(STREAM_HEADER_BYTES) };
}
