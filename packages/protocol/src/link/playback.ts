import { Type, type Static } from 'typebox';
import { PLAYBACK_SPEEDS } from '../constants.ts';
import { CameraId, EncodeSpec, EpochMs, StreamId, Text } from './common.ts';

/**
 * Ship-end playback (kind `playback`, binary kind 2 up): span queries of the ship recorder
 * (`vod.*`, routed by `requestId`, an id shore hands out like a stream id) and playbacks of a
 * recorded range (`playback.*`, routed by `streamId`). Times are epoch ms (UTC).
 */

/**
 * Most spans one `vod.result` carries (~45 bytes a span as JSON: 4,000 spans stay well under the
 * agent link's 256 KiB message limit). A full answer is known only up to its last span.
 */
export const VOD_MAX_SPANS = 4_000;

const Speed = Type.Enum(PLAYBACK_SPEEDS);
const Span = Type.Object({ start: EpochMs, end: EpochMs });
/**
 * A time the ship recorder holds nothing, and the ship's cause (cameraSilent, diskFull,
 * agentStopped, retention, unknown). A string, not a closed list: a newer agent's cause must not
 * make an older shore refuse the whole answer (shore reads a cause it does not know as unknown).
 */
const Gap = Type.Object({ start: EpochMs, end: EpochMs, cause: Type.String({ maxLength: 32 }) });

export const PlaybackShoreMessages = [
  /** Which spans of [start, end) the ship recorder holds for a camera. */
  Type.Object({ type: Type.Literal('vod.query'), requestId: StreamId, cameraId: CameraId, start: EpochMs, end: EpochMs }),
  /**
   * Send the recording of [start, end) from `from` (= start unless resuming) at `speed`, encoded
   * to `encode`. At speed ≥ 8 the ship sends keyframes or a decimated frame rate so the link
   * carries far less than speed × bitrate. The fMP4 media time runs in *played* time; each
   * `playback.position` maps it to recorded time.
   */
  Type.Object({
    type: Type.Literal('playback.start'),
    streamId: StreamId,
    cameraId: CameraId,
    encode: EncodeSpec,
    start: EpochMs,
    end: EpochMs,
    from: EpochMs,
    speed: Speed,
  }),
  Type.Object({ type: Type.Literal('playback.pause'), streamId: StreamId }),
  Type.Object({ type: Type.Literal('playback.resume'), streamId: StreamId }),
  Type.Object({ type: Type.Literal('playback.stop'), streamId: StreamId }),
] as const;

export const PlaybackAgentMessages = [
  /** `gaps` (optional: older agents do not send it): the times of [start, min(end, now)) between the spans, with their cause. */
  Type.Object({
    type: Type.Literal('vod.result'),
    requestId: StreamId,
    cameraId: CameraId,
    spans: Type.Array(Span, { maxItems: VOD_MAX_SPANS }),
    gaps: Type.Optional(Type.Array(Gap, { maxItems: VOD_MAX_SPANS })),
  }),
  Type.Object({ type: Type.Literal('vod.failed'), requestId: StreamId, message: Text }),
  Type.Object({ type: Type.Literal('playback.started'), streamId: StreamId }),
  /** Recorded time now being sent (about once a second; a few dozen bytes). */
  Type.Object({ type: Type.Literal('playback.position'), streamId: StreamId, time: EpochMs }),
  Type.Object({
    type: Type.Literal('playback.failed'),
    streamId: StreamId,
    code: Type.Union([Type.Literal('noRecording'), Type.Literal('playbackFailed')]),
    message: Text,
  }),
  Type.Object({ type: Type.Literal('playback.ended'), streamId: StreamId }),
] as const;

export const ShorePlaybackMessage = Type.Union([...PlaybackShoreMessages]);
export type ShorePlaybackMessage = Static<typeof ShorePlaybackMessage>;
export const AgentPlaybackMessage = Type.Union([...PlaybackAgentMessages]);
export type AgentPlaybackMessage = Static<typeof AgentPlaybackMessage>;
