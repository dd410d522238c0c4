import { isTimeZone, startOfNextZoneDay, zoneTime } from '@ship-cctv/protocol';

/**
 * A ship's calendar: budgets count by the ship's own days and months (its IANA time zone, read by
 * the protocol's zone clock), so a day's allowance starts at the ship's midnight, daylight saving
 * included. A ship's row may hold a name no runtime knows: its calendar is then UTC's. Pure: the
 * instant is always given.
 */

/** The zone a ship's calendar follows. */
const calendarZone = (timeZone: string): string => (isTimeZone(timeZone) ? timeZone : 'UTC');

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export interface ShipPeriod {
  /** YYYY-MM-DD */
  day: string;
  /** YYYY-MM */
  month: string;
}

/** The ship's day and month at an instant. */
export function shipPeriod(at: number, timeZone: string): ShipPeriod {
  const t = zoneTime(at, calendarZone(timeZone));
  return { day: t.date, month: t.yearMonth };
}

/** The first day of a month and the first day of the next (YYYY-MM-DD), for a range over day keys. */
export function monthDays(month: string): { first: string; next: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const next = m === 12 ? `${pad(y + 1, 4)}-01` : `${pad(y, 4)}-${pad(m + 1)}`;
  return { first: `${month}-01`, next: `${next}-01` };
}

/** The instant the ship's next day begins (its next local midnight). */
export function endOfShipDay(at: number, timeZone: string): number {
  return startOfNextZoneDay(at, calendarZone(timeZone));
}
