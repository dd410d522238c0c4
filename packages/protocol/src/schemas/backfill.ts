import { type Static, Type } from 'typebox';
import { BACKFILL_DEFINITIONS } from '../playback.ts';

/**
 * REST schemas of backfill (`/api/v1/cctv/record/backfill/…`): the organisation's switch (each
 * camera's is `backfill` of its recording configuration) and the spans of a camera's shore
 * recording waiting to be refilled from the ship, for the playback timeline.
 */

const Id = Type.String({ minLength: 1, maxLength: 64 });

export const BackfillDefinitionSchema = Type.Enum(BACKFILL_DEFINITIONS, {
  description: 'recorded (as the shore recorded it; default), lowest, satellite, or ship (the ship recorder’s own files, copied)',
});

/** What a backfilled recording holds, measured from its files, and whether the ship transcoded it (else: the ship's own bytes). */
export const BackfilledDefinitionSchema = Type.Object({
  width: Type.Integer(),
  height: Type.Integer(),
  frameRate: Type.Number(),
  bitrateKbps: Type.Integer(),
  /** RFC 6381 codec of the video, e.g. avc1.42c01e. */
  codec: Type.String(),
  transcoded: Type.Boolean(),
});
export type BackfilledDefinition = Static<typeof BackfilledDefinitionSchema>;

export const BackfillOrgParams = Type.Object({ orgId: Id });

export const BackfillOrgSetting = Type.Object({
  orgId: Type.String(),
  /** Whether gaps of this organisation's ships' recordings are refilled from the ships. */
  enabled: Type.Boolean(),
  /** Whose switch it is: this organisation's own, one above it, or null (nobody set one: on). */
  fromOrgId: Type.Union([Type.String(), Type.Null()]),
  /** The definition gaps are refilled in (its cameras may choose their own, `backfillDefinition` of their recording configuration). */
  definition: BackfillDefinitionSchema,
  /** Whose choice of definition it is: this organisation's own, one above it, or null (nobody chose: `recorded`). */
  definitionFromOrgId: Type.Union([Type.String(), Type.Null()]),
  /** Whether this user may change it (a manager of the organisation or one above it). */
  canEdit: Type.Boolean(),
});
export type BackfillOrgSetting = Static<typeof BackfillOrgSetting>;

/** The switch, the definition, or both (at least one). */
export const BackfillOrgUpdate = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    definition: Type.Optional(BackfillDefinitionSchema),
  },
  { additionalProperties: false, minProperties: 1 },
);
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
