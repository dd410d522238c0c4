import type { RecordConfig } from '@ship-cctv/protocol';

const clocks = new Map<string, Intl.DateTimeFormat>();

function clock(timeZone: string): Intl.DateTimeFormat {
  let c = clocks.get(timeZone);
  if (!c) {
    c = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    clocks.set(timeZone, c);
  }
  return c;
}

/** Whether `name` is an IANA time zone this runtime knows. */
export function isTimeZone(name: string): boolean {
  try {
    clock(name);
    return true;
  } catch {
    return false;
  }
}

/** Minutes after midnight at `now` on the wall clock of `timeZone` (daylight saving included). */
export function minuteOfDay(now: number, timeZone: string): number {
  const parts = clock(timeZone).formatToParts(now);
  const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === 'minute')?.value ?? 0);
  return hour * 60 + minute;
}

/**
 * Whether a recording configuration asks for recording at `now`: an enabled continuous one always,
 * an enabled scheduled one inside one of its daily windows [from, to) (minutes after midnight on
 * the wall clock of its time zone; a window with to < from runs over midnight).
 */
export function isConfigActive(config: Pick<RecordConfig, 'mode' | 'schedule' | 'enabled'> & { timeZone?: string }, now: number): boolean {
  if (!config.enabled) return false;
  if (config.mode === 'continuous') return true;
  const minute = minuteOfDay(now, config.timeZone ?? 'UTC');
  return config.schedule.some(({ from, to }) => (from <= to ? minute >= from && minute < to : minute >= from || minute < to));
}
