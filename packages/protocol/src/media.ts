/**
 * The media socket (PATHS.media): one WebSocket per player. The client sends JSON commands; the
 * server answers JSON events and binary fragmented MP4 (H.264, or AV1 for a viewer that decodes it): the init segment first, then media
 * fragments (moof+mdat) starting at a keyframe. After a definition change a new `codec` event and
 * a new init segment follow. The same socket carries ship-end playback in a later issue.
 *
 *   client → {"type":"play","mode":"live","cameraId":"S1001-C01-1","templateId":6,"decoders":["avc1","av01"]}
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
  /**
   * The carousel (a started task, or a simple carousel) this cell runs for: the continuous-watching
   * limit does not apply to it (a carousel turns its pages; it is not one continuous view).
   */
  carouselId?: string;
  /**
   * Codec prefixes this viewer's browser decodes (`avc1`, `hvc1`, `hev1`, `av01`; see
   * DECODER_PREFIXES), as WebCodecs' isConfigSupported or MSE's isTypeSupported answered. Unknown
   * entries are ignored; missing means H.264 only. A definition whose codec the viewer (or another
   * viewer of the same stream) does not decode is sent in H.264.
   */
  decoders?: string[];
};

export type MediaClientMessage =
  | PlayCommand
  | ShipPlaybackCommand
  | PlaybackControlCommand
  | { type: 'stop' }
  /** After the continuous-watching limit stopped the stream: carry on watching. */
  | { type: 'continue' };

export type StreamState = 'starting' | 'playing' | 'stalled' | 'offline' | 'limit' | 'ended';

/** The reason of a `stalled` status when the ship reports that the camera sends no pictures (the stream goes on when it does). */
export const CAMERA_SILENT_REASON = 'camera not sending';

export type MediaServerMessage =
  | {
      type: 'codec';
      mime: string;
      width: number;
      height: number;
      frameRate: number;
      templateId: number;
      /** The camera's own codec, when the ship said it (`h264` | `h265`). */
      cameraCodec?: 'h264' | 'h265';
      /** The ship decodes and re-encodes the camera's picture for this stream. */
      transcoded?: boolean;
    }
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
  /** The ship's live data budget is used up and its policy is `lowest`: this view streams the lowest definition. */
  | { type: 'notice'; code: 'budgetLowest'; templateId: number }
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
  /** The ship's live data budget is used up and its policy is `stills`: pictures only. */
  | 'budgetStills'
  /** The ship's live data budget is used up and its policy is `block`: an override with a reason lets a view start. */
  | 'budgetBlocked'
  | 'internal';
