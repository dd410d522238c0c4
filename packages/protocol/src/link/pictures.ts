import { Type, type Static } from 'typebox';
import { CameraId, EpochMs, StreamId, Text } from './common.ts';

/**
 * Pictures (kind `pictures`, binary kind 3 up): a snapshot of a camera taken on the ship and sent
 * up as binary frames of the stream id shore handed out.
 *
 * The contract the pictures feature builds on. No agent handles it yet: an agent lists `pictures`
 * in its hello capabilities once it does, and shore opens no pictures stream to a ship that has
 * not (AgentGateway.openStream answers `unsupported`).
 */
export const PicturesShoreMessages = [
  Type.Object({ type: Type.Literal('pictures.take'), streamId: StreamId, cameraId: CameraId, maxWidth: Type.Integer({ minimum: 16 }) }),
  Type.Object({ type: Type.Literal('pictures.cancel'), streamId: StreamId }),
] as const;

export const PicturesAgentMessages = [
  /** The picture's bytes follow as binary frames; `bytes` says how many to expect. */
  Type.Object({
    type: Type.Literal('pictures.taken'),
    streamId: StreamId,
    time: EpochMs,
    mime: Type.String({ maxLength: 64 }),
    bytes: Type.Integer({ minimum: 0 }),
  }),
  Type.Object({ type: Type.Literal('pictures.failed'), streamId: StreamId, message: Text }),
] as const;

export const ShorePicturesMessage = Type.Union([...PicturesShoreMessages]);
export type ShorePicturesMessage = Static<typeof ShorePicturesMessage>;
export const AgentPicturesMessage = Type.Union([...PicturesAgentMessages]);
export type AgentPicturesMessage = Static<typeof AgentPicturesMessage>;
