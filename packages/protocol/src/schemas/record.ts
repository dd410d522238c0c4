import { Type, type Static } from 'typebox';
import { epochMs } from './common.ts';
import type { CameraGaps, ClipJob, RecordConfig, RecordQueryFilter, RecordQueryPage, RecordingSegment, RecordingSummary } from '../playback.ts';
import { RecordingGapSchema } from './vod.ts';
import { BackfillDefinitionSchema, BackfilledDefinitionSchema } from './backfill.ts';

/**
 * REST schemas of the shore recorder (`/api/v1/cctv/record/…`), matching the interfaces of
 * ../playback.ts (the checks at the bottom fail the typecheck if the two drift apart).
 */


export const RecordPageParams = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: 100_000, description: 'Page number, from 1' }),
  size: Type.Integer({ minimum: 1, maximum: 200, description: 'Recordings per page' }),
});

export const RecordQueryFilterSchema = Type.Object(
  {
    orgId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Organisation (its sub-organisations included)' })),
    shipId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    cameraId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    start: Type.Optional(epochMs('Recordings overlapping [start, end): from')),
    end: Type.Optional(epochMs('Recordings overlapping [start, end): to')),
  },
  { additionalProperties: false },
);

export const RecordingSummarySchema = Type.Object({
  id: Type.String(),
  orgId: Type.String(),
  shipId: Type.String(),
  cameraId: Type.String(),
  recordConfigId: Type.String(),
  templateId: Type.Integer(),
  start: Type.Integer(),
  end: Type.Integer(),
  bytes: Type.Integer(),
  segments: Type.Integer(),
  /** Copied afterwards from the ship recorder into a gap of the shore recording (backfill), not recorded live. */
  backfilled: Type.Boolean(),
  /** A backfilled recording's definition, measured from its files (null: recorded live, its template says, or not known). */
  definition: Type.Union([BackfilledDefinitionSchema, Type.Null()]),
});

export const CameraGapsSchema = Type.Object({
  shipId: Type.String(),
  cameraId: Type.String(),
  gaps: Type.Array(RecordingGapSchema),
});

export const RecordQueryPageSchema = Type.Object({
  page: Type.Integer(),
  size: Type.Integer(),
  total: Type.Integer(),
  records: Type.Array(RecordingSummarySchema),
  gaps: Type.Array(CameraGapsSchema, {
    description:
      "When start and end are given: per camera asked (the filter's, recorded or not, else those with a recording in the span), the times of [start, end) up to now the shore holds nothing, with their cause",
  }),
});

export const RecordingSegmentSchema = Type.Object({
  id: Type.String(),
  recordingId: Type.String(),
  start: Type.Integer(),
  end: Type.Integer(),
  bytes: Type.Integer(),
  mime: Type.String(),
});

export const RecordIdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const ClipRequest = Type.Object(
  {
    start: epochMs('Clip start'),
    end: epochMs('Clip end'),
  },
  { additionalProperties: false },
);
export type ClipRequest = Static<typeof ClipRequest>;

export const ClipJobSchema = Type.Object({
  id: Type.String(),
  recordingId: Type.String(),
  start: Type.Integer(),
  end: Type.Integer(),
  state: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('done'), Type.Literal('failed'), Type.Literal('cancelled')]),
  progress: Type.Integer({ minimum: 0, maximum: 100 }),
  downloadUrl: Type.Union([Type.String(), Type.Null()]),
  message: Type.Union([Type.String(), Type.Null()]),
});

/** Who or what a signed export names: an id and, when known, its name. */
const Named = Type.Object({ id: Type.String(), name: Type.String() });

/** The manifest a clip export carries, signed with the installation's Ed25519 export key. */
export const ExportManifestSchema = Type.Object({
  format: Type.Literal('ship-cctv-export/1'),
  /** The clip job that made it. */
  exportId: Type.String(),
  recordingId: Type.String(),
  ship: Named,
  camera: Named,
  /** The span asked for, epoch ms [start, end). */
  start: Type.Integer(),
  end: Type.Integer(),
  exportedBy: Type.Object({ id: Type.String(), username: Type.String(), displayName: Type.String() }),
  /** When the export was signed (epoch ms). */
  exportedAt: Type.Integer(),
  /** Each file of the export: its name, size and SHA-256 (hex). */
  files: Type.Array(Type.Object({ name: Type.String(), bytes: Type.Integer({ minimum: 0 }), sha256: Type.String() })),
  /** Names the signing key: the first 16 hex digits of the SHA-256 of its raw public key. */
  keyId: Type.String(),
});
export type ExportManifest = Static<typeof ExportManifestSchema>;

