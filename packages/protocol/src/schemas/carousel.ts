import { Type, type Static } from 'typebox';

/**
 * Carousels (spec §1 "run a carousel", §2 /carouselConfig, §4 carousel tasks, §9 "carousel time is
 * in minutes"): rotating views of channels, page by page. All under `/api/v1/cctv/carousel/`.
 *
 * A *simple* carousel is a named, ordered list of channels with a layout, a dwell time and a
 * definition; it runs in the browser that opens it. A *task* carousel adds a mode (the channels
 * listed, every channel of chosen ships, or every channel of an organisation and its
 * sub-organisations) and an optional weekly schedule; once started it runs on shore, on the
 * server's clock, and every screen showing it follows the page shore publishes on
 * `/carousel/{id}` (CarouselStatus).
 */

const Id = (description: string) => Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.:-]+$', description });

export const CAROUSEL_LAYOUTS = [1, 4, 9, 16] as const;
export type CarouselLayout = (typeof CAROUSEL_LAYOUTS)[number];
export const CAROUSEL_MODES = ['channels', 'ships', 'organisation'] as const;
export type CarouselMode = (typeof CAROUSEL_MODES)[number];
export const CAROUSEL_KINDS = ['simple', 'task'] as const;
export type CarouselKind = (typeof CAROUSEL_KINDS)[number];

/** Limits of a carousel's input. */
export const CAROUSEL_LIMITS = {
  /** Channels one carousel lists (mode `channels`). */
  maxChannels: 256,
  maxShips: 64,
  /** Dwell per page, minutes (spec §9: carousel time is in minutes). */
  minMinutes: 1,
  maxMinutes: 1440,
  /** The seconds override (for tests and demonstrations; the server allows it only when configured). */
  minSeconds: 5,
  maxSeconds: 3600,
  nameLength: 64,
} as const;

/**
 * The one paging rule, on shore (a task's pages) and in the browser (a simple carousel's): the
 * items in order, `layout` to a page, the last page holding the rest; no items, no pages.
 */
export function carouselPages<T>(items: readonly T[], layout: number): T[][] {
  const size = Math.max(1, Math.floor(layout));
  const pages: T[][] = [];
  for (let i = 0; i < items.length; i += size) pages.push(items.slice(i, i + size));
  return pages;
}

/** Seconds before a page switch that the next page's streams start, so it appears at once (default). */
export const CAROUSEL_PREWARM_SECONDS = 5;

/** A weekly schedule: on these days (1 = Monday … 7 = Sunday), from `start` to `end` (HH:mm) in `timeZone`. An end at or before the start runs past midnight. */
export const CarouselScheduleSchema = Type.Object(
  {
    days: Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), { minItems: 1, maxItems: 7, uniqueItems: true, description: 'Days of the week, 1 = Monday … 7 = Sunday' }),
    start: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'Start time of day, HH:mm' }),
    end: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'End time of day, HH:mm (at or before start: the next day)' }),
    timeZone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone of the times, e.g. Asia/Shanghai' }),
  },
  { additionalProperties: false },
);
export type CarouselSchedule = Static<typeof CarouselScheduleSchema>;

const commonFields = {
  /** Present to update an existing carousel; absent to create one. */
  id: Type.Optional(Id('Carousel to update (absent: a new one)')),
  name: Type.String({ minLength: 1, maxLength: CAROUSEL_LIMITS.nameLength, description: 'Name shown in the list' }),
  orgId: Id('Organisation the carousel belongs to'),
  layout: Type.Union([Type.Literal(1), Type.Literal(4), Type.Literal(9), Type.Literal(16)], { description: 'Cells per page: 1, 4, 9 or 16' }),
  minutes: Type.Integer({ minimum: CAROUSEL_LIMITS.minMinutes, maximum: CAROUSEL_LIMITS.maxMinutes, description: 'Carousel time: minutes each page stays' }),
  seconds: Type.Optional(
    Type.Integer({ minimum: CAROUSEL_LIMITS.minSeconds, maximum: CAROUSEL_LIMITS.maxSeconds, description: 'Overrides minutes with seconds (only where the server allows it: CAROUSEL_SECONDS=1)' }),
  ),
  templateId: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Definition model of every cell (absent: each ship’s default)' })),
  channelIds: Type.Array(Id('Channel'), { maxItems: CAROUSEL_LIMITS.maxChannels, uniqueItems: true, description: 'Channels in order (mode channels)' }),
};

/** `POST add1`: a simple carousel. */
export const SimpleCarouselBody = Type.Object(commonFields, { additionalProperties: false });
export type SimpleCarouselInput = Static<typeof SimpleCarouselBody>;

/** `POST add2`: a task carousel. */
export const TaskCarouselBody = Type.Object(
  {
    ...commonFields,
    mode: Type.Enum(CAROUSEL_MODES, {
      description: 'channels: the channels listed; ships: every channel of shipIds; organisation: every channel of orgId and its sub-organisations',
    }),
    shipIds: Type.Optional(Type.Array(Id('Ship'), { maxItems: CAROUSEL_LIMITS.maxShips, uniqueItems: true, description: 'Ships (mode ships)' })),
    schedule: Type.Optional(Type.Union([CarouselScheduleSchema, Type.Null()], { description: 'When the task shows (absent or null: always while started)' })),
  },
  { additionalProperties: false },
);
export type TaskCarouselInput = Static<typeof TaskCarouselBody>;

export const CarouselIdParams = Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9_-]{8,64}$', description: 'Carousel id' }) });

