import { Type, type Static } from 'typebox';
import { epochMs } from './common.ts';

/**
 * REST schemas of pictures (spec §7 "Playback and pictures"; the payloads are this product's):
 * snapshot now (`/cctvv3-server/v3/snapshot/requestPro/…`), the picture itself
 * (`/cctvv3-server/v3/th/getById/{id}`), shore's pictures (`/api/v1/cctv/snapshot/complexQuery/…`)
 * and the ship's (`/api/v1/cctv-server/v3/getPicList/{shipId}`), and fetching one from the ship.
 * What a page hears while a picture crosses comes over STOMP on `/pictures/{shipName}`
 * (PictureEvent).
 */

const Id = (description: string) => Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.:-]+$', description });
const PictureIdParam = Type.String({ pattern: '^[A-Za-z0-9_-]{8,64}$', description: 'Picture id' });
export const PictureOriginName = Type.Union([Type.Literal('manual'), Type.Literal('task')]);
/**
 * Where a picture on shore came from: the ship's two (snapshot now, a snapshot task) and stills
 * mode's pictures, which the ship takes as snapshots and shore knows as stills.
 */
export const ShorePictureOrigin = Type.Union([Type.Literal('manual'), Type.Literal('task'), Type.Literal('stills')]);
export type ShorePictureOrigin = Static<typeof ShorePictureOrigin>;

export const SnapshotParams = Type.Object({
  shipId: Id('Ship'),
  channelId: Id('Channel of the camera'),
  cameraId: Id('Camera'),
  templateId: Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Picture template (definition model) whose size the picture takes; 720 is the picture config (1280×720 unless the ship defines it)' }),
  source: Type.String({
    pattern: '^(live|[0-9]{1,16})$',
    description: '`live`: the camera now; an epoch ms: the ship recorder at that time',
  }),
});

export const SnapshotAnswerSchema = Type.Object({
  pictureId: Type.String(),
  shipId: Type.String(),
  cameraId: Type.String(),
  /** The box the picture is fitted into. */
  width: Type.Integer(),
  height: Type.Integer(),
});
export type SnapshotAnswer = Static<typeof SnapshotAnswerSchema>;

export const PictureIdParams = Type.Object({ id: PictureIdParam });
export const PictureBlobQuery = Type.Object({
  thumb: Type.Optional(Type.Union([Type.Literal('1'), Type.Literal('0')], { description: '1: the thumbnail' })),
  download: Type.Optional(Type.Union([Type.Literal('1'), Type.Literal('0')], { description: '1: as an attachment' })),
});

export const PicturePageParams = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: 100_000, description: 'Page number, from 1' }),
  size: Type.Integer({ minimum: 1, maximum: 200, description: 'Pictures per page' }),
});

export const PictureFilterSchema = Type.Object(
  {
    orgId: Type.Optional(Id('Organisation (its sub-organisations included)')),
    shipId: Type.Optional(Id('Ship')),
    channelId: Type.Optional(Id('Channel')),
    cameraId: Type.Optional(Id('Camera')),
    from: Type.Optional(epochMs('Taken at or after')),
    to: Type.Optional(epochMs('Taken before')),
    origin: Type.Optional(ShorePictureOrigin),
  },
  { additionalProperties: false },
);
export type PictureFilter = Static<typeof PictureFilterSchema>;

export const PictureInfoSchema = Type.Object({
  id: Type.String(),
  orgId: Type.String(),
  shipId: Type.String(),
  shipName: Type.String(),
  channelId: Type.String(),
  cameraId: Type.String(),
  takenAt: Type.Integer(),
  origin: ShorePictureOrigin,
  taskId: Type.Union([Type.String(), Type.Null()]),
  bytes: Type.Integer(),
  width: Type.Integer(),
  height: Type.Integer(),
  storedAt: Type.Integer(),
});
export type PictureInfo = Static<typeof PictureInfoSchema>;

export const PicturePageSchema = Type.Object({
  page: Type.Integer(),
  size: Type.Integer(),
  total: Type.Integer(),
  pictures: Type.Array(PictureInfoSchema),
});
export type PicturePage = Static<typeof PicturePageSchema>;

