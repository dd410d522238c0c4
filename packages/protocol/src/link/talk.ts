import { Type, type Static } from 'typebox';
import { CameraId, StreamId, Text } from './common.ts';

/**
 * Talkback (kind `talk`, binary kind 4 **down**): the operator's voice goes from shore to the ship
 * as binary frames of the stream id shore handed out with `talk.open`.
 *
 * `format` says what the frames hold: `opus` — packed Opus packets (talk-packets.ts: each a 2-byte
 * big-endian length and the packet, 48 kHz mono, as WebCodecs' AudioEncoder makes them); `webm` —
 * the bytes of a WebM/Opus recording as the browser's MediaRecorder cuts them (its fallback).
 * An agent lists `talk` in its hello capabilities when it handles them; shore opens no talk
 * stream to a ship that has not.
 */
export const TalkFormat = Type.Union([Type.Literal('opus'), Type.Literal('webm')]);
export type TalkFormat = Static<typeof TalkFormat>;

export const TalkShoreMessages = [
  Type.Object({
    type: Type.Literal('talk.open'),
    streamId: StreamId,
    cameraId: CameraId,
    codec: Type.Literal('opus'),
    /** Absent: `opus` (packed packets). */
    format: Type.Optional(TalkFormat),
    /** Who talks (display name), for the ship's log and the file's tags. */
    talker: Type.Optional(Text),
  }),
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
  /** The talk ended on the ship: `bytes` of voice taken, `file` where it was kept (relative to the data directory). */
  Type.Object({
    type: Type.Literal('talk.closed'),
    streamId: StreamId,
    bytes: Type.Optional(Type.Integer({ minimum: 0 })),
    file: Type.Optional(Text),
  }),
] as const;

export const ShoreTalkMessage = Type.Union([...TalkShoreMessages]);
export type ShoreTalkMessage = Static<typeof ShoreTalkMessage>;
export const AgentTalkMessage = Type.Union([...TalkAgentMessages]);
export type AgentTalkMessage = Static<typeof AgentTalkMessage>;
