import { Type, type Static } from 'typebox';
import { epochMs } from './common.ts';
import { CameraEventSettings, EventClassSchema, EventId } from '../events.ts';

/**
 * REST schemas of events found on ships (`/api/v1/cctv/events…`): the list with its filters and
 * pages, one event, acknowledging and deleting, a camera's analysis settings with the status its
 * ship last reported, an organisation's notify rule, and the unacknowledged counts for the badge.
 * What a page hears as events arrive comes over STOMP on `/events/{shipName}` (EventNotice).
 */

const Id = (description: string) => Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.:-]+$', description });

/** What a camera's analysis is doing, as its ship reports it. */
export const CameraAnalysisState = Type.Union([
  Type.Literal('off'),
  Type.Literal('idle'),
  Type.Literal('running'),
  Type.Literal('modelFailed'),
  Type.Literal('outsideSchedule'),
]);
export type CameraAnalysisState = Static<typeof CameraAnalysisState>;

export const CameraAnalysisStatusSchema = Type.Object({
  cameraId: Type.String({ minLength: 1, maxLength: 64 }),
  state: CameraAnalysisState,
  /** Why, in words for the log and the settings page (the model's load error, say). */
  reason: Type.Optional(Type.String({ maxLength: 500 })),
});
export type CameraAnalysisStatus = Static<typeof CameraAnalysisStatusSchema>;

export const EventInfoSchema = Type.Object({
  id: Type.String(),
  shipId: Type.String(),
  shipName: Type.String(),
  cameraId: Type.String(),
  cameraName: Type.String(),
  start: Type.Integer(),
  end: Type.Integer(),
  classes: Type.Array(Type.Object({ class: EventClassSchema, score: Type.Number() })),
  zone: Type.Optional(Type.String()),
  pictureWidth: Type.Integer(),
  pictureHeight: Type.Integer(),
  recordingFrom: Type.Integer(),
  recordingTo: Type.Integer(),
  /** The user name of who acknowledged it first. */
  acknowledgedBy: Type.Optional(Type.String()),
  acknowledgedAt: Type.Optional(Type.Integer()),
  /** When shore had the event and its picture. */
  receivedAt: Type.Integer(),
});
export type EventInfo = Static<typeof EventInfoSchema>;

export const EventPageSchema = Type.Object({
  page: Type.Integer(),
  size: Type.Integer(),
  total: Type.Integer(),
  events: Type.Array(EventInfoSchema),
});
export type EventPage = Static<typeof EventPageSchema>;

export const EventListQuery = Type.Object(
  {
    shipId: Type.Optional(Id('Ship')),
    cameraId: Type.Optional(Id('Camera')),
    class: Type.Optional(EventClassSchema),
    from: Type.Optional(epochMs('Events that start at or after')),
    to: Type.Optional(epochMs('Events that start before')),
    acknowledged: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'true: only acknowledged; false: only not' })),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, description: 'Page number, from 1 (default 1)' })),
    size: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: 'Events per page (default 50)' })),
  },
  { additionalProperties: false },
);
export type EventListQuery = Static<typeof EventListQuery>;

export const EventIdParams = Type.Object({ id: EventId });

export const EventAcknowledgeManyBody = Type.Object(
  { ids: Type.Array(EventId, { minItems: 1, maxItems: 200, uniqueItems: true }) },
  { additionalProperties: false },
);
export const EventAcknowledgeManyAnswer = Type.Object({ acknowledged: Type.Integer({ description: 'Events newly acknowledged' }) });
export const EventDeletedAnswer = Type.Object({ deleted: Type.Literal(true) });

export const CameraIdParams = Type.Object({ cameraId: Id('Camera') });

/** A camera's settings as shore keeps them, with what its ship last said of the analysis. */
export const CameraEventSettingsAnswer = Type.Intersect([
  CameraEventSettings,
  Type.Object({ status: Type.Optional(CameraAnalysisStatusSchema) }),
]);
export type CameraEventSettingsAnswer = Static<typeof CameraEventSettingsAnswer>;

const ClockTime = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:mm' });

/**
 * Which events make a toast for an organisation's users: classes, and hours on a zone's clock;
 * and of which classes shore fetches the event's video from the ship's recorder by itself.
 */
export const OrgEventSettings = Type.Object(
  {
    notifyClasses: Type.Array(EventClassSchema, { maxItems: 4, uniqueItems: true }),
    fetchVideoClasses: Type.Optional(
      Type.Array(EventClassSchema, {
        maxItems: 4,
        uniqueItems: true,
        description: "An event of one of these classes has its span of the ship's recording copied into the shore recording as it arrives, within the ship's backfill budget (left out: none; otherwise only when someone plays the moment)",
      }),
    ),
    seenBy: Type.Optional(
      Type.Union([Type.Literal('everyone'), Type.Literal('managers')], {
        description:
          "Who sees the organisation's events (list, pictures, acknowledging, the notices on /events/{shipName}): everyone who sees its ships (the default), or only the managers of it or of an organisation above it",
      }),
    ),
    notifyFrom: Type.Optional(ClockTime),
    notifyTo: Type.Optional(ClockTime),
    timeZone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA zone of notifyFrom/notifyTo (default UTC)' })),
  },
  { additionalProperties: false },
);
export type OrgEventSettings = Static<typeof OrgEventSettings>;
export const DEFAULT_ORG_EVENT_SETTINGS: OrgEventSettings = { notifyClasses: ['person', 'boat'] };

export const OrgIdParams = Type.Object({ orgId: Id('Organisation') });

export const UnacknowledgedAnswer = Type.Object({
  ships: Type.Array(Type.Object({ shipId: Type.String(), count: Type.Integer() })),
});
export type UnacknowledgedAnswer = Static<typeof UnacknowledgedAnswer>;

/** `/events/{shipName}` message body. */
export type EventNotice =
  | { type: 'event'; event: EventInfo; notify: boolean }
  /** An event shore holds went on after it was sent: its end, recording span and classes as the ship knows them now. */
  | { type: 'updated'; event: EventInfo }
  | { type: 'acknowledged'; id: string; acknowledgedBy: string; acknowledgedAt: number }
  | { type: 'deleted'; id: string };
