import {
  CAROUSEL_LIMITS,
  type Carousel,
  type CarouselCell,
  type CarouselEstimateInput,
  type CarouselKind,
  type CarouselLayout,
  type CarouselMode,
  type DefinitionModel,
  type ShipConfig,
  type SimpleCarouselInput,
  type TaskCarouselInput,
} from '@ship-cctv/protocol';

/**
 * The carousel editor's model, apart from React: its values, the checks made before saving (the
 * server checks again and its message is shown), and the bodies of add1 / add2 / estimate.
 */

/** A channel in the carousel's list, with what the list shows of it. */
export interface ChosenChannel {
  channelId: string;
  channelName: string;
  shipId: string;
  shipDisplayName: string;
  /** The ship's organisation (its definition models are asked by it). */
  orgId: string;
}

export interface CarouselFormValues {
  /** Set when editing. */
  id: string | undefined;
  kind: CarouselKind;
  name: string;
  orgId: string;
  mode: CarouselMode;
  layout: CarouselLayout;
  minutes: number | null;
  /** The seconds override, where the server allows it. */
  seconds: number | null;
  templateId: number | null;
  channels: ChosenChannel[];
  shipIds: string[];
  scheduleOn: boolean;
  /** 1 = Monday … 7 = Sunday. */
  days: number[];
  start: string;
  end: string;
  timeZone: string;
}

export const WEEK_DAYS = [1, 2, 3, 4, 5, 6, 7] as const;

/** The browser's time zone, the schedule's default. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export function newCarouselValues(orgId: string, kind: CarouselKind = 'simple', timeZone = browserTimeZone()): CarouselFormValues {
  return {
    id: undefined,
    kind,
    name: '',
    orgId,
    mode: 'channels',
    layout: 4,
    minutes: 1,
    seconds: null,
    templateId: null,
    channels: [],
    shipIds: [],
    scheduleOn: false,
    days: [...WEEK_DAYS],
    start: '08:00',
    end: '18:00',
    timeZone,
  };
}

function isLayout(n: number): n is CarouselLayout {
  return n === 1 || n === 4 || n === 9 || n === 16;
}

/**
 * The values of a saved carousel; its channels named from the detail's cells (mode channels: the
 * listed channels, in order). A channel the detail no longer resolves keeps its id as its name.
 */
export function valuesOf(carousel: Carousel, cells: readonly CarouselCell[], timeZone = browserTimeZone()): CarouselFormValues {
  const byChannel = new Map(cells.map((c) => [c.channelId, c]));
  return {
    id: carousel.id,
    kind: carousel.kind,
    name: carousel.name,
    orgId: carousel.orgId,
    mode: carousel.kind === 'task' ? carousel.mode : 'channels',
    layout: isLayout(carousel.layout) ? carousel.layout : 4,
    minutes: carousel.minutes,
    seconds: carousel.seconds,
    templateId: carousel.templateId,
    channels: carousel.channelIds.map((channelId) => {
      const cell = byChannel.get(channelId);
      return cell
        ? { channelId, channelName: cell.channelName, shipId: cell.shipId, shipDisplayName: cell.shipDisplayName, orgId: cell.orgId }
        : { channelId, channelName: channelId, shipId: '', shipDisplayName: '', orgId: carousel.orgId };
    }),
    shipIds: [...carousel.shipIds],
    scheduleOn: carousel.schedule !== null,
    days: carousel.schedule ? [...carousel.schedule.days] : [...WEEK_DAYS],
    start: carousel.schedule?.start ?? '08:00',
    end: carousel.schedule?.end ?? '18:00',
    timeZone: carousel.schedule?.timeZone ?? timeZone,
  };
}

/** The problems of the values: a field → the key of its message under `carousel.errors`. */
export type FormErrors = Partial<Record<'name' | 'minutes' | 'seconds' | 'channels' | 'ships' | 'days' | 'times' | 'timeZone', ErrorKey>>;
export type ErrorKey = 'name' | 'minutes' | 'seconds' | 'noChannels' | 'tooManyChannels' | 'noShips' | 'tooManyShips' | 'noDays' | 'times' | 'timeZone';

const HH_MM = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

function integerIn(value: number | null, min: number, max: number): boolean {
  return value !== null && Number.isInteger(value) && value >= min && value <= max;
}

/** Whether `mode`'s list of what to show matters for this kind (a simple carousel lists channels). */
export function effectiveMode(values: Pick<CarouselFormValues, 'kind' | 'mode'>): CarouselMode {
  return values.kind === 'task' ? values.mode : 'channels';
}

