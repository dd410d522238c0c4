import { Type, type Static } from 'typebox';
import { LINK_TYPES } from '../constants.ts';
import { CameraId, EpochMs, LINK_KINDS, type LinkKind, Text } from './common.ts';

/**
 * Control messages of the agent link: about the ship and the link itself, not about one stream.
 *
 * Versions. Each end speaks a range of link protocol versions. The agent's `hello` carries its
 * range; shore answers with `welcome` naming the highest version both speak, or, when the ranges
 * do not meet, with `error` code `unsupportedVersion` saying both ranges, and closes the socket
 * (close code 4002). The `type` and `protocol` fields of `hello` keep their meaning in every
 * version, so shore can tell any agent, however old, why it is refused: version 1 agents sent
 * `protocol` as one number.
 *
 * Version 3 adds `link.ack`: shore tells the agent how many bytes it has received, so the agent keeps
 * only a round trip's worth in flight and the rest in its priority queue (see the agent's
 * uplink/send-window.ts). A version 2 agent gets no acknowledgements.
 *
 * Version 4 opens the store-and-forward inboxes (pictures, events) on demand rather than on every
 * link: shore opens one at hello only when it has something for the ship (snapshot tasks, event
 * settings), the agent asks for one (`outbox`) when it has something to send or holds something
 * shore may have changed, says `<kind>.idle` on it when it has nothing more, and shore then closes
 * it (`<kind>.inboxClosed`). An idle ship costs shore no inbox. A version 2 or 3 agent gets its
 * inboxes at hello, open while the link lasts, as before.
 */
export const AGENT_LINK_VERSION = 4;
/** The oldest version this code still speaks. */
export const AGENT_LINK_MIN_VERSION = 2;
/** The first version in which shore acknowledges received bytes (`link.ack`). */
export const LINK_ACK_VERSION = 3;
/** The first version whose inboxes open on demand (`outbox`, `<kind>.idle`, `<kind>.inboxClosed`). */
export const INBOX_ON_DEMAND_VERSION = 4;
/** The kinds whose store-and-forward inbox an agent asks for with `outbox`. */
export const INBOX_KINDS = ['pictures', 'events'] as const satisfies readonly LinkKind[];
export type InboxKind = (typeof INBOX_KINDS)[number];
/** Shore acknowledges at most this often (a ship sending nothing gets none). */
export const LINK_ACK_INTERVAL_MS = 100;
/** Close code of a link whose agent speaks no version shore does. */
export const CLOSE_UNSUPPORTED_VERSION = 4002;
/**
 * Close code of a link whose hello shore did not take now (too many ships arriving at once): the
 * `error` before it (code `retryLater`) says in `retryAfterMs` when to dial again.
 */
export const CLOSE_RETRY_LATER = 4003;

export const VersionRange = Type.Object({ min: Type.Integer({ minimum: 1 }), max: Type.Integer({ minimum: 1 }) });
export type VersionRange = Static<typeof VersionRange>;

export const AGENT_HEADERS = {
  shipId: 'x-ship-id',
  /** `Ship <key>`. */
  authorization: 'authorization',
  /** The agent's version range as `min-max` (informational; the hello decides). */
  protocol: 'x-agent-link-version',
} as const;

/** The highest version two ranges share, or undefined when they do not meet. */
export function agreedVersion(a: VersionRange, b: VersionRange): number | undefined {
  const v = Math.min(a.max, b.max);
  return v >= Math.max(a.min, b.min) ? v : undefined;
}

export const Duplex = Type.Union([Type.Literal('BOTH'), Type.Literal('UP'), Type.Literal('DOWN'), Type.Literal('NONE')]);
export type Duplex = Static<typeof Duplex>;

/**
 * What the agent measured of its link to shore over a period (link reports carry it beside the
 * link's kind): the round trip of its own WebSocket pings, the bytes shore acknowledged
 * (`link.ack`, version 3), and the deliveries it saw held back by a retransmission — TCP hides a
 * lost packet, but everything behind it then arrives at least a round trip late. A figure the
 * period gave nothing for is absent (no pong yet; no acknowledgements from a version 2 shore).
 */