export const ShipPicListParams = Type.Object({ shipId: Id('Ship') });
export const ShipPicListBody = Type.Object(
  {
    cameraId: Id('Camera'),
    from: epochMs('Taken at or after'),
    to: epochMs('Taken before'),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: 'Most pictures (newest first); default 48' })),
  },
  { additionalProperties: false },
);
export type ShipPicListRequest = Static<typeof ShipPicListBody>;

export const ShipPictureSchema = Type.Object({
  pictureId: Type.String(),
  cameraId: Type.String(),
  time: Type.Integer(),
  bytes: Type.Integer(),
  width: Type.Integer(),
  height: Type.Integer(),
  origin: PictureOriginName,
  /** Shore holds the picture itself (GET getById shows it without crossing the link). */
  onShore: Type.Boolean(),
  /** Shore holds its thumbnail (GET getById?thumb=1). */
  hasThumb: Type.Boolean(),
});
export type ShipPicture = Static<typeof ShipPictureSchema>;

export const ShipPicListSchema = Type.Object({
  shipId: Type.String(),
  cameraId: Type.String(),
  from: Type.Integer(),
  to: Type.Integer(),
  /** Answered from what shore learnt before (the ship is offline); the ship may hold more now. */
  cached: Type.Boolean(),
  truncated: Type.Boolean(),
  /** Bytes this answer cost over the link (list and thumbnails); 0 from the cache. */
  linkBytes: Type.Integer(),
  pictures: Type.Array(ShipPictureSchema),
});
export type ShipPicList = Static<typeof ShipPicListSchema>;

export const PictureFetchParams = Type.Object({ shipId: Id('Ship'), id: PictureIdParam });
export const PictureFetchAnswerSchema = Type.Object({
  pictureId: Type.String(),
  /** `onShore`: shore has it already; `queued`: the ship sends it next (`position` before it). */
  state: Type.Union([Type.Literal('onShore'), Type.Literal('queued')]),
  position: Type.Integer(),
  bytes: Type.Integer(),
});
export type PictureFetchAnswer = Static<typeof PictureFetchAnswerSchema>;

/**
 * What `/pictures/{shipName}` carries about a picture on its way: `taken` (on the ship, waiting
 * in its outbox), `queued` (next to go), `progress` (bytes shore holds of it), `stored` (shore
 * has it), `waiting` (the link is down: it goes when the link is back), `failed` (the ship could
 * not take it; picture transfer failed).
 */
export interface PictureEvent {
  event: 'taken' | 'queued' | 'progress' | 'stored' | 'waiting' | 'failed';
  pictureId: string;
  shipId: string;
  cameraId?: string;
  bytes?: number;
  total?: number;
  code?: string;
  message?: string;
}

// ── snapshot tasks (spec §7 "Snapshot tasks") ───────────────────────────────────────────────────

/** Shortest rate: a shot a minute (1/60 hour); longest: one every 30 days. */
export const TASK_RATE_HOURS = { min: 1 / 60, max: 720 } as const;
/** Longest window of a task. */
export const TASK_MAX_WINDOW_MS = 366 * 86_400_000;
/** Most shots one task may plan (every camera counted). */
export const TASK_MAX_SHOTS = 20_000;

export const SnapshotTaskRequestSchema = Type.Object(
  {
    shipId: Id('Ship'),
    channelIds: Type.Array(Id('Channel'), { minItems: 1, maxItems: 64, description: 'Channels of the ship to shoot (every camera of each)' }),
    rateHours: Type.Number({ exclusiveMinimum: 0, maximum: TASK_RATE_HOURS.max, description: 'Hours per shot (fractions allowed: 0.25 is every 15 minutes); at least 1/60' }),
    start: epochMs('First shot'),
    end: epochMs('No shot at or after'),
    templateId: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Picture template; default 720 (the picture config)' })),
  },
  { additionalProperties: false },
);
export type SnapshotTaskRequest = Static<typeof SnapshotTaskRequestSchema>;

