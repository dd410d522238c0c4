import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { ShipJsonObject } from '@ship-cctv/protocol';

/** Operators who sign in. */
export const users = pgTable('users', {
  id: text('id').primaryKey(),
  username: text('username').notNull().unique(),
  displayName: text('display_name').notNull(),
  passwordHash: text('password_hash').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Organisations form a tree through parentId; membership of a node covers its subtree. */
export const organizations = pgTable(
  'organizations',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull().unique(),
    displayName: text('display_name').notNull(),
    parentId: text('parent_id'),
    /** Seconds a viewer should expect before a ship's first frame. */
    waitTimeSeconds: integer('wait_time_seconds').notNull().default(8),
    /** Continuous watching limit for playback and live (spec §9: 20 minutes). */
    autoShutdownEnabled: boolean('auto_shutdown_enabled').notNull().default(true),
    autoShutdownMinutes: integer('auto_shutdown_minutes').notNull().default(20),
    autoShutdownCountdownSeconds: integer('auto_shutdown_countdown_seconds').notNull().default(10),
  },
  (t) => [index('organizations_parent_idx').on(t.parentId)],
);

export const memberships = pgTable(
  'memberships',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Only "manager" exists today (spec §6); kept per membership for later role rules. */
    role: text('role').notNull().default('manager'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.orgId] })],
);

export const ships = pgTable(
  'ships',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    enName: text('en_name').notNull().default(''),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    jsonObject: jsonb('json_object').$type<ShipJsonObject>().notNull(),
    timeZone: text('time_zone').notNull().default('Asia/Shanghai'),
    /** Sort order within the organisation. */
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('ships_org_idx').on(t.orgId)],
);

export const channels = pgTable(
  'channels',
  {
    id: text('id').primaryKey(),
    shipId: text('ship_id')
      .notNull()
      .references(() => ships.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** 1: hidden from operators. */
    block: integer('block').notNull().default(0),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('channels_ship_idx').on(t.shipId)],
);

export const cameras = pgTable(
  'cameras',
  {
    id: text('id').primaryKey(),
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type').notNull().default('ipc'),
    sourceType: text('source_type').notNull(),
    /** Source parameters as the spec parses them (cameraId=… or cctvInstanceId=…|iosChannelId=…). */
    other: text('other').notNull().default(''),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('cameras_channel_idx').on(t.channelId)],
);

/** A definition group holds definition models (templates) a stream can be encoded at. */
export const definitionGroups = pgTable('definition_groups', {
  id: serial('id').primaryKey(),
  orgId: text('org_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  /** The name in Chinese (the spec's displayName); the English one beside it, when known. */
  displayName: text('display_name').notNull(),
  displayNameEn: text('display_name_en'),
  defaultModelId: integer('default_model_id'),
});

export const definitionModels = pgTable(
  'definition_models',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => definitionGroups.id, { onDelete: 'cascade' }),
    /** The name in Chinese (the spec's displayName); the English one beside it, when known. */
    displayName: text('display_name').notNull(),
    displayNameEn: text('display_name_en'),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    frameRate: integer('frame_rate').notNull(),
    bitrateKbps: integer('bitrate_kbps').notNull(),
    codec: text('codec').notNull().default('h264'),
  },
  (t) => [index('definition_models_group_idx').on(t.groupId)],
);

/** Per-ship configuration: which definition groups apply, the default one, talkback and audio. */
export const shipConfigs = pgTable('ship_configs', {
  shipId: text('ship_id')
    .primaryKey()
    .references(() => ships.id, { onDelete: 'cascade' }),
  defaultGroupId: integer('default_group_id').references(() => definitionGroups.id, { onDelete: 'set null' }),
  talk: boolean('talk').notNull().default(false),
  audio: boolean('audio').notNull().default(false),
});

export const shipDefinitionGroups = pgTable(
  'ship_definition_groups',
  {
    shipId: text('ship_id')
      .notNull()
      .references(() => ships.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => definitionGroups.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.shipId, t.groupId] })],
);

export const channelTags = pgTable('channel_tags', {
  id: serial('id').primaryKey(),
  orgId: text('org_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
});

export const channelTagMembers = pgTable(
  'channel_tag_members',
  {
    tagId: integer('tag_id')
      .notNull()
      .references(() => channelTags.id, { onDelete: 'cascade' }),
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.tagId, t.channelId] })],
);