export const LinkMeasurement = Type.Object({
  /** How long the figures cover, ms: since the previous measurement on this connection, or since it opened. */
  periodMs: Type.Integer({ minimum: 0 }),
  /** The shortest round trip of the agent's pings in the period, ms: the link's own delay, without queues. */
  rttMs: Type.Optional(Type.Integer({ minimum: 0 })),
  /** Bytes shore acknowledged in the period as kbit/s: what the uplink carried (its capacity only when it was full). */
  goodputKbps: Type.Optional(Type.Number({ minimum: 0 })),
  /** Deliveries held back by a retransmission in the period (each is at least one packet lost). */
  stalls: Type.Optional(Type.Integer({ minimum: 0 })),
  /** The loss seen: stalls per 100 TCP segments (1460 bytes) shore acknowledged in the period. */
  lossPercent: Type.Optional(Type.Number({ minimum: 0 })),
});
export type LinkMeasurement = Static<typeof LinkMeasurement>;

const linkReportFields = {
  /** The link's kind: the terminal's (modem telemetry), or as configured on a ship without it. */
  linkType: Type.Enum(LINK_TYPES),
  /** Signal quality 0–100 (the modem's, or as configured). */
  quality: Type.Integer({ minimum: 0, maximum: 100 }),
  duplex: Duplex,
  /** What the agent measured of the link (absent: nothing measured yet, or an older agent). */
  measured: Type.Optional(LinkMeasurement),
};
export const LinkReport = Type.Object(linkReportFields);
export type LinkReport = Static<typeof LinkReport>;

const cameraStateFields = {
  cameraId: CameraId,
  online: Type.Boolean(),
  /** The ship's own recorder is recording this camera. */
  recording: Type.Boolean(),
  /** Epoch ms the current recording run started, when recording. */
  recordingSince: Type.Union([EpochMs, Type.Null()]),
  /**
   * The camera's own video codec, once the ship's camera session read it (absent: not known yet, or
   * an older agent). Shore learns from it, in every hello, which stream a viewer of the camera joins
   * first (an H.265 camera: viewers that decode H.265 get its own pictures), a restart of its own
   * notwithstanding.
   */
  codec: Type.Optional(Type.Union([Type.Literal('h264'), Type.Literal('h265')])),
};
export const CameraState = Type.Object(cameraStateFields);
export type CameraState = Static<typeof CameraState>;

/**
 * What the ship's recorder can keep (sent in `hello` and with every `link` report by agents that
 * record; absent from older agents'): the days asked against the days the disk given holds at the
 * rate the cameras have been recorded lately. The bytes allowed are the smaller of the configured
 * limit and what the recordings use plus what the filesystem has free (less a margin kept free).
 */
