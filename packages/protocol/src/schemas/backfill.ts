import { type Static, Type } from 'typebox';

/**
 * REST schemas of backfill (`/api/v1/cctv/record/backfill/…`): the organisation's switch (each
 * camera's is `backfill` of its recording configuration) and the spans of a camera's shore
 * recording waiting to be refilled from the ship, for the playback timeline.
 */

const Id = Type.String({ minLength: 1, maxLength: 64 });

export const BackfillOrgParams = Type.Object({ orgId: Id });

export const BackfillOrgSetting = Type.Object({
  orgId: Type.String(),
  /** Whether gaps of this organisation's ships' recordings are refilled from the ships. */
  enabled: Type.Boolean(),
  /** Whose switch it is: this organisation's own, one above it, or null (nobody set one: on). */
  fromOrgId: Type.Union([Type.String(), Type.Null()]),
  /** Whether this user may change it (a manager of the organisation or one above it). */
  canEdit: Type.Boolean(),
});
export type BackfillOrgSetting = Static<typeof BackfillOrgSetting>;

export const BackfillOrgUpdate = Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false });
export type BackfillOrgUpdate = Static<typeof BackfillOrgUpdate>;

export const BackfillPendingQuery = Type.Object({ shipId: Id, cameraId: Id });

/** A span of a camera's shore recording waiting for backfill (`pending`) or being copied now (`running`). */
export const BackfillPendingSpan = Type.Object({
  start: Type.Integer(),
  end: Type.Integer(),
  state: Type.Union([Type.Literal('pending'), Type.Literal('running')]),
  /** Why it waits, when not simply its turn: `budget` (the ship's backfill budget is used up for now). */
  waitingFor: Type.Optional(Type.Literal('budget')),
});
export type BackfillPendingSpan = Static<typeof BackfillPendingSpan>;
