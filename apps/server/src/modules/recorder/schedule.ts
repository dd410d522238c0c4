import { zoneTime, type RecordConfig } from '@ship-cctv/protocol';

/** Minutes after midnight at `now` on the wall clock of `timeZone` (daylight saving included). */
export function minuteOfDay(now: number, timeZone: string): number {
  return zoneTime(now, timeZone).minuteOfDay;
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
