import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { CameraEventSettings, EventId, ShipEvent } from '../events.ts';
import { CameraAnalysisStatusSchema } from '../schemas/events.ts';
import { CameraId, StreamId, Text } from './common.ts';
import { decodePictureChunk, encodePictureChunk } from './pictures.ts';

/**
 * Events (kind `events`, binary kind 6 up): what the ship's analysis found — the event's record
 * and its best picture — sent to shore by store-and-forward, and the cameras' analysis settings
 * sent to the ship.
 *
 * Shore opens one stream, the *inbox* (`events.inbox`), as soon as a ship that handles events says
 * hello (link version 3 and older), or, from version 4, when the ship asks for it (`outbox`: it has
 * events or a status to send, or holds settings) or shore holds settings for its cameras, and closes
 * it (`events.inboxClosed`) once the ship says `events.idle`. Shore sends on it every camera's settings (`events.settings`, again
 * whenever one changes). The ship answers with its cameras' analysis status (`events.status`,
 * again whenever one changes) and its outbox sends one event at a time, as pictures do:
 * `events.offer` with the record, shore's `events.resume` with the byte of the picture to start
 * from (what shore already holds of it: an outage or an agent restart mid-picture costs nothing
 * twice), the picture's bytes as binary frames `[offset u32 BE][bytes]`, then shore's
 * `events.stored`, after which the ship takes the event out of its outbox. An event shore already
 * holds is answered `stored` at once (de-duplication by event id: nothing is stored twice); an
 * event that went on after it was sent (a later end, more classes) is offered again with its later
 * record and the same picture, and shore holding it takes the later end, recording span and
 * classes as it answers `stored` (an older record moves nothing back);
 * bytes that do not make the picture offered (checksum, not a JPEG) are answered `rejected`,
 * thrown away, and offered again from the first byte; a camera shore does not know is answered
 * `refused`, and the ship drops the event (sending it again would be refused again).
 *
 * While the ship's `events` data budget is used up, shore answers an offer `events.held` (to an
 * agent whose hello lists EVENTS_HOLD_CAPABILITY; others simply get no answer and offer again
 * after their answer time): the event stays in the ship's outbox, in flight, without a timer,
 * and shore sends `events.resume` once the budget allows (the next day, a larger cap). Nothing is
 * lost; a link that goes meanwhile makes the ship offer it again on the next connection.
 */

/** An agent that waits on `events.held` (without giving the offer up) lists this in its hello. */
export const EVENTS_HOLD_CAPABILITY = 'events.hold';

/** Bytes of an event picture chunk's header (its offset) in a binary frame. */
export const EVENT_CHUNK_HEADER_BYTES = 4;
/** Most cameras one settings or status message names. */
export const EVENT_CAMERAS_MAX = 256;

/** One camera's analysis settings as shore sends them. */
export const CameraEventSettingsEntry = Type.Object({ cameraId: CameraId, settings: CameraEventSettings });
export type CameraEventSettingsEntry = Static<typeof CameraEventSettingsEntry>;

export const EventsShoreMessages = [
  /** The stream the ship's event outbox sends on while this connection lasts. */
  Type.Object({ type: Type.Literal('events.inbox'), streamId: StreamId }),
  /** Every camera's analysis settings (a camera not named keeps the defaults). */
  Type.Object({ type: Type.Literal('events.settings'), streamId: StreamId, cameras: Type.Array(CameraEventSettingsEntry, { maxItems: EVENT_CAMERAS_MAX }) }),
  /** Send the offered event's picture from byte `offset` (what shore holds of it already). */
  Type.Object({ type: Type.Literal('events.resume'), streamId: StreamId, eventId: EventId, offset: Type.Integer({ minimum: 0, maximum: 16 * 1024 * 1024 }) }),
  /** Shore holds the event and its picture: the ship takes it out of its outbox. */
  Type.Object({ type: Type.Literal('events.stored'), streamId: StreamId, eventId: EventId }),
  /** What arrived is not the picture offered; shore threw it away. Offer the event again from the start. */
  Type.Object({ type: Type.Literal('events.rejected'), streamId: StreamId, eventId: EventId, reason: Text }),
  /** The ship's events budget is used up: the offered event waits in the outbox until shore sends `events.resume`. */
  Type.Object({ type: Type.Literal('events.held'), streamId: StreamId, eventId: EventId, reason: Text }),
  /** Shore will never take this event (its camera is unknown on shore): the ship drops it. */
  Type.Object({ type: Type.Literal('events.refused'), streamId: StreamId, eventId: EventId, reason: Text }),
  /** (Version 4.) Shore closed the inbox after the ship said `idle`; the ship asks again (`outbox`) when it has something to send. */
  Type.Object({ type: Type.Literal('events.inboxClosed'), streamId: StreamId }),
] as const;

export const EventsAgentMessages = [
  /** The next event of the outbox; its picture's bytes follow once shore answers `resume`. */
  Type.Object({ type: Type.Literal('events.offer'), streamId: StreamId, event: ShipEvent }),
  /** What each camera's analysis is doing (when the inbox opens and whenever one changes). */
  Type.Object({ type: Type.Literal('events.status'), streamId: StreamId, cameras: Type.Array(CameraAnalysisStatusSchema, { maxItems: EVENT_CAMERAS_MAX }) }),
  /** (Version 4.) The ship has nothing more to send on the inbox (no event offered or waiting, its status told); shore may close it. */
  Type.Object({ type: Type.Literal('events.idle'), streamId: StreamId }),
] as const;

export const ShoreEventsMessage = Type.Union([...EventsShoreMessages]);
export type ShoreEventsMessage = Static<typeof ShoreEventsMessage>;
export const AgentEventsMessage = Type.Union([...EventsAgentMessages]);
export type AgentEventsMessage = Static<typeof AgentEventsMessage>;

/** An event picture chunk as it crosses the link: `[offset u32 BE][bytes]` (the pictures' chunk). */
export const encodeEventChunk: (offset: number, bytes: Uint8Array) => Uint8Array = encodePictureChunk;
export const decodeEventChunk: (payload: Uint8Array) => { offset: number; bytes: Uint8Array } | undefined = decodePictureChunk;

const shipEventCheck = Compile(ShipEvent);

/** Why `value` is not an event record (the first field refused), or undefined when it is one. */
export function shipEventRefusal(value: unknown): string | undefined {
  if (shipEventCheck.Check(value)) return undefined;
  const first = shipEventCheck.Errors(value)[0];
  return first ? `${first.instancePath || '/'} ${first.message}` : 'does not match its schema';
}
