import { type EventSchedule, zoneTime } from '@ship-cctv/protocol';

/**
 * Whether a camera's analysis runs at `at` (epoch ms) by its schedule: always, or between two
 * times of day on the clock of the schedule's zone (`from` after `to` spans midnight: 18:00–06:00
 * runs nights; `from` equal to `to` runs all day). Throws UnknownTimeZoneError for a zone the
 * runtime does not know.
 */
export function inSchedule(schedule: EventSchedule, at: number): boolean {
  if (schedule.kind === 'always') return true;
  const minute = zoneTime(at, schedule.timeZone).minuteOfDay;
  const from = minutesOf(schedule.from);
  const to = minutesOf(schedule.to);
  if (from === to) return true;
  return from < to ? minute >= from && minute < to : minute >= from || minute < to;
}

function minutesOf(hhmm: string): number {
  const [h = '0', m = '0'] = hhmm.split(':');
  return Number(h) * 60 + Number(m);
}
