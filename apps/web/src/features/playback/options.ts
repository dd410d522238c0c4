/**
 * Ship-end playback options (spec §3 "Playback options", "Time zone entry", "Record state"; §5;
 * §9): the time-zone list, wall clock ↔ epoch in a zone, defaults, validation and side-by-side
 * times. Pure and framework-free: the desktop dialog and the mobile app both build on it.
 *
 * Every time is epoch milliseconds (UTC). A zone only changes how a time is typed or shown. An
 * entry of timezones.json names places and lists their IANA zones; its offset at a moment is the
 * first IANA zone's at that moment (Intl), so summer time applies only in summer and zones whose
 * rules changed since the list was written (Caracas, Tehran) read as their clocks do. The list's
 * own fixed offset is used only for an entry without IANA zones and for the two entries that are
 * themselves a summer time ("Pacific Daylight Time"), which are that offset all year.
 */
import timezones from 'timezones.json';
import { DEFAULT_REMOTE_SPEED, PLAYBACK_SPEEDS, SHIP_PLAYBACK_MAX_RANGE_MS, isTimeZone, zoneTime, type PlaybackSpeed, type WallClock, type ShipConfig, type ShipPlaybackCommand } from '@ship-cctv/protocol';
import { CITY_NAMES, TIME_ZONE_NAMES_ZH } from './time-zone-names.ts';

export type TextLanguage = 'zh-CN' | 'en';

// ---------------------------------------------------------------------------------------------
// Time zones

/** A timezones.json entry with its Chinese text (spec §3 "Time zone entry"). */
export interface TimeZoneEntry {
  /** Unique key: the entry's `value`; for the one value listed twice, `value|abbr` for the second. */
  id: string;
  value: string;
  abbr: string;
  /** Hours from UTC, possibly fractional (−4.5, 5.75). */
  offset: number;
  isdst: boolean;
  /** English text as listed, e.g. "(UTC+08:00) Beijing, Chongqing, Hong Kong, Urumqi". */
  text: string;
  /** The same in Chinese, e.g. "(UTC+08:00) 北京，重庆，香港，乌鲁木齐". */
  textZh: string;
  /** IANA zones of the entry. */
  utc: readonly string[];
}

/** Spec §3: the default remote time zone. */
export const DEFAULT_TIME_ZONE_ID = 'China Standard Time';

const TEXT_PREFIX = /^\(UTC[^)]*\)\s*/;

/** An entry named after a summer time ("Pacific Daylight Time", "British Summer Time"). */
const SUMMER_TIME_VALUE = /Daylight|Summer/;

function buildAllTimeZones(): TimeZoneEntry[] {
  const seen = new Set<string>();
  return timezones.map((zone) => {
    const id = seen.has(zone.value) ? `${zone.value}|${zone.abbr}` : zone.value;
    seen.add(zone.value);
    const prefix = TEXT_PREFIX.exec(zone.text)?.[0] ?? '';
    const nameZh = TIME_ZONE_NAMES_ZH[zone.text] ?? zone.text.replace(TEXT_PREFIX, '');
    return { id, value: zone.value, abbr: zone.abbr, offset: zone.offset, isdst: zone.isdst, text: zone.text, textZh: `${prefix}${nameZh}`, utc: zone.utc };
  });
}

/**
 * The list names three places twice: once for their standard time and once for their summer time
 * (Eastern, Pacific, London), with the same IANA zones. Each standard entry's clock already follows
 * summer time (its offset is read for the moment), so the summer twin is dropped from the list and
 * its id leads to the standard entry: a November list offers no "−04:00 Eastern Daylight Time".
 */
function summerTwins(all: readonly TimeZoneEntry[]): Map<string, TimeZoneEntry> {
  const twins = new Map<string, TimeZoneEntry>();
  for (const zone of all) {
    if (!SUMMER_TIME_VALUE.test(zone.value) || zone.utc.length === 0) continue;
    const standard = all.find((other) => other !== zone && !SUMMER_TIME_VALUE.test(other.value) && zone.utc.every((iana) => other.utc.includes(iana)));
    if (standard) twins.set(zone.id, standard);
  }
  return twins;
}

const ALL_TIME_ZONES = buildAllTimeZones();
const SUMMER_TWINS = summerTwins(ALL_TIME_ZONES);

