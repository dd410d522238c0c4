import { Type, type Static } from 'typebox';
import { CameraId, StreamId, Text } from './common.ts';

/**
 * Talkback (kind `talk`, binary kind 4 **down**): the operator's voice goes from shore to the ship
 * as binary frames of the stream id shore handed out with `talk.open`.
 *
 * The contract the talkback feature builds on. No agent handles it yet: an agent lists `talk` in
 * its hello capabilities once it does, and shore opens no talk stream to a ship that has not.
 */
export const TalkShoreMessages = [
  Type.Object({ type: Type.Literal('talk.open'), streamId: StreamId, cameraId: CameraId, codec: Type.Literal('opus') }),
  Type.Object({ type: Type.Literal('talk.close'), streamId: StreamId }),
] as const;

export const TalkAgentMessages = [
  Type.Object({ type: Type.Literal('talk.opened'), streamId: StreamId }),
  /** `occupied`: another client holds the camera's backchannel. */
  Type.Object({
    type: Type.Literal('talk.failed'),
    streamId: StreamId,
    code: Type.Union([Type.Literal('occupied'), Type.Literal('failed')]),
    message: Text,
  }),
  Type.Object({ type: Type.Literal('talk.closed'), streamId: StreamId }),
] as const;

export const ShoreTalkMessage = Type.Union([...TalkShoreMessages]);
export type ShoreTalkMessage = Static<typeof ShoreTalkMessage>;
export const AgentTalkMessage = Type.Union([...TalkAgentMessages]);
export type AgentTalkMessage = Static<typeof AgentTalkMessage>;