export const TaskIdParams = Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9-]{8,40}$', description: 'Task id' }) });

export const TaskListBody = Type.Object(
  { orgId: Type.Optional(Id('Organisation')), shipId: Type.Optional(Id('Ship')) },
  { additionalProperties: false },
);

/**
 * A task's state: `pending` (not handed over to the ship yet: its link is down), `active` (the ship
 * holds it and shoots), `linkDown` (the ship holds it and goes on shooting, but its link is down:
 * shore hears of the shots when it is back), `finished` (the window is over), `deleted`.
 */
export const TASK_STATES = ['pending', 'active', 'linkDown', 'finished', 'deleted'] as const;
export type TaskState = (typeof TASK_STATES)[number];
/** A shot's state: planned (later, or due and not reported yet), onItsWay (taken, in the ship's outbox), onShore, failed. */
export const SHOT_STATES = ['planned', 'onItsWay', 'onShore', 'failed'] as const;
export type ShotState = (typeof SHOT_STATES)[number];

export const SnapshotTaskStatusSchema = Type.Object({
  id: Type.String(),
  orgId: Type.String(),
  shipId: Type.String(),
  shipName: Type.String(),
  channelIds: Type.Array(Type.String()),
  cameraIds: Type.Array(Type.String()),
  rateHours: Type.Number(),
  start: Type.Integer(),
  end: Type.Integer(),
  templateId: Type.Integer(),
  state: Type.Enum(TASK_STATES),
  createdAt: Type.Integer(),
  handedOverAt: Type.Union([Type.Integer(), Type.Null()]),
  counts: Type.Object({
    /** Shots the task plans in all. */
    total: Type.Integer(),
    planned: Type.Integer(),
    onItsWay: Type.Integer(),
    onShore: Type.Integer(),
    failed: Type.Integer(),
  }),
});
export type SnapshotTaskStatus = Static<typeof SnapshotTaskStatusSchema>;

export const TaskShotSchema = Type.Object({
  cameraId: Type.String(),
  index: Type.Integer(),
  plannedAt: Type.Integer(),
  state: Type.Enum(SHOT_STATES),
  pictureId: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()]),
});
export type TaskShot = Static<typeof TaskShotSchema>;

export const SnapshotTaskDetailSchema = Type.Object({ task: SnapshotTaskStatusSchema, shots: Type.Array(TaskShotSchema) });
export type SnapshotTaskDetail = Static<typeof SnapshotTaskDetailSchema>;

// ── AI super-resolution (spec §7 "AI super-resolution") ────────────────────────────────────────

/** The largest picture each scale takes (results of at most 3840×2160 at ×2, 5120×2880 at ×4: about a minute on two cores). */
export const ENHANCE_MAX_INPUT = { 2: { width: 1920, height: 1080 }, 4: { width: 1280, height: 720 } } as const;

export const EnhanceRequestSchema = Type.Object(
  {
    pictureId: PictureIdParam,
    scale: Type.Union([Type.Literal(2), Type.Literal(4)], { description: 'How many times larger: 2 or 4' }),
  },
  { additionalProperties: false },
);
export type EnhanceRequest = Static<typeof EnhanceRequestSchema>;

export const EnhanceIdParams = Type.Object({ id: Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9-]+$', description: 'Enhancement (job) id' }) });

export const EnhanceJobSchema = Type.Object({
  jobId: Type.String(),
  pictureId: Type.String(),
  scale: Type.Union([Type.Literal(2), Type.Literal(4)]),
  /** queued → running → done | failed | cancelled. */
  state: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('done'), Type.Literal('failed'), Type.Literal('cancelled')]),
  /** 0–100, tile by tile. */
  progress: Type.Integer(),
  message: Type.Union([Type.String(), Type.Null()]),
  width: Type.Union([Type.Integer(), Type.Null()]),
  height: Type.Union([Type.Integer(), Type.Null()]),
  bytes: Type.Union([Type.Integer(), Type.Null()]),
});
export type EnhanceJob = Static<typeof EnhanceJobSchema>;
