import { Type, type Static } from 'typebox';
import { MAX_EPOCH_MS } from './schemas/common.ts';

/**
 * Events found on the ship: motion in a camera's picture and, on motion, what a detector sees in
 * the moving regions (people, boats, vehicles). The ship decides what happened where the video is,
 * and only the event — its record and one best picture — crosses the link; the video of the moment
 * stays in the ship's recorder until someone asks for it.
 *
 * This file holds the shapes the ship, the link and shore share: an event, and a camera's analysis
 * settings (which shore keeps and sends to the ship). The link messages that carry them are in
 * ./link/events.ts; shore's REST answers use these shapes too.
 */

/**
 * What an event can be about. `motion` is an event in which something moved but the detector named
 * nothing it was asked for (kept only when the camera's classes include `motion`).
 */
export const EVENT_CLASSES = ['person', 'boat', 'vehicle', 'motion'] as const;
export type EventClass = (typeof EVENT_CLASSES)[number];
export const EventClassSchema = Type.Enum(EVENT_CLASSES);

/** An event's id: made by the ship, unique across the fleet (the ship and camera are part of it). */
export const EventId = Type.String({ pattern: '^[A-Za-z0-9_-]{8,96}$' });

/** The largest event picture: the best frame as JPEG at ≤ 640 px wide. */
export const EVENT_PICTURE_MAX_BYTES = 30 * 1024;
export const EVENT_PICTURE_MAX_WIDTH = 640;

/** Most zones and mask polygons per camera, and points per polygon. */
export const EVENT_ZONES_MAX = 8;
export const EVENT_MASKS_MAX = 8;
export const POLYGON_POINTS_MAX = 32;

/**
 * A point of a zone or mask in the picture, as fractions of its width and height (0..1): the same
 * polygon holds whatever definition the picture is analysed or shown at.
 */
export const RelPoint = Type.Tuple([Type.Number({ minimum: 0, maximum: 1 }), Type.Number({ minimum: 0, maximum: 1 })]);
export const Polygon = Type.Array(RelPoint, { minItems: 3, maxItems: POLYGON_POINTS_MAX });
export type Polygon = Static<typeof Polygon>;

export const ZoneName = Type.String({ minLength: 1, maxLength: 40 });
export const EventZone = Type.Object({ name: ZoneName, polygon: Polygon });
export type EventZone = Static<typeof EventZone>;

/**
 * When a camera's analysis runs: always, or between two times of day on the ship's clock in an
 * IANA zone (`from` after `to` spans midnight: 18:00–06:00 is nights only).
 */
export const EventSchedule = Type.Union([
  Type.Object({ kind: Type.Literal('always') }),
  Type.Object({
    kind: Type.Literal('daily'),
    timeZone: Type.String({ minLength: 1, maxLength: 64 }),
    from: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' }),
    to: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' }),
  }),
]);
export type EventSchedule = Static<typeof EventSchedule>;

/** One camera's analysis settings: kept on shore, sent to the ship, applied by its analyser. */
export const CameraEventSettings = Type.Object({
  enabled: Type.Boolean(),
  schedule: EventSchedule,
  classes: Type.Array(EventClassSchema, { minItems: 1, maxItems: EVENT_CLASSES.length, uniqueItems: true }),
  /** Lowest detector score (0..1) that makes an event of a class. */
  minScore: Type.Number({ minimum: 0, maximum: 1 }),
  /** Motion sensitivity, 1 (only large changes) … 100 (the smallest). */
  sensitivity: Type.Integer({ minimum: 1, maximum: 100 }),
  /** Areas where motion counts; none means the whole picture. An event names the zone it happened in. */
  zones: Type.Array(EventZone, { maxItems: EVENT_ZONES_MAX }),
  /** Areas never analysed (a flag that waves, a clock on screen). */
  masks: Type.Array(Polygon, { maxItems: EVENT_MASKS_MAX }),
});
export type CameraEventSettings = Static<typeof CameraEventSettings>;

/** What a camera does before anyone set it: analysis on, always, people and boats at 0.5. */
export const DEFAULT_CAMERA_EVENT_SETTINGS: CameraEventSettings = {
  enabled: true,
  schedule: { kind: 'always' },
  classes: ['person', 'boat'],
  minScore: 0.5,
  sensitivity: 50,
  zones: [],
  masks: [],
};

const Epoch = Type.Integer({ minimum: 0, maximum: MAX_EPOCH_MS });

/** One class seen in an event, with the best score the detector gave it (1 for `motion`). */
export const EventClassScore = Type.Object({ class: EventClassSchema, score: Type.Number({ minimum: 0, maximum: 1 }) });

/** An event as the ship records it and sends it to shore (its picture follows as bytes). */
export const ShipEvent = Type.Object({
  eventId: EventId,
  cameraId: Type.String({ minLength: 1, maxLength: 64 }),
  /** When the first analysed frame showed it, and when the last did (ship's clock, epoch ms). */
  start: Epoch,
  end: Epoch,
  classes: Type.Array(EventClassScore, { minItems: 1, maxItems: EVENT_CLASSES.length }),
  /** The zone it happened in; absent when the camera has no zones. */
  zone: Type.Optional(ZoneName),
  /** The best picture: the frame with the highest score. */
  picture: Type.Object({
    bytes: Type.Integer({ minimum: 1, maximum: EVENT_PICTURE_MAX_BYTES }),
    width: Type.Integer({ minimum: 16, maximum: EVENT_PICTURE_MAX_WIDTH }),
    height: Type.Integer({ minimum: 16, maximum: 4096 }),
    /** SHA-256 of the JPEG's bytes, lower-case hex. */
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    /** When the picture shows. */
    time: Epoch,
  }),
  /** The span of the ship's recording that holds it (start − pre-roll … end + post-roll). */
  recording: Type.Object({ from: Epoch, to: Epoch }),
});
export type ShipEvent = Static<typeof ShipEvent>;
