import { Type, type Static, type TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';
import type { LinkKind } from './common.ts';
import { ControlAgentMessages, ControlShoreMessages, HelloVersion, type VersionRange } from './control.ts';
import { type AgentEventsMessage, EventsAgentMessages, EventsShoreMessages, type ShoreEventsMessage } from './events.ts';
import { type AgentBackfillMessage, BackfillAgentMessages, BackfillShoreMessages, type ShoreBackfillMessage } from './backfill.ts';
import { type AgentLiveMessage, LiveAgentMessages, LiveShoreMessages, type ShoreLiveMessage } from './live.ts';
import { type AgentPicturesMessage, PicturesAgentMessages, PicturesShoreMessages, type ShorePicturesMessage } from './pictures.ts';
import { type AgentPlaybackMessage, PlaybackAgentMessages, PlaybackShoreMessages, type ShorePlaybackMessage } from './playback.ts';
import { type AgentPtzMessage, PtzAgentMessages, PtzShoreMessages, type ShorePtzMessage } from './ptz.ts';
import { type AgentTalkMessage, type ShoreTalkMessage, TalkAgentMessages, TalkShoreMessages } from './talk.ts';

/**
 * The agent link: each ship's edge agent dials out to the shore server (ships sit behind satellite
 * NAT; shore never dials a ship) over one WebSocket at PATHS.agentLink, authenticated on the
 * upgrade by AGENT_HEADERS. JSON text frames carry messages, binary frames carry bytes (frame.ts),
 * both ways. Every message belongs to a group: control (control.ts) or one kind (LINK_KINDS:
 * live.ts, playback.ts, pictures.ts, ptz.ts, talk.ts, backfill.ts, events.ts). A kind's messages name their stream by
 * `streamId` (or `requestId` for a question and its answer), an id shore hands out, and are
 * routed by (ship of the socket, kind, id): a message about a stream its ship does not own is
 * dropped. Each end checks what it receives against these schemas before anything reads it.
 */
export * from './backfill.ts';
export * from './common.ts';
export * from './control.ts';
export * from './events.ts';
export * from './frame.ts';
export * from './live.ts';
export * from './pictures.ts';
export * from './playback.ts';
export * from './ptz.ts';
export * from './talk.ts';

export const AgentMessageSchema = Type.Union([
  ...ControlAgentMessages,
  ...LiveAgentMessages,
  ...PlaybackAgentMessages,
  ...PicturesAgentMessages,
  ...PtzAgentMessages,
  ...TalkAgentMessages,
  ...BackfillAgentMessages,
  ...EventsAgentMessages,
]);
/** Agent → shore. */
export type AgentMessage = Static<typeof AgentMessageSchema>;

export const ShoreMessageSchema = Type.Union([
  ...ControlShoreMessages,
  ...LiveShoreMessages,
  ...PlaybackShoreMessages,
  ...PicturesShoreMessages,
  ...PtzShoreMessages,
  ...TalkShoreMessages,
  ...BackfillShoreMessages,
  ...EventsShoreMessages,
]);
/** Shore → agent. */
export type ShoreMessage = Static<typeof ShoreMessageSchema>;

type Schemas = readonly { properties: { type: { const: string } } }[];
const GROUPS = {
  live: { shore: LiveShoreMessages, agent: LiveAgentMessages },
  playback: { shore: PlaybackShoreMessages, agent: PlaybackAgentMessages },
  pictures: { shore: PicturesShoreMessages, agent: PicturesAgentMessages },
  ptz: { shore: PtzShoreMessages, agent: PtzAgentMessages },
  talk: { shore: TalkShoreMessages, agent: TalkAgentMessages },
  backfill: { shore: BackfillShoreMessages, agent: BackfillAgentMessages },
  events: { shore: EventsShoreMessages, agent: EventsAgentMessages },
} as const satisfies Record<LinkKind, { shore: Schemas; agent: Schemas }>;

/** The messages of each kind, each way. */
interface LinkMessages {
  live: { shore: ShoreLiveMessage; agent: AgentLiveMessage };
  playback: { shore: ShorePlaybackMessage; agent: AgentPlaybackMessage };
  pictures: { shore: ShorePicturesMessage; agent: AgentPicturesMessage };
  ptz: { shore: ShorePtzMessage; agent: AgentPtzMessage };
  talk: { shore: ShoreTalkMessage; agent: AgentTalkMessage };
  backfill: { shore: ShoreBackfillMessage; agent: AgentBackfillMessage };
  events: { shore: ShoreEventsMessage; agent: AgentEventsMessage };
}
/** Shore → agent messages of one kind. */
export type ShoreMessageOf<K extends LinkKind> = LinkMessages[K]['shore'];
/** Agent → shore messages of one kind. */
export type AgentMessageOf<K extends LinkKind> = LinkMessages[K]['agent'];

function kindsOf(side: 'shore' | 'agent'): Map<string, LinkKind> {
  const out = new Map<string, LinkKind>();
  for (const [kind, group] of Object.entries(GROUPS)) {
    if (!isKind(kind)) continue;
    for (const schema of group[side]) out.set(schema.properties.type.const, kind);
  }
  return out;
}
function isKind(kind: string): kind is LinkKind {
  return Object.hasOwn(GROUPS, kind);
}
const SHORE_KIND = kindsOf('shore');
const AGENT_KIND = kindsOf('agent');

/** Where a message is routed: its kind and stream (or request) id; undefined for control messages. */
export function routeOf(msg: AgentMessage | ShoreMessage): { kind: LinkKind; id: number } | undefined {
  const kind = AGENT_KIND.get(msg.type) ?? SHORE_KIND.get(msg.type);
  if (!kind) return undefined;
  const id = 'streamId' in msg ? msg.streamId : 'requestId' in msg ? msg.requestId : undefined;
  return id === undefined ? undefined : { kind, id };
}

/**
 * The same message naming stream (or request) `id` instead: a relay between shore instances hands
 * the caller a stream id of its own and the ship another, and renames each message on the way.
 * Control messages (no route) come back unchanged.
 */
export function withStreamId<M extends AgentMessage | ShoreMessage>(msg: M, id: number): M {
  if ('streamId' in msg) return { ...msg, streamId: id };
  if ('requestId' in msg) return { ...msg, requestId: id };
  return msg;
}

/** Whether an agent message belongs to `kind` (the router hands it to that kind's handler). */
export function isAgentMessageOf<K extends LinkKind>(kind: K, msg: AgentMessage): msg is AgentMessageOf<K> {
  return AGENT_KIND.get(msg.type) === kind;
}

/** Whether a shore message belongs to `kind`. */
export function isShoreMessageOf<K extends LinkKind>(kind: K, msg: ShoreMessage): msg is ShoreMessageOf<K> {
  return SHORE_KIND.get(msg.type) === kind;
}

export type Checked<T> = { ok: true; message: T } | { ok: false; error: string };

/** Parses a text frame; a frame that is not JSON is refused with the reason. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, error: `malformed JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** A message type's own validator, for saying which field of a refused message is wrong. */
function byType(schemas: readonly (Schemas[number] & TSchema)[]): Map<string, Validator> {
  return new Map(schemas.map((s) => [s.properties.type.const, Compile(s)]));
}
const AGENT_TYPES = byType(AgentMessageSchema.anyOf);
const SHORE_TYPES = byType(ShoreMessageSchema.anyOf);
const agentCheck = Compile(AgentMessageSchema);
const shoreCheck = Compile(ShoreMessageSchema);
const typeOf = Compile(Type.Object({ type: Type.String({ maxLength: 64 }) }));

/** Why `value` is not a message of `s`: unknown type, or the first field its type's schema refuses. */
function refusal(types: Map<string, Validator>, value: unknown): string {
  if (!typeOf.Check(value)) return 'a message is a JSON object with a string "type"';
  const check = types.get(value.type);
  if (!check) return `unknown message type "${value.type}"`;
  const first = check.Errors(value)[0];
  return `${value.type}: ${first ? `${first.instancePath || '/'} ${first.message}` : 'does not match its schema'}`;
}


/** Checks a parsed JSON value from an agent (on shore). */
export function checkAgentMessage(value: unknown): Checked<AgentMessage> {
  if (isAgentMessage(value)) return { ok: true, message: value };
  return { ok: false, error: refusal(AGENT_TYPES, value) };
}

/** Checks a parsed JSON value from shore (on the agent). */
export function checkShoreMessage(value: unknown): Checked<ShoreMessage> {
  if (isShoreMessage(value)) return { ok: true, message: value };
  return { ok: false, error: refusal(SHORE_TYPES, value) };
}

export function isAgentMessage(value: unknown): value is AgentMessage {
  return agentCheck.Check(value);
}
export function isShoreMessage(value: unknown): value is ShoreMessage {
  return shoreCheck.Check(value);
}

const helloVersion = Compile(HelloVersion);

/**
 * The version range of a hello of any version (version 1 sent one number), or undefined when
 * `value` is no hello: shore refuses an agent it cannot speak with before checking the rest.
 */
export function helloProtocol(value: unknown): VersionRange | undefined {
  if (!helloVersion.Check(value)) return undefined;
  const p = value.protocol;
  return typeof p === 'number' ? { min: p, max: p } : p;
}