/** Every place of timezones.json once, west to east as listed (offsets −12 … +13). */
export const TIME_ZONES: readonly TimeZoneEntry[] = ALL_TIME_ZONES.filter((zone) => !SUMMER_TWINS.has(zone.id));

export function findTimeZone(idOrValue: string | undefined): TimeZoneEntry | undefined {
  if (!idOrValue) return undefined;
  const twin = SUMMER_TWINS.get(idOrValue);
  if (twin) return twin;
  return TIME_ZONES.find((zone) => zone.id === idOrValue) ?? TIME_ZONES.find((zone) => zone.value === idOrValue);
}

export function defaultTimeZone(): TimeZoneEntry {
  const zone = findTimeZone(DEFAULT_TIME_ZONE_ID);
  if (!zone) throw new Error(`${DEFAULT_TIME_ZONE_ID} missing from timezones.json`);
  return zone;
}

type Zone = Pick<TimeZoneEntry, 'offset' | 'utc' | 'text'>;

/** An entry named after a summer time: it is that offset all year. */
const SUMMER_TIME_NAME = /Daylight|Summer/;

/** The IANA zone an entry's clock follows, or undefined when it keeps its listed offset. */
function ianaZoneOf(zone: Zone): string | undefined {
  return SUMMER_TIME_NAME.test(zone.text) ? undefined : zone.utc[0];
}

/**
 * The IANA zone whose clock reads like the entry's: its own, or for an entry that keeps a fixed
 * whole-hour offset the matching `Etc/GMT±h` (whose sign is inverted by convention).
 */
export function clockZoneOf(zone: Zone): string | undefined {
  const iana = ianaZoneOf(zone);
  if (iana !== undefined) return iana;
  if (!Number.isInteger(zone.offset)) return undefined;
  return zone.offset === 0 ? 'Etc/GMT' : `Etc/GMT${zone.offset > 0 ? '-' : '+'}${Math.abs(zone.offset)}`;
}

/** An IANA zone's offset from UTC at a moment, in minutes (St John's in winter → −210); undefined if unknown. */
export function ianaOffsetMinutes(iana: string, epoch: number): number | undefined {
  return isTimeZone(iana) ? zoneTime(epoch, iana).offsetMinutes : undefined;
}

/** The entry's offset in whole minutes at a moment (China: 480 all year; Newfoundland: −210 in winter, −150 in summer). */
export function offsetMinutesAt(zone: Zone, epoch: number): number {
  const iana = ianaZoneOf(zone);
  return (iana === undefined ? undefined : ianaOffsetMinutes(iana, epoch)) ?? Math.round(zone.offset * 60);
}

/** Whether the entry's places keep summer time at that moment (their offset is above their winter one). */
export function isSummerTimeAt(zone: Zone, epoch: number): boolean {
  const iana = ianaZoneOf(zone);
  if (iana === undefined) return false;
  const year = new Date(epoch).getUTCFullYear();
  const january = ianaOffsetMinutes(iana, Date.UTC(year, 0, 1));
  const july = ianaOffsetMinutes(iana, Date.UTC(year, 6, 1));
  const now = ianaOffsetMinutes(iana, epoch);
  return january !== undefined && july !== undefined && now !== undefined && now > Math.min(january, july);
}

/** "UTC+08:00", "UTC-04:30" written with an ASCII minus, "UTC+05:45", "UTC+00:00". */
export function formatUtcOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The place names of an entry in a language, without the offset. */
export function timeZoneName(zone: TimeZoneEntry, language: TextLanguage): string {
  return (language === 'zh-CN' ? zone.textZh : zone.text).replace(TEXT_PREFIX, '');
}

/**
 * What the picker shows at a moment (the time being chosen): the offset the conversion uses then,
 * the place names, and "summer time" when the places keep it then (never twice: an entry named
 * after a summer time says so already).
 */
export function timeZoneLabel(zone: TimeZoneEntry, language: TextLanguage, at: number = Date.now()): string {
  const dst = isSummerTimeAt(zone, at) ? (language === 'zh-CN' ? '（夏令时）' : ' (DST)') : '';
  return `(${formatUtcOffset(offsetMinutesAt(zone, at))}) ${timeZoneName(zone, language)}${dst}`;
}