export const CarouselListQuery = Type.Object(
  { orgId: Type.Optional(Id('Organisation (its sub-organisations included); absent: every one the user sees')) },
  { additionalProperties: false },
);

/** A carousel as stored (both kinds; mode, shipIds and schedule only for tasks). */
export const CarouselSchema = Type.Object({
  id: Type.String(),
  kind: Type.Enum(CAROUSEL_KINDS),
  name: Type.String(),
  orgId: Type.String(),
  orgName: Type.String(),
  layout: Type.Integer(),
  minutes: Type.Integer(),
  seconds: Type.Union([Type.Integer(), Type.Null()]),
  /** Dwell per page in ms (seconds override or minutes). */
  dwellMs: Type.Integer(),
  templateId: Type.Union([Type.Integer(), Type.Null()]),
  channelIds: Type.Array(Type.String()),
  mode: Type.Enum(CAROUSEL_MODES),
  shipIds: Type.Array(Type.String()),
  schedule: Type.Union([CarouselScheduleSchema, Type.Null()]),
  /** Tasks: whether it is started. Simple carousels: always false. */
  running: Type.Boolean(),
  createdAt: Type.Integer(),
  updatedAt: Type.Integer(),
});
export type Carousel = Static<typeof CarouselSchema>;

/**
 * A cell of a page: the channel's first camera, enough to start its stream and title it. `online`
 * false: the ship is offline (the cell says so at once instead of waiting for video).
 */
export const CarouselCellSchema = Type.Object({
  channelId: Type.String(),
  channelName: Type.String(),
  cameraId: Type.String(),
  shipId: Type.String(),
  shipName: Type.String(),
  shipDisplayName: Type.String(),
  orgId: Type.String(),
  orgName: Type.String(),
  waitTime: Type.Number(),
  online: Type.Boolean(),
});
export type CarouselCell = Static<typeof CarouselCellSchema>;

/**
 * `GET info1/{id}`, `info2/{id}`: the carousel and its channels resolved into cells, in order
 * (mode ships / organisation: the channels those hold now), and the seconds by which the next
 * page's streams start early.
 */
export const CarouselDetailSchema = Type.Object({ carousel: CarouselSchema, cells: Type.Array(CarouselCellSchema), prewarmSeconds: Type.Number() });
export type CarouselDetail = Static<typeof CarouselDetailSchema>;

/**
 * A task's state: `stopped`; `running` (on air: pages turn); `waiting` (started, outside its
 * schedule: nothing streams until the next window).
 */
export const CAROUSEL_TASK_STATES = ['stopped', 'running', 'waiting'] as const;
export type CarouselTaskState = (typeof CAROUSEL_TASK_STATES)[number];

/**
 * `GET task/status/{id}` and the body of `/carousel/{id}` messages: where a task is. The page is
 * computed from the start on the server's clock, so every screen — one opened later or reloaded —
 * shows the same page; `switchAt` is when the next page comes (the screens count down to it, with
 * `serverTime` to correct their own clock).
 */
export const CarouselStatusSchema = Type.Object({
  id: Type.String(),
  state: Type.Enum(CAROUSEL_TASK_STATES),
  /** 0-based page on screen (0 when stopped). */
  page: Type.Integer(),
  pageCount: Type.Integer(),
  layout: Type.Integer(),
  dwellMs: Type.Integer(),
  /** The cells of the page on screen (empty when stopped or waiting). */
  cells: Type.Array(CarouselCellSchema),
  /** The cells of the next page (to start them a few seconds early). */
  next: Type.Array(CarouselCellSchema),
  startedAt: Type.Union([Type.Integer(), Type.Null()]),
  /** When the page changes next (running), or the schedule's next window opens (waiting); null when stopped. */
  switchAt: Type.Union([Type.Integer(), Type.Null()]),
  serverTime: Type.Integer(),
  prewarmSeconds: Type.Number(),
});
export type CarouselStatus = Static<typeof CarouselStatusSchema>;

/** `POST estimate`: what a carousel being edited would cost the ships' uplinks. */
export const CarouselEstimateBody = Type.Object(
  {
    orgId: Id('Organisation'),
    mode: Type.Enum(CAROUSEL_MODES),
    channelIds: commonFields.channelIds,
    shipIds: Type.Optional(Type.Array(Id('Ship'), { maxItems: CAROUSEL_LIMITS.maxShips, uniqueItems: true })),
    layout: commonFields.layout,
    minutes: commonFields.minutes,
    seconds: commonFields.seconds,
    templateId: commonFields.templateId,
  },
  { additionalProperties: false },
);
export type CarouselEstimateInput = Static<typeof CarouselEstimateBody>;

/**
 * The estimate from each channel's definition model (its bitrate): the carousel streams only the
 * page on screen, plus the next page for `prewarmSeconds` before each switch; against every
 * channel streaming all the time.
 */
export const CarouselEstimateSchema = Type.Object({
  channels: Type.Integer(),
  pageCount: Type.Integer(),
  bytesPerHour: Type.Integer(),
  alwaysOnBytesPerHour: Type.Integer(),
  prewarmSeconds: Type.Number(),
});
export type CarouselEstimate = Static<typeof CarouselEstimateSchema>;

/** `GET settings`: what this server allows the carousel editor and player. */
export const CarouselSettingsSchema = Type.Object({
  /** Whether `seconds` may override `minutes` (CAROUSEL_SECONDS=1: tests and demonstrations). */
  secondsAllowed: Type.Boolean(),
  prewarmSeconds: Type.Number(),
});
export type CarouselSettings = Static<typeof CarouselSettingsSchema>;