/**
 * One row per sign-in. A token is accepted only while its session row is active; a newer sign-in
 * of the same user ends older sessions with endReason "displaced" (answered as code 402).
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** "logout" or "displaced". */
    endReason: text('end_reason'),
    address: text('address'),
    userAgent: text('user_agent'),
  },
  (t) => [
    index('sessions_user_idx').on(t.userId),
    uniqueIndex('sessions_one_active_per_user').on(t.userId).where(sql`ended_at is null`),
  ],
);

/** Installation-wide values shared by every server instance (e.g. the token signing key). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/**
 * A ship agent's credential: the SHA-256 of a random 256-bit key (a high-entropy secret needs no
 * slow hash). Issuing a new key replaces the old one.
 */
export const shipAgentKeys = pgTable('ship_agent_keys', {
  shipId: text('ship_id')
    .primaryKey()
    .references(() => ships.id, { onDelete: 'cascade' }),
  keyHash: text('key_hash').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

// ---------------------------------------------------------------------------------------------
// Shore recorder (see src/recorder/): what crossed the link while somebody watched live and a
// recording configuration of the channel was active. Times are epoch milliseconds.

/** A recording configuration of one camera: continuous, or daily windows (minutes after midnight in its time zone). */
export const recordConfigs = pgTable(
  'record_configs',
  {
    id: text('id').primaryKey(),
    cameraId: text('camera_id')
      .notNull()
      .references(() => cameras.id, { onDelete: 'cascade' }),
    /** "continuous" or "scheduled". */
    mode: text('mode').notNull(),
    schedule: jsonb('schedule').$type<{ from: number; to: number }[]>().notNull().default([]),
    /** IANA time zone the windows are read in. */
    timeZone: text('time_zone').notNull().default('UTC'),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('record_configs_camera_idx').on(t.cameraId)],
);

/**
 * One recording: a continuous run of segments of one camera at one definition. `open` while the
 * recorder still appends to it; start/end/bytes/segments follow its indexed segments.
 */
export const recordings = pgTable(
  'recordings',
  {
    id: text('id').primaryKey(),
    cameraId: text('camera_id')
      .notNull()
      .references(() => cameras.id, { onDelete: 'cascade' }),
    shipId: text('ship_id')
      .notNull()
      .references(() => ships.id, { onDelete: 'cascade' }),
    /** The configuration that made it (kept as a plain id: the configuration may be deleted later). */
    recordConfigId: text('record_config_id').notNull(),
    templateId: integer('template_id').notNull(),
    startMs: bigint('start_ms', { mode: 'number' }).notNull(),
    endMs: bigint('end_ms', { mode: 'number' }).notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    segments: integer('segments').notNull().default(0),
    open: boolean('open').notNull().default(true),
  },
  (t) => [index('recordings_camera_start_idx').on(t.cameraId, t.startMs), index('recordings_ship_idx').on(t.shipId)],
);

/** A self-contained fMP4 file (init + fragments) of a recording, indexed only once it is complete on disk. */
export const recordingSegments = pgTable(
  'recording_segments',
  {
    id: text('id').primaryKey(),
    recordingId: text('recording_id')
      .notNull()
      .references(() => recordings.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    startMs: bigint('start_ms', { mode: 'number' }).notNull(),
    endMs: bigint('end_ms', { mode: 'number' }).notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    /** Path under the recordings folder. */
    file: text('file').notNull(),
    mime: text('mime').notNull(),
  },
  (t) => [index('recording_segments_recording_idx').on(t.recordingId, t.startMs), index('recording_segments_start_idx').on(t.startMs)],
);

// Jobs ----------------------------------------------------------------------------------------
// Persisted work (clip exports today; picture transfers and snapshot tasks next) that any shore
// instance may run: each job is claimed by one instance with `FOR UPDATE SKIP LOCKED` and held by a
// lease it renews while it works; a job whose instance died is taken up again when its lease ends.

export const jobs = pgTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    /** Order of enqueueing (timestamps of two quick inserts may be equal). */
    seq: serial('seq').notNull(),
    /** What to do: a handler registered under this kind runs it (e.g. "clip.export"). */
    kind: text('kind').notNull(),
    /** Who asked (a user id, or "schedule:<name>"): jobs take turns between owners. */
    owner: text('owner').notNull(),
    /** The organisation whose data it touches (access checks), when there is one. */
    orgId: text('org_id'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** queued → running → done | failed | cancelled. */
    state: text('state').notNull().default('queued'),
    /** 0–100. */
    progress: integer('progress').notNull().default(0),
    /** Why it failed or was cancelled. */
    message: text('message'),
    result: jsonb('result').$type<Record<string, unknown>>(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    /** The instance running it and until when its claim holds. */
    instance: text('instance'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    /** Set for scheduled runs ("<schedule>@<time>"): the first instance to enqueue a run wins. */
    uniqueKey: text('unique_key').unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('jobs_claim_idx').on(t.kind, t.state, t.seq), index('jobs_owner_idx').on(t.owner, t.startedAt)],
);

/**
 * Pictures shore holds (files under DATA_DIR/pictures): snapshots and task pictures that crossed
 * from a ship, each once (the id is the ship's or shore's, unique across the fleet).
 */
export const pictures = pgTable(
  'pictures',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id').notNull(),
    shipId: text('ship_id').notNull(),
    channelId: text('channel_id').notNull(),
    cameraId: text('camera_id').notNull(),
    /** When the picture shows. */
    takenAt: timestamp('taken_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** manual (snapshot now) | task (a snapshot task's shot) | stills (stills mode's snapshot). */
    origin: text('origin').notNull(),
    taskId: text('task_id'),
    mime: text('mime').notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    sha256: text('sha256').notNull(),
    /** Paths under the pictures folder. */
    file: text('file').notNull(),
    thumbFile: text('thumb_file').notNull(),
    thumbBytes: integer('thumb_bytes').notNull(),
    storedAt: timestamp('stored_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('pictures_org_time_idx').on(t.orgId, t.takenAt), index('pictures_camera_time_idx').on(t.cameraId, t.takenAt)],
);

/**
 * What shore learnt of the pictures a ship holds (`pictures.list` answers), with the ship's
 * thumbnail cached under DATA_DIR/pictures/ship-thumbs: a list already fetched is shown again
 * without crossing the link, and while the ship is offline.
 */
export const shipPictures = pgTable(
  'ship_pictures',
  {
    id: text('id').primaryKey(),
    shipId: text('ship_id').notNull(),
    cameraId: text('camera_id').notNull(),
    takenAt: timestamp('taken_at', { withTimezone: true, mode: 'date' }).notNull(),
    origin: text('origin').notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    thumbFile: text('thumb_file'),
    listedAt: timestamp('listed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ship_pictures_camera_time_idx').on(t.cameraId, t.takenAt)],
);

/**
 * Snapshot tasks: pictures of channels every `everyMs` within [start, end), taken by the ship on its
 * own clock. `heldAt` is when the ship last confirmed it holds the current set of its tasks (a task
 * added or deleted since is not handed over yet).
 */
export const snapshotTasks = pgTable(
  'snapshot_tasks',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id').notNull(),
    shipId: text('ship_id').notNull(),
    owner: text('owner').notNull(),
    channelIds: jsonb('channel_ids').$type<string[]>().notNull(),
    cameraIds: jsonb('camera_ids').$type<string[]>().notNull(),
    everyMs: bigint('every_ms', { mode: 'number' }).notNull(),
    startAt: timestamp('start_at', { withTimezone: true, mode: 'date' }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true, mode: 'date' }).notNull(),
    templateId: integer('template_id').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** The ship confirmed it holds the task (its hand-over). */
    handedOverAt: timestamp('handed_over_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** The ship confirmed it dropped the deleted task. */
    droppedAt: timestamp('dropped_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('snapshot_tasks_ship_idx').on(t.shipId), index('snapshot_tasks_org_idx').on(t.orgId)],
);

/** What the ship reported of each shot of a task (a shot not listed is planned, or not reported yet). */
export const snapshotShots = pgTable(
  'snapshot_shots',
  {
    taskId: text('task_id').notNull(),
    cameraId: text('camera_id').notNull(),
    idx: integer('idx').notNull(),
    /** taken | failed. */
    outcome: text('outcome').notNull(),
    pictureId: text('picture_id'),
    reason: text('reason'),
    reportedAt: timestamp('reported_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.cameraId, t.idx] })],
);

// Carousels ------------------------------------------------------------------------------------
// Rotating views of channels (spec §1, §4). A simple carousel runs in the browser that opens it; a
// task carousel, once started, runs on shore: its page follows from `startedAt` on the server's
// clock, and one instance (the holder of its `carousel.run` job) publishes each page.

export const carousels = pgTable(
  'carousels',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** simple | task. */
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    layout: integer('layout').notNull(),
    minutes: integer('minutes').notNull(),
    /** The seconds override (tests and demonstrations), or null. */
    seconds: integer('seconds'),
    /** Definition model of every cell, or null for each ship's default. */
    templateId: integer('template_id'),
    channelIds: jsonb('channel_ids').$type<string[]>().notNull(),
    /** channels | ships | organisation (simple carousels: channels). */
    mode: text('mode').notNull().default('channels'),
    shipIds: jsonb('ship_ids').$type<string[]>().notNull(),
    schedule: jsonb('schedule').$type<{ days: number[]; start: string; end: string; timeZone: string } | null>(),
    /** Set while a task runs: its pages are counted from here. */
    startedAt: timestamp('started_at', { withTimezone: true }),
    /** The job that publishes the running task's pages. */
    runJobId: text('run_job_id'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('carousels_org_idx').on(t.orgId, t.kind)],
);

/**
 * Data budgets (MB per day and per month, by purpose) and what happens at 100 %: a ship's own row
 * (`ship_id` = the ship) or its organisation's default for every ship below it (`ship_id` = '').
 */
export const dataBudgets = pgTable(
  'data_budgets',
  {
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The ship, or '' for the organisation's default. */
    shipId: text('ship_id').notNull().default(''),
    /** link | lowest | stills | block (link: the policy of the link the ship is on). */
    policy: text('policy').notNull(),
    caps: jsonb('caps').$type<Record<'live' | 'playback' | 'pictures', { dayMb?: number; monthMb?: number }>>().notNull(),
    updatedBy: text('updated_by').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.shipId] })],
);

/**
 * Bytes a ship's link carried per day of the ship's own calendar (its time zone) and purpose: every
 * instance adds what its own links counted since its last flush, so the sum is the cluster's.
 */
export const linkUsage = pgTable(
  'link_usage',
  {
    shipId: text('ship_id').notNull(),
    /** YYYY-MM-DD in the ship's time zone. */
    day: text('day').notNull(),
    purpose: text('purpose').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.shipId, t.day, t.purpose] })],
);

/** Budget notices sent: one per ship, purpose, period and level, whichever instance sends it first. */
export const budgetNotices = pgTable(
  'budget_notices',
  {
    shipId: text('ship_id').notNull(),
    purpose: text('purpose').notNull(),
    /** YYYY-MM-DD (a day) or YYYY-MM (a month) of the ship's calendar. */
    period: text('period').notNull(),
    level: integer('level').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.shipId, t.purpose, t.period, t.level] })],
);