export const EXPORT_PROBLEMS = ['notSigned', 'malformed', 'unknownKey', 'badSignature', 'contentChanged'] as const;
export type ExportProblem = (typeof EXPORT_PROBLEMS)[number];

/** The answer about an export: intact or what is wrong with it, and (signature valid) what it holds. */
export const ExportVerdictSchema = Type.Object({
  intact: Type.Boolean(),
  /**
   * What is wrong, null when intact: `notSigned` (no signed manifest at its end), `malformed` (its
   * structure or manifest does not hold together), `unknownKey` (signed by another installation),
   * `badSignature` (manifest or signature changed), `contentChanged` (the video's SHA-256 differs).
   */
  problem: Type.Union([Type.Enum(EXPORT_PROBLEMS), Type.Null()]),
  /** The verdict in Chinese and English. */
  detail: Type.String(),
  /** The key this installation verified with. */
  keyId: Type.String(),
  /** What the export holds, when its signature is this installation's (null otherwise). */
  manifest: Type.Union([ExportManifestSchema, Type.Null()]),
});
export type ExportVerdict = Static<typeof ExportVerdictSchema>;

export const ExportKeySchema = Type.Object({
  keyId: Type.String(),
  /** The public key (PEM, SPKI) for `npm run verify-export -- --key FILE`. */
  publicKeyPem: Type.String(),
});

const ScheduleWindow = Type.Object({
  from: Type.Integer({ minimum: 0, maximum: 1440, description: 'Minutes after midnight in the configuration\'s time zone' }),
  to: Type.Integer({ minimum: 0, maximum: 1440, description: 'Minutes after midnight in the configuration\'s time zone (exclusive)' }),
});
const TimeZone = Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone of the windows, e.g. Asia/Shanghai (default UTC)' });

export const RecordConfigSchema = Type.Object({
  id: Type.String(),
  cameraId: Type.String(),
  mode: Type.Union([Type.Literal('continuous'), Type.Literal('scheduled')]),
  schedule: Type.Array(ScheduleWindow),
  timeZone: TimeZone,
  enabled: Type.Boolean(),
  /** Gaps in the shore recording are refilled from the ship recorder (backfill) when its organisation allows. */
  backfill: Type.Boolean(),
  /** The definition its gaps are refilled in; null: its organisation's choice. */
  backfillDefinition: Type.Union([BackfillDefinitionSchema, Type.Null()]),
});

/** Body of creating or replacing a record configuration. */
export const RecordConfigInput = Type.Object(
  {
    cameraId: Type.String({ minLength: 1, maxLength: 64 }),
    mode: Type.Union([Type.Literal('continuous'), Type.Literal('scheduled')]),
    schedule: Type.Optional(Type.Array(ScheduleWindow, { maxItems: 48 })),
    timeZone: Type.Optional(TimeZone),
    enabled: Type.Optional(Type.Boolean()),
    backfill: Type.Optional(Type.Boolean({ description: 'Refill gaps of the shore recording from the ship recorder (default true)' })),
    backfillDefinition: Type.Optional(Type.Union([BackfillDefinitionSchema, Type.Null()], { description: 'The definition gaps are refilled in; null: the organisation’s choice (left out: unchanged, new: null)' })),
  },
  { additionalProperties: false },
);
export type RecordConfigInput = Static<typeof RecordConfigInput>;

export const RecordConfigQuery = Type.Object({
  shipId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  cameraId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
});

// Compile-time agreement with the interfaces of ../playback.ts.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agree = <T extends true>(): T | undefined => undefined;
agree<Same<Static<typeof RecordQueryFilterSchema>, RecordQueryFilter>>();
agree<Same<Static<typeof RecordingSummarySchema>, RecordingSummary>>();
agree<Same<Static<typeof CameraGapsSchema>, CameraGaps>>();
agree<Same<Static<typeof RecordQueryPageSchema>, RecordQueryPage>>();
agree<Same<Static<typeof RecordingSegmentSchema>, RecordingSegment>>();
agree<Same<Static<typeof ClipJobSchema>, ClipJob>>();
agree<Same<Static<typeof RecordConfigSchema>, RecordConfig>>();
