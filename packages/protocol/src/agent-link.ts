import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { LINK_TYPES, type LinkType } from './constants.ts';
import type { AgentStreamMessage, ShoreStreamMessage } from './media.ts';
import { type AgentPlaybackMessage, type ShorePlaybackMessage, VOD_MAX_SPANS } from './playback.ts';

/**
 * The agent link: each ship's edge agent dials out to the shore server (ships sit behind
 * satellite NAT; shore never dials a ship) over one WebSocket at PATHS.agentLink, authenticated
 * on the upgrade by the headers below. Control messages are JSON text frames; media (later issues)
 * travels as binary frames tagged with a purpose byte. Every byte is counted per purpose on shore.
 */
export const AGENT_LINK_VERSION = 1;

export const AGENT_HEADERS = {
  shipId: 'x-ship-id',
  /** `Ship <key>`. */
  authorization: 'authorization',
  protocol: 'x-agent-link-version',
} as const;

export const LINK_PURPOSES = ['control', 'live', 'playback', 'pictures'] as const;
export type LinkPurpose = (typeof LINK_PURPOSES)[number];

/** First byte of a binary agent-link frame. */
export const BINARY_KIND = { live: 1, playback: 2, pictures: 3 } as const;

export type Duplex = 'BOTH' | 'UP' | 'DOWN' | 'NONE';

export interface LinkReport {
  linkType: LinkType;
  /** 0–100. */
  quality: number;
  duplex: Duplex;
}

export interface CameraState {
  cameraId: string;
  online: boolean;
  /** The ship's own recorder is recording this camera. */
  recording: boolean;
  /** Epoch ms the current recording run started, when recording. */
  recordingSince: number | null;
}

export type AgentMessage =
  /** Sent first on every (re)connection: the whole state, so shore resumes from it. */
  | { type: 'hello'; protocol: number; agentVersion: string; link: LinkReport; cameras: CameraState[] }
  | ({ type: 'link' } & LinkReport)
  | ({ type: 'camera' } & CameraState)
  | AgentStreamMessage
  | AgentPlaybackMessage;

export type ShoreMessage =
  | { type: 'welcome'; shipId: string; serverTime: number }
  | { type: 'error'; message: string }
  | ShoreStreamMessage
  | ShorePlaybackMessage;

const LinkReportSchema = {
  linkType: Type.Union(LINK_TYPES.map((l) => Type.Literal(l))),
  quality: Type.Integer({ minimum: 0, maximum: 100 }),
  duplex: Type.Union([Type.Literal('BOTH'), Type.Literal('UP'), Type.Literal('DOWN'), Type.Literal('NONE')]),
};
const CameraStateSchema = {
  cameraId: Type.String({ minLength: 1, maxLength: 64 }),
  online: Type.Boolean(),
  recording: Type.Boolean(),
  recordingSince: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
};

const StreamId = Type.Integer({ minimum: 0, maximum: 0xffff_ffff });
const EpochMs = Type.Integer({ minimum: 0 });
const Message = Type.String({ maxLength: 4096 });

/** Agent → shore playback messages (see playback.ts). A query answers at most VOD_MAX_SPANS spans. */
const AgentPlaybackMessageSchemas = [
  Type.Object({
    type: Type.Literal('vod.result'),
    requestId: StreamId,
    cameraId: Type.String({ minLength: 1, maxLength: 64 }),
    spans: Type.Array(Type.Object({ start: EpochMs, end: EpochMs }), { maxItems: VOD_MAX_SPANS }),
  }),
  Type.Object({ type: Type.Literal('vod.failed'), requestId: StreamId, message: Message }),
  Type.Object({ type: Type.Literal('playback.started'), streamId: StreamId }),
  Type.Object({ type: Type.Literal('playback.position'), streamId: StreamId, time: EpochMs }),
  Type.Object({
    type: Type.Literal('playback.failed'),
    streamId: StreamId,
    code: Type.Union([Type.Literal('noRecording'), Type.Literal('playbackFailed')]),
    message: Message,
  }),
  Type.Object({ type: Type.Literal('playback.ended'), streamId: StreamId }),
];

/** What an agent may send; anything else is answered with an error and ignored. */
export const AgentMessageSchema = Type.Union([
  Type.Object({
    type: Type.Literal('hello'),
    protocol: Type.Integer(),
    agentVersion: Type.String({ maxLength: 64 }),
    link: Type.Object(LinkReportSchema),
    cameras: Type.Array(Type.Object(CameraStateSchema), { maxItems: 256 }),
  }),
  Type.Object({ type: Type.Literal('link'), ...LinkReportSchema }),
  Type.Object({ type: Type.Literal('camera'), ...CameraStateSchema }),
  Type.Object({ type: Type.Literal('live.started'), streamId: StreamId }),
  Type.Object({ type: Type.Literal('live.failed'), streamId: StreamId, message: Type.String({ maxLength: 4096 }) }),
  Type.Object({ type: Type.Literal('live.ended'), streamId: StreamId, reason: Type.String({ maxLength: 4096 }) }),
  Type.Object({
    type: Type.Literal('link.queue'),
    bufferedBytes: Type.Integer({ minimum: 0 }),
    queuedMs: Type.Number({ minimum: 0 }),
  }),
  ...AgentPlaybackMessageSchemas,
]);

const agentMessageCheck = Compile(AgentMessageSchema);

export function isAgentMessage(value: unknown): value is AgentMessage {
  return agentMessageCheck.Check(value);
}
