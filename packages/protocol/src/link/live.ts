import { Type, type Static } from 'typebox';
import { CameraId, EncodeSpec, StreamId, Text } from './common.ts';
import type { LinkQueueMessage } from './control.ts';

/**
 * Live streams (kind `live`, binary kind 1 up). Shore opens a stream per (camera, definition) while
 * anyone watches: `live.start` with the id it handed out, `live.stop` when the last viewer is gone.
 * The agent answers `live.started` at its first byte, `live.failed` (with the encoder's reason) or
 * `live.ended`; the media goes up as binary frames of the same stream id.
 *
 * `audio`: shore's decision from the ship's config flag `audio` (absent = false, as from shores
 * before sound). On: the camera's sound rides in the same fragmented MP4 (a second track, AAC);
 * off: the agent encodes no sound at all, so no sound bytes cross the link.
 *
 * `live.started` may say the camera's codec and whether the ship transcodes: shore tells the
 * viewers (the cell says "H.265, transcoded on the ship to H.264") and keeps viewers that decode
 * the camera's H.265 on a stream of their own (`encode.passThrough`).
 */
export const LiveShoreMessages = [
  Type.Object({ type: Type.Literal('live.start'), streamId: StreamId, cameraId: CameraId, encode: EncodeSpec, audio: Type.Optional(Type.Boolean()) }),
  Type.Object({ type: Type.Literal('live.stop'), streamId: StreamId }),
] as const;

export const LiveAgentMessages = [
  Type.Object({
    type: Type.Literal('live.started'),
    streamId: StreamId,
    /** The camera's own codec, when the agent knows it (its camera session read it). */
    cameraCodec: Type.Optional(Type.Union([Type.Literal('h264'), Type.Literal('h265')])),
    /** The ship decodes and encodes the camera's picture for this stream (absent: not said). */
    transcoded: Type.Optional(Type.Boolean()),
  }),
  Type.Object({ type: Type.Literal('live.failed'), streamId: StreamId, message: Text }),
  Type.Object({ type: Type.Literal('live.ended'), streamId: StreamId, reason: Text }),
] as const;

export const ShoreLiveMessage = Type.Union([...LiveShoreMessages]);
export type ShoreLiveMessage = Static<typeof ShoreLiveMessage>;
export const AgentLiveMessage = Type.Union([...LiveAgentMessages]);
export type AgentLiveMessage = Static<typeof AgentLiveMessage>;

/** Shore → agent about live streams. */
export type ShoreStreamMessage = ShoreLiveMessage;
/** What the agent's live streams send: their stream messages and the uplink queue report. */
export type AgentStreamMessage = AgentLiveMessage | LinkQueueMessage;
