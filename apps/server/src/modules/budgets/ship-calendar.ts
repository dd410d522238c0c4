/**
 * A ship's calendar: budgets count by the ship's own days and months (its IANA time zone), so a
 * day's allowance starts at the ship's midnight, daylight saving included. Pure: the instant is
 * always given.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    formats.set(timeZone, f);
  }
  return f;
}

/** Whether the zone is one Intl knows (a ship's row may hold anything). */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

interface Local {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function localParts(at: number, timeZone: string): Local {
  const parts = formatOf(isTimeZone(timeZone) ? timeZone : 'UTC').formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export interface ShipPeriod {
  /** YYYY-MM-DD */
  day: string;
  /** YYYY-MM */
  month: string;
}

/** The ship's day and month at an instant. */
export function shipPeriod(at: number, timeZone: string): ShipPeriod {
  const l = localParts(at, timeZone);
  const month = `${pad(l.year, 4)}-${pad(l.month)}`;
  return { day: `${month}-${pad(l.day)}`, month };
}

/** The first day of a month and the first day of the next (YYYY-MM-DD), for a range over day keys. */
export function monthDays(month: string): { first: string; next: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const next = m === 12 ? `${pad(y + 1, 4)}-01` : `${pad(y, 4)}-${pad(m + 1)}`;
  return { first: `${month}-01`, next: `${next}-01` };
}

/** How far the zone's wall clock is ahead of UTC at an instant (ms). */
function offsetAt(at: number, timeZone: string): number {
  const l = localParts(at, timeZone);
  return Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, l.second) - Math.floor(at / 1000) * 1000;
}

/** The instant the ship's next day begins (its next local midnight). */
export function endOfShipDay(at: number, timeZone: string): number {
  const l = localParts(at, timeZone);
  const midnightAsUtc = Date.UTC(l.year, l.month - 1, l.day + 1);
  // The offset at midnight may differ from now's (a daylight-saving change today): look again there.
  let guess = midnightAsUtc - offsetAt(at, timeZone);
  guess = midnightAsUtc - offsetAt(guess, timeZone);
  return guess;
}
