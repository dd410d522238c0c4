import { Type, type Static } from 'typebox';

/**
 * Stills mode (issue 19 item 3): a live grid cell whose ship's link policy says `stills` shows a
 * picture refreshed every `stillsEverySeconds` instead of video. The cell asks shore for the
 * camera's latest still (`POST /api/v1/cctv/stills/{cameraId}`); shore takes a new picture through
 * the pictures path only when the newest one is older than the period and none is on its way, so
 * any number of viewers of a camera cost the ship one picture per period.
 */

const Id = (description: string) => Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.:-]+$', description });

export const StillParams = Type.Object({ cameraId: Id('Camera') });

export const StillRequestSchema = Type.Object(
  {
    /** The definition model whose size a new picture takes (the one the cell's view would play); absent: the picture config (720). */
    templateId: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Definition model whose size a new picture takes; absent: the picture config (720)' })),
  },
  { additionalProperties: false },
);
export type StillRequest = Static<typeof StillRequestSchema>;

export const StillPictureSchema = Type.Object({
  pictureId: Type.String(),
  /** When the picture shows (epoch ms, the ship's clock). */
  takenAt: Type.Integer(),
  bytes: Type.Integer(),
  width: Type.Integer(),
  height: Type.Integer(),
});
export type StillPicture = Static<typeof StillPictureSchema>;

export const STILL_TAKE_STATES = ['asked', 'taken', 'failed'] as const;
export type StillTakeState = (typeof STILL_TAKE_STATES)[number];

export const StillTakeSchema = Type.Object({
  pictureId: Type.String(),
  /** When shore asked the ship (epoch ms, shore's clock). */
  requestedAt: Type.Integer(),
  /** asked: the ship has not answered yet; taken: on the ship, crossing to shore; failed: the ship could not (code, message). */
  state: Type.Enum(STILL_TAKE_STATES),
  /** The picture's size as the ship reported it (taken). */
  bytes: Type.Optional(Type.Integer()),
  code: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
});
export type StillTake = Static<typeof StillTakeSchema>;

export const StillAnswerSchema = Type.Object({
  cameraId: Type.String(),
  shipId: Type.String(),
  shipName: Type.String(),
  /** The ship's link as shore knows it, and the seconds between stills its policy gives. */
  linkType: Type.String(),
  everySeconds: Type.Integer(),
  /** The newest picture of the camera on shore, if any. */
  picture: Type.Optional(StillPictureSchema),
  /** The latest take shore asked for, while it has not reached shore (or failed). */
  pending: Type.Optional(StillTakeSchema),
  /** Bytes of the camera's last pictures of the newest one's size, newest first (at most 5): the cost estimate. */
  recentBytes: Type.Array(Type.Integer()),
  /** This call asked the ship for a new picture. */
  took: Type.Boolean(),
  /** The ship's link is down: no picture can be taken now. */
  offline: Type.Boolean(),
  /** The ship's pictures budget is used up (today or this month): no new still is taken until it is not. */
  picturesBudgetUsedUp: Type.Boolean(),
  /** When to ask again, in ms from this answer. */
  nextInMs: Type.Integer(),
});
export type StillAnswer = Static<typeof StillAnswerSchema>;