/** Live views let past a `block` budget: who, when, why, which ship, and until when it holds. */
export const budgetOverrides = pgTable(
  'budget_overrides',
  {
    id: serial('id').primaryKey(),
    shipId: text('ship_id').notNull(),
    orgId: text('org_id').notNull(),
    userId: text('user_id').notNull(),
    username: text('username').notNull(),
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    validUntil: timestamp('valid_until', { withTimezone: true }).notNull(),
  },
  (t) => [index('budget_overrides_ship_idx').on(t.shipId, t.validUntil), index('budget_overrides_org_idx').on(t.orgId, t.createdAt)],
);

/**
 * An organisation's own definition policy for one link type (issue 19 item 4); a link type without
 * a row follows the nearest organisation above that has one, else LINK_POLICY_DEFAULTS.
 */
export const linkPolicies = pgTable(
  'link_policies',
  {
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** One of POLICY_LINKS. */
    linkType: text('link_type').notNull(),
    /** lowest | standard | best, for a cell of a 9- or 16-cell grid. */
    manyCells: text('many_cells').notNull(),
    fewCells: text('few_cells').notNull(),
    fullScreen: text('full_screen').notNull(),
    stills: boolean('stills').notNull(),
    stillsEverySeconds: integer('stills_every_seconds').notNull(),
    /** lowest | stills | block: a used-up live budget on this link (ships whose budget follows the link); null: the link type's default. */
    budgetPolicy: text('budget_policy'),
    updatedBy: text('updated_by').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.linkType] })],
);

/**
 * Stills mode (issue 19 item 3): the latest picture shore asked a ship to take for a camera's
 * stills, one row per camera. Every viewer of the camera's stills reads it, and a new take
 * replaces it only by a compare-and-set on `picture_id` — so viewers on any instance share one
 * take per period.
 */
export const cameraStills = pgTable('camera_stills', {
  cameraId: text('camera_id')
    .primaryKey()
    .references(() => cameras.id, { onDelete: 'cascade' }),
  pictureId: text('picture_id').notNull(),
  requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
  /** asked | taken | failed (StillTakeState). */
  state: text('state').notNull(),
  /** The picture's size as the ship reported it once taken. */
  bytes: integer('bytes'),
  code: text('code'),
  message: text('message'),
});