export function validateCarousel(values: CarouselFormValues, opts: { secondsAllowed: boolean }): FormErrors {
  const errors: FormErrors = {};
  const name = values.name.trim();
  if (name.length === 0 || name.length > CAROUSEL_LIMITS.nameLength) errors.name = 'name';
  if (!integerIn(values.minutes, CAROUSEL_LIMITS.minMinutes, CAROUSEL_LIMITS.maxMinutes)) errors.minutes = 'minutes';
  if (opts.secondsAllowed && values.seconds !== null && !integerIn(values.seconds, CAROUSEL_LIMITS.minSeconds, CAROUSEL_LIMITS.maxSeconds)) errors.seconds = 'seconds';
  const mode = effectiveMode(values);
  if (mode === 'channels') {
    if (values.channels.length === 0) errors.channels = 'noChannels';
    else if (values.channels.length > CAROUSEL_LIMITS.maxChannels) errors.channels = 'tooManyChannels';
  }
  if (mode === 'ships') {
    if (values.shipIds.length === 0) errors.ships = 'noShips';
    else if (values.shipIds.length > CAROUSEL_LIMITS.maxShips) errors.ships = 'tooManyShips';
  }
  if (values.kind === 'task' && values.scheduleOn) {
    if (values.days.length === 0) errors.days = 'noDays';
    // An end at or before the start runs past midnight (the contract): only the form is checked.
    if (!HH_MM.test(values.start) || !HH_MM.test(values.end)) errors.times = 'times';
    if (values.timeZone.trim() === '') errors.timeZone = 'timeZone';
  }
  return errors;
}

export function hasErrors(errors: FormErrors): boolean {
  return Object.keys(errors).length > 0;
}

function common(values: CarouselFormValues, secondsAllowed: boolean) {
  const mode = effectiveMode(values);
  return {
    ...(values.id ? { id: values.id } : {}),
    name: values.name.trim(),
    orgId: values.orgId,
    layout: values.layout,
    minutes: values.minutes ?? CAROUSEL_LIMITS.minMinutes,
    ...(secondsAllowed && values.seconds !== null ? { seconds: values.seconds } : {}),
    ...(values.templateId !== null ? { templateId: values.templateId } : {}),
    // Only mode channels lists channels; the other modes resolve theirs on shore.
    channelIds: mode === 'channels' ? values.channels.map((c) => c.channelId) : [],
  };
}

/** `POST add1`. */
export function toSimpleBody(values: CarouselFormValues, secondsAllowed: boolean): SimpleCarouselInput {
  return common(values, secondsAllowed);
}

/** `POST add2`. */
export function toTaskBody(values: CarouselFormValues, secondsAllowed: boolean): TaskCarouselInput {
  return {
    ...common(values, secondsAllowed),
    mode: values.mode,
    ...(values.mode === 'ships' ? { shipIds: [...values.shipIds] } : {}),
    schedule: values.scheduleOn ? { days: [...values.days].sort((a, b) => a - b), start: values.start, end: values.end, timeZone: values.timeZone } : null,
  };
}

/** `POST estimate`, or nothing while what it needs is missing or wrong (no use asking). */
export function toEstimateBody(values: CarouselFormValues, secondsAllowed: boolean): CarouselEstimateInput | undefined {
  const errors = validateCarousel(values, { secondsAllowed });
  if (errors.minutes || errors.seconds || errors.channels || errors.ships || !values.orgId) return undefined;
  const mode = effectiveMode(values);
  const body = common(values, secondsAllowed);
  return {
    orgId: values.orgId,
    mode,
    channelIds: body.channelIds,
    ...(mode === 'ships' ? { shipIds: [...values.shipIds] } : {}),
    layout: body.layout,
    minutes: body.minutes,
    ...(body.seconds !== undefined ? { seconds: body.seconds } : {}),
    ...(body.templateId !== undefined ? { templateId: body.templateId } : {}),
  };
}

// ── the channel list ───────────────────────────────────────────────────────────────────────────

/** The list with the item at `from` moved to `to` (drag and drop, up / down). Out of range: unchanged. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || from >= list.length || to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}

/** The list with channels added at its end, those already in it skipped (a carousel lists a channel once). */
export function addChannels(list: readonly ChosenChannel[], added: readonly ChosenChannel[]): ChosenChannel[] {
  const seen = new Set(list.map((c) => c.channelId));
  const next = [...list];
  for (const c of added) {
    if (seen.has(c.channelId)) continue;
    seen.add(c.channelId);
    next.push(c);
  }
  return next;
}

// ── definition ─────────────────────────────────────────────────────────────────────────────────

/**
 * The definition models the ships involved offer, each once, in the order first seen: what the
 * "resolution" select offers besides each ship's default.
 */
export function definitionModels(configs: readonly (ShipConfig | undefined)[]): DefinitionModel[] {
  const seen = new Map<number, DefinitionModel>();
  for (const config of configs) {
    for (const group of config?.groupAliasResDTOS ?? []) for (const model of group.models) if (!seen.has(model.id)) seen.set(model.id, model);
  }
  return [...seen.values()];
}

/** Dwell of a page as a carousel shows it: the seconds override, or minutes. */
export function dwellOf(carousel: Pick<Carousel, 'minutes' | 'seconds'>): { unit: 'seconds' | 'minutes'; count: number } {
  return carousel.seconds !== null ? { unit: 'seconds', count: carousel.seconds } : { unit: 'minutes', count: carousel.minutes };
}
