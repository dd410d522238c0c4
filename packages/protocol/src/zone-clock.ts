/**
 * The wall clock of an IANA time zone: what the clocks of a place show at an instant (date, time of
 * day, weekday, offset from UTC) and, back, the instant its day or month begins. Daylight saving
 * and offsets that are not whole hours (Kolkata +05:30, Chatham +12:45/+13:45) come from the
 * runtime's time-zone data. The one answer the shore's budgets, recording schedules and carousel
 * windows, the web app's playback times and the benchmarks all use. Pure: the instant is always
 * given (epoch milliseconds).
 */

/** A name the runtime's time-zone data does not know ("Mars/Olympus_Mons", "GMT+8:00"). */
export class UnknownTimeZoneError extends RangeError {
  constructor(readonly timeZone: string) {
    super(`unknown time zone "${timeZone}": give an IANA name such as Asia/Shanghai or UTC`);
    this.name = 'UnknownTimeZoneError';
  }
}

/** A clock reading, to the second, in some zone. */
export interface WallClock {
  year: number;
  /** 1–12. */
  month: number;
  /** 1–31. */
  day: number;
  /** 0–23. */
  hour: number;
  minute: number;
  second: number;
}

/** What the clocks of a zone show at an instant. */
export interface ZoneTime extends WallClock {
  millisecond: number;
  /** ISO weekday: 1 Monday … 7 Sunday. */
  weekday: number;
  /** "YYYY-MM-DD". */
  date: string;
  /** "YYYY-MM". */
  yearMonth: string;
  /** Minutes since the local midnight by the clock (a day of 23 or 25 hours still counts 0–1439). */
  minuteOfDay: number;
  /** How far the zone's clock is ahead of UTC, ms (Shanghai 8 h, New York −5 h or −4 h). */
  offsetMs: number;
  /** The same in whole minutes (Kolkata 330, Chatham 765 or 825). */
  offsetMinutes: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      throw new UnknownTimeZoneError(timeZone);
    }
    formats.set(timeZone, format);
  }
  return format;
}

/** Whether `name` is an IANA time zone this runtime knows. */
export function isTimeZone(name: string): boolean {
  try {
    formatOf(name);
    return true;
  } catch {
    return false;
  }
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The zone's offset at `at` (whole seconds), read from the runtime's time-zone data. */
function formattedOffsetMs(at: number, timeZone: string): number {
  const parts = formatOf(timeZone).formatToParts(new Date(at));
  const field = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(field('year'), field('month') - 1, field('day'), field('hour'), field('minute'), field('second')) - Math.floor(at / 1000) * 1000;
}

/**
 * Offsets are kept per zone and six hours (UTC): when the first and last seconds of such a span
 * have the same offset, the zone keeps it throughout (no zone changes its offset and back within
 * six hours). A span with a change in it (a night of daylight saving) is read each time.
 * Formatting is the costly part of a reading (tens of microseconds); the budgets, schedules and
 * clocks read the same hours again and again.
 */
const SPAN_MS = 6 * 3_600_000;
const offsetCache = new Map<string, Map<number, number>>();
/** Spans kept per zone (six years of them); past it the zone's cache starts again. */
const CACHE_SPANS = 8_766;

function offsetMsAt(at: number, timeZone: string): number {
  const span = Math.floor(at / SPAN_MS);
  let zone = offsetCache.get(timeZone);
  const cached = zone?.get(span);
  if (cached !== undefined) return Number.isNaN(cached) ? formattedOffsetMs(at, timeZone) : cached;
  const first = formattedOffsetMs(span * SPAN_MS, timeZone);
  const last = formattedOffsetMs((span + 1) * SPAN_MS - 1000, timeZone);
  if (!zone || zone.size >= CACHE_SPANS) offsetCache.set(timeZone, (zone = new Map()));
  zone.set(span, first === last ? first : NaN);
  return first === last ? first : formattedOffsetMs(at, timeZone);
}

/** What the clocks of `timeZone` show at `at`. Throws UnknownTimeZoneError for a name the runtime does not know. */
export function zoneTime(at: number, timeZone: string): ZoneTime {
  const wholeSeconds = Math.floor(at / 1000) * 1000;
  const offsetMs = offsetMsAt(at, timeZone);
  // The zone's clock reading is UTC's at the instant moved by the offset.
  const local = new Date(wholeSeconds + offsetMs);
  const year = local.getUTCFullYear();
  const month = local.getUTCMonth() + 1;
  const day = local.getUTCDate();
  const hour = local.getUTCHours();
  const minute = local.getUTCMinutes();
  const second = local.getUTCSeconds();
  const yearMonth = `${pad(year, 4)}-${pad(month)}`;
  return {
    year,
    month,
    day,
    hour,
    minute,
    second,
    millisecond: at - wholeSeconds,
    weekday: local.getUTCDay() || 7,
    date: `${yearMonth}-${pad(day)}`,
    yearMonth,
    minuteOfDay: hour * 60 + minute,
    offsetMs,
    offsetMinutes: Math.round(offsetMs / 60_000),
  };
}

/**
 * The instant the zone's clocks show midnight of a date (month and day may overflow, as in
 * Date.UTC). The offset is read at `near` and again at the first guess, so a daylight-saving
 * change between `near` and that midnight is followed.
 */
function midnightOf(year: number, month: number, day: number, timeZone: string, near: number): number {
  const asUtc = Date.UTC(year, month - 1, day);
  const guess = asUtc - zoneTime(near, timeZone).offsetMs;
  return asUtc - zoneTime(guess, timeZone).offsetMs;
}

/** The instant the zone's day that holds `at` began (its local midnight). */
export function startOfZoneDay(at: number, timeZone: string): number {
  const t = zoneTime(at, timeZone);
  return midnightOf(t.year, t.month, t.day, timeZone, at);
}

/** The instant the zone's next day begins (its next local midnight). */
export function startOfNextZoneDay(at: number, timeZone: string): number {
  const t = zoneTime(at, timeZone);
  return midnightOf(t.year, t.month, t.day + 1, timeZone, at);
}

/** The instant the zone's month that holds `at` began (midnight of its first day). */
export function startOfZoneMonth(at: number, timeZone: string): number {
  const t = zoneTime(at, timeZone);
  return midnightOf(t.year, t.month, 1, timeZone, at);
}