export const RecorderStorage = Type.Object({
  /** Days of recordings asked for (the recorder's age limit). */
  keepDays: Type.Number({ minimum: 0 }),
  /** Days the bytes allowed hold at the recent rate; null while no rate is known yet (nothing recorded lately). */
  holdsDays: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
  /** The disk given cannot hold the days asked: the oldest recordings go before they are keepDays old. */
  short: Type.Boolean(),
  /** Bytes the recordings may take now. */
  allowedBytes: Type.Integer({ minimum: 0 }),
  /** Bytes the recordings take now. */
  usedBytes: Type.Integer({ minimum: 0 }),
  /** Bytes a day the cameras together have been recorded at lately (0: nothing recorded lately). */
  bytesPerDay: Type.Number({ minimum: 0 }),
  /** Bytes free on the recordings' filesystem (absent: not known). */
  freeBytes: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type RecorderStorage = Static<typeof RecorderStorage>;

/**
 * What the agent can do: the message groups (LINK_KINDS) it handles. Shore opens a stream of a kind
 * only to a ship whose agent listed it; a capability this shore does not know (a newer agent's) is
 * kept but never used.
 */
export const Capability = Type.String({ minLength: 1, maxLength: 64 });

export function isLinkKind(value: string): value is LinkKind {
  return LINK_KINDS.some((k) => k === value);
}

/** The shape of `hello` every version shares: enough to refuse an agent with a clear reason. */
export const HelloVersion = Type.Object({
  type: Type.Literal('hello'),
  protocol: Type.Union([Type.Integer(), VersionRange]),
});

export const ControlAgentMessages = [
  /** Sent first on every (re)connection: versions, capabilities and the whole state, so shore resumes from it. */
  Type.Object({
    type: Type.Literal('hello'),
    protocol: VersionRange,
    agentVersion: Type.String({ maxLength: 64 }),
    capabilities: Type.Array(Capability, { maxItems: 64 }),
    link: LinkReport,
    cameras: Type.Array(CameraState, { maxItems: 256 }),
    /** What the ship's recorder can keep (absent: an older agent, or nothing recorded on disk). */
    storage: Type.Optional(RecorderStorage),
  }),
  /** The link's report; an agent that records sends what its recorder can keep beside it (a shore that does not know the field ignores it). */
  Type.Object({ type: Type.Literal('link'), ...linkReportFields, storage: Type.Optional(RecorderStorage) }),
  Type.Object({ type: Type.Literal('camera'), ...cameraStateFields }),
  /** The ship's uplink queue: how many ms of sending are waiting (WebSocket bufferedAmount ÷ rate). */
  Type.Object({ type: Type.Literal('link.queue'), bufferedBytes: Type.Integer({ minimum: 0 }), queuedMs: Type.Number({ minimum: 0 }) }),
  /**
   * (Version 4.) The ship has something for shore's inbox of `kind` (its outbox holds something, or
   * it holds what shore may have changed meanwhile): shore opens the inbox unless one is open.
   */
  Type.Object({ type: Type.Literal('outbox'), kind: Type.Union([Type.Literal('pictures'), Type.Literal('events')]) }),
] as const;

export const ControlShoreMessages = [
  /** Shore accepted the hello: the version both ends now speak. */
  Type.Object({ type: Type.Literal('welcome'), shipId: Type.String(), serverTime: EpochMs, protocol: Type.Integer({ minimum: 1 }) }),
  /**
   * (Version 3.) Shore has received `bytes` bytes from the agent on this connection: WebSocket
   * frames as on the wire (headers and payloads, see wsFrameOverhead), counted from the first
   * frame after the handshake, also while a message is still arriving.
   */
  Type.Object({ type: Type.Literal('link.ack'), bytes: Type.Integer({ minimum: 0 }) }),
  /**
   * Something the agent sent was refused: `badMessage` (not JSON, unknown type, or not its
   * type's schema; the message says which field), `unsupportedVersion` (the socket closes), or
   * `retryLater`: shore takes new links at a bounded rate and did not take this hello now; the
   * socket closes (CLOSE_RETRY_LATER) and the agent dials again after `retryAfterMs`, which shore
   * spreads over the refused ships so they come back at the rate it takes them.
   */
  Type.Object({
    type: Type.Literal('error'),
    code: Type.Union([Type.Literal('badMessage'), Type.Literal('unsupportedVersion'), Type.Literal('retryLater')]),
    message: Text,
    /** With `retryLater`: how long to wait before dialling again, ms. */
    retryAfterMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 3_600_000 })),
  }),
] as const;

export const ControlAgentMessage = Type.Union([...ControlAgentMessages]);
export type ControlAgentMessage = Static<typeof ControlAgentMessage>;
export type HelloMessage = Extract<ControlAgentMessage, { type: 'hello' }>;
export type LinkQueueMessage = Extract<ControlAgentMessage, { type: 'link.queue' }>;
export const ControlShoreMessage = Type.Union([...ControlShoreMessages]);
export type ControlShoreMessage = Static<typeof ControlShoreMessage>;