/** The entries west to east by their offset at a moment (entries of one offset as listed). */
export function timeZonesAt(at: number): TimeZoneEntry[] {
  return TIME_ZONES.map((zone, index) => ({ zone, index, offset: offsetMinutesAt(zone, at) }))
    .sort((a, b) => a.offset - b.offset || a.index - b.index)
    .map((e) => e.zone);
}

/** Lower case, with the IANA names' underscores and hyphens read as spaces ("America/New_York" → "america/new york"). */
function searchable(text: string): string {
  return text.toLowerCase().replace(/[_-]+/g, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * Search in both languages: the zone's name, its abbreviation, its IANA zones (their cities with
 * spaces: "New York", "Los Angeles"), the Chinese and other names of the main cities in them
 * ("纽约", "San Francisco") and its offset at a moment.
 */
export function matchesTimeZone(zone: TimeZoneEntry, query: string, at: number = Date.now()): boolean {
  const q = searchable(query);
  if (!q) return true;
  const cities = zone.utc.flatMap((iana) => CITY_NAMES[iana] ?? []);
  const haystack = [timeZoneLabel(zone, 'zh-CN', at), timeZoneLabel(zone, 'en', at), zone.value, zone.abbr, ...zone.utc, ...cities];
  return haystack.some((text) => searchable(text).includes(q));
}

// ---------------------------------------------------------------------------------------------
// Wall clock ↔ epoch

/** A clock reading in some zone; month is 1–12 (the protocol's zone clock reads the same fields). */
export type { WallClock };

/**
 * The instant at which the clocks of `zone` show `wall`. Where summer time begins, a reading the
 * clocks skip is taken with the offset before the change; where it ends, a reading shown twice is
 * its first instant.
 */
export function wallClockToEpoch(wall: WallClock, zone: Zone): number {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  // The offsets in force a day either side; the earliest instant whose own offset gives `wall` wins.
  const before = offsetMinutesAt(zone, asUtc - 86_400_000);
  let best: number | undefined;
  for (const offset of new Set([before, offsetMinutesAt(zone, asUtc + 86_400_000)])) {
    const t = asUtc - offset * 60_000;
    if (offsetMinutesAt(zone, t) === offset && (best === undefined || t < best)) best = t;
  }
  return best ?? asUtc - before * 60_000;
}

/** What the clocks of `zone` show at `epoch` (to the second). */
export function epochToWallClock(epoch: number, zone: Zone): WallClock {
  return utcFields(new Date(epoch + offsetMinutesAt(zone, epoch) * 60_000));
}

function utcFields(d: Date): WallClock {
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds() };
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** "2025-05-01 08:00:00". */
export function formatWallClock(wall: WallClock): string {
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)} ${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}`;
}

/** Parses "YYYY-MM-DD HH:mm[:ss]" as typed; undefined for anything else or a date that does not exist. */
export function parseWallClock(text: string): WallClock | undefined {
  const m = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?\s*$/.exec(text);
  if (!m) return undefined;
  const wall = { year: +m[1]!, month: +m[2]!, day: +m[3]!, hour: +m[4]!, minute: +m[5]!, second: m[6] === undefined ? 0 : +m[6] };
  const back = utcFields(new Date(Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second)));
  return formatWallClock(back) === formatWallClock(wall) ? wall : undefined;
}

/** A time as the clocks of a time-zone entry show it. */
export function formatInTimeZone(epoch: number, zone: Zone): string {
  return formatWallClock(epochToWallClock(epoch, zone));
}

/** Seconds-precision comparison of two readings: negative, 0 or positive. */
function compareWall(a: WallClock, b: WallClock): number {
  return Date.UTC(a.year, a.month - 1, a.day, a.hour, a.minute, a.second) - Date.UTC(b.year, b.month - 1, b.day, b.hour, b.minute, b.second);
}

/**
 * Spec §5 "pickers are limited to at most the current time", for a picker working in a zone: the
 * days after today (in that zone) are closed, and on today the hours, minutes and seconds after
 * now. `day` is any reading on the day being looked at.
 */
export function isDayAfterNow(day: Pick<WallClock, 'year' | 'month' | 'day'>, now: WallClock): boolean {
  return compareWall({ ...day, hour: 0, minute: 0, second: 0 }, { ...now, hour: 0, minute: 0, second: 0 }) > 0;
}

export interface ClosedTimeParts {
  hours: number[];
  minutes(hour: number): number[];
  seconds(hour: number, minute: number): number[];
}

const range = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);

export function closedTimeParts(day: Pick<WallClock, 'year' | 'month' | 'day'>, now: WallClock): ClosedTimeParts {
  const sameDay = day.year === now.year && day.month === now.month && day.day === now.day;
  if (isDayAfterNow(day, now)) return { hours: range(0, 24), minutes: () => range(0, 60), seconds: () => range(0, 60) };
  if (!sameDay) return { hours: [], minutes: () => [], seconds: () => [] };
  return {
    hours: range(now.hour + 1, 24),
    minutes: (hour) => (hour < now.hour ? [] : hour > now.hour ? range(0, 60) : range(now.minute + 1, 60)),
    seconds: (hour, minute) =>
      hour < now.hour || (hour === now.hour && minute < now.minute) ? [] : hour === now.hour && minute === now.minute ? range(now.second + 1, 60) : range(0, 60),
  };
}

// ---------------------------------------------------------------------------------------------
// Ship's zone and operator's zone, side by side

export interface ZonedTime {
  /** "2025-05-01 16:00:00". */
  text: string;
  /** "UTC+08:00". */
  offset: string;
  /** IANA zone name. */
  zone: string;
}

/** A time in an IANA zone (the ship's `timeZone`, or the browser's); undefined for an unknown zone. */
export function formatInIanaZone(epoch: number, zone: string): ZonedTime | undefined {
  if (!isTimeZone(zone)) return undefined;
  const wall = zoneTime(epoch, zone);
  return { text: formatWallClock(wall), offset: formatUtcOffset(wall.offsetMinutes), zone };
}

/** The operator's own zone, as the browser knows it. */
export function operatorTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** A time on the ship's clock and on the operator's, to show next to each other. */
export function sideBySide(epoch: number, shipZone: string | undefined, operatorZone: string = operatorTimeZone()): { ship: ZonedTime | undefined; operator: ZonedTime } {
  const operator = formatInIanaZone(epoch, operatorZone) ?? (formatInIanaZone(epoch, 'UTC') as ZonedTime);
  return { ship: shipZone ? formatInIanaZone(epoch, shipZone) : undefined, operator };
}

// ---------------------------------------------------------------------------------------------
// Options, defaults, validation

/** Spec §5/§9: the default window is the last 24 hours. */
export const DEFAULT_WINDOW_MS = 24 * 60 * 60 * 1000;
export const SPEED_CHOICES: readonly PlaybackSpeed[] = PLAYBACK_SPEEDS;

export function isPlaybackSpeed(value: unknown): value is PlaybackSpeed {
  return SPEED_CHOICES.includes(value as PlaybackSpeed);
}

/** Spec §3 "templateId pair": [definition group id, model id]. */
export type TemplatePair = readonly [groupId: number, modelId: number];

export interface TemplateGroup {
  id: number;
  displayName: string;
  displayNameEn?: string | undefined;
  models: { id: number; displayName: string; displayNameEn?: string | undefined }[];
}

/** The selectable groups of a ship's config: groups without models are dropped (spec §3). */
export function templateGroups(config: ShipConfig): TemplateGroup[] {
  return config.groupAliasResDTOS
    .filter((group) => group.models.length > 0)
    .map((group) => ({
      id: group.id,
      displayName: group.displayName,
      displayNameEn: group.displayNameEn,
      models: group.models.map((m) => ({ id: m.id, displayName: m.displayName, displayNameEn: m.displayNameEn })),
    }));
}

/** The ship's default pair: its default group and that group's default model; undefined when none. */
export function defaultTemplatePair(config: ShipConfig): TemplatePair | undefined {
  const group = config.groupAliasResDTOS.find((g) => g.id === config.defaultGroupId);
  if (!group || group.defaultModelId === null || !group.models.some((m) => m.id === group.defaultModelId)) return undefined;
  return [group.id, group.defaultModelId];
}

export interface PlaybackOptions {
  timeZoneId: string;
  start: number;
  end: number;
  speed: PlaybackSpeed;
  /** undefined when the ship's config could not be read: the server then uses the ship's default. */
  template: TemplatePair | undefined;
}

/** What the dialog holds while the operator edits; any field may be missing. */
export interface PlaybackOptionsDraft {
  timeZoneId: string | undefined;
  start: number | undefined;
  end: number | undefined;
  speed: number | undefined;
  template: TemplatePair | undefined;
}

/** Spec §3/§5: China Standard Time, the last 24 hours up to now, 16×, the ship's default template. */
export function defaultPlaybackOptions(now: number, config?: ShipConfig): PlaybackOptionsDraft {
  return {
    timeZoneId: DEFAULT_TIME_ZONE_ID,
    start: now - DEFAULT_WINDOW_MS,
    end: now,
    speed: DEFAULT_REMOTE_SPEED,
    template: config ? defaultTemplatePair(config) : undefined,
  };
}

export type PlaybackOptionsField = 'timeZone' | 'start' | 'end' | 'speed' | 'template';

export type PlaybackOptionsError =
  | 'timeZoneRequired'
  | 'startRequired'
  | 'endRequired'
  | 'startAfterNow'
  | 'endAfterNow'
  | 'endBeforeStart'
  | 'emptyRange'
  | 'rangeTooLong'
  | 'speedRequired'
  /** Spec §5: no default definition template → "无默认清晰度模板", playback does not start. */
  | 'noDefaultTemplate'
  | 'templateRequired'
  | 'templateUnknown';

export type PlaybackOptionsErrors = Partial<Record<PlaybackOptionsField, PlaybackOptionsError>>;

export type PlaybackOptionsCheck = { ok: true; options: PlaybackOptions; errors: PlaybackOptionsErrors } | { ok: false; errors: PlaybackOptionsErrors };

/**
 * Spec §5. `config` is the ship's definition config: undefined when it could not be read (spec §8
 * swallows that error; the server then applies the ship's default and answers noDefaultTemplate
 * itself if there is none). `now` bounds both times.
 */
export function validatePlaybackOptions(draft: PlaybackOptionsDraft, ctx: { now: number; config: ShipConfig | undefined }): PlaybackOptionsCheck {
  const errors: PlaybackOptionsErrors = {};
  const zone = findTimeZone(draft.timeZoneId);
  if (!zone) errors.timeZone = 'timeZoneRequired';

  const { start, end } = draft;
  if (start === undefined) errors.start = 'startRequired';
  else if (start > ctx.now) errors.start = 'startAfterNow';
  if (end === undefined) errors.end = 'endRequired';
  else if (end > ctx.now) errors.end = 'endAfterNow';
  else if (start !== undefined && end < start) errors.end = 'endBeforeStart';
  else if (start !== undefined && end === start) errors.end = 'emptyRange';
  else if (start !== undefined && end - start > SHIP_PLAYBACK_MAX_RANGE_MS) errors.end = 'rangeTooLong';

  if (!isPlaybackSpeed(draft.speed)) errors.speed = 'speedRequired';

  const template = draft.template;
  if (ctx.config) {
    if (!defaultTemplatePair(ctx.config)) errors.template = 'noDefaultTemplate';
    else if (!template) errors.template = 'templateRequired';
    else if (!templateGroups(ctx.config).some((g) => g.id === template[0] && g.models.some((m) => m.id === template[1]))) errors.template = 'templateUnknown';
  }

  if (Object.keys(errors).length > 0 || !zone || start === undefined || end === undefined || !isPlaybackSpeed(draft.speed)) return { ok: false, errors };
  return { ok: true, errors, options: { timeZoneId: zone.id, start, end, speed: draft.speed, template: ctx.config ? template : undefined } };
}

/** The media socket's play command for valid options (protocol `ShipPlaybackCommand`). */
export function toPlaybackCommand(cameraId: string, options: PlaybackOptions): ShipPlaybackCommand {
  const zone = findTimeZone(options.timeZoneId);
  return {
    type: 'play',
    mode: 'shipPlayback',
    cameraId,
    ...(options.template ? { templateId: options.template[1] } : {}),
    start: options.start,
    end: options.end,
    speed: options.speed,
    ...(zone ? { timeZone: zone.value } : {}),
  };
}
