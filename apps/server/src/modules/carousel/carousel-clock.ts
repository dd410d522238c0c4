import { Cron } from 'croner';
import { zoneTime, type CarouselSchedule } from '@ship-cctv/protocol';

/**
 * Where a carousel is at a moment, computed and never stored: pages are the channels cut by the
 * layout (`carouselPages`, the browser's rule too); a started task turns its pages every dwell from its start (or from the opening of the
 * schedule's current window), so every instance and every screen agrees on the page without
 * asking anyone. Pure functions of their arguments and `now`.
 */

/** Page `page` (0-based, wrapping) of pages made by `carouselPages`; none for no pages. */
export function pageAt<T>(pages: readonly T[][], page: number): T[] {
  const n = pages.length;
  return n === 0 ? [] : (pages[((page % n) + n) % n] ?? []);
}

const MINUTE = 60_000;
const DAY_MINUTES = 1440;

const minutesOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/** The wall clock in a time zone: ISO weekday (1 = Monday), minute of the day, and the ms into that minute. */
export function wallClock(now: number, timeZone: string): { weekday: number; minute: number; intoMinuteMs: number } {
  const t = zoneTime(now, timeZone);
  return { weekday: t.weekday, minute: t.minuteOfDay, intoMinuteMs: t.second * 1000 + t.millisecond };
}

/**
 * The schedule at `now`: on air with the window's opening and end, or off air with the next
 * opening. A window whose end is at or before its start runs past midnight (it belongs to the day
 * it opens); an end equal to the start is a whole day.
 */
export function scheduleAt(schedule: CarouselSchedule, now: number): { onAir: true; openedAt: number; endsAt: number } | { onAir: false; opensAt: number } {
  const start = minutesOf(schedule.start);
  const length = (minutesOf(schedule.end) - start + DAY_MINUTES) % DAY_MINUTES || DAY_MINUTES;
  const { weekday, minute, intoMinuteMs } = wallClock(now, schedule.timeZone);
  const days = new Set(schedule.days);
  // Minutes since the window of today (or of yesterday, for one running past midnight) opened.
  const candidates: [number, number][] = [
    [weekday, minute - start],
    [weekday === 1 ? 7 : weekday - 1, minute + DAY_MINUTES - start],
  ];
  for (const [day, since] of candidates) {
    if (since >= 0 && since < length && days.has(day)) {
      const openedAt = now - since * MINUTE - intoMinuteMs;
      return { onAir: true, openedAt, endsAt: openedAt + length * MINUTE };
    }
  }
  // croner counts Sunday as 0.
  const cronDays = [...days].map((d) => d % 7).join(',');
  const next = new Cron(`${start % 60} ${Math.floor(start / 60)} * * ${cronDays}`, { timezone: schedule.timeZone, paused: true }).nextRun(new Date(now));
  return { onAir: false, opensAt: next ? next.getTime() : now + 7 * DAY_MINUTES * MINUTE };
}

export interface TaskClock {
  startedAt: number;
  dwellMs: number;
  pageCount: number;
  schedule: CarouselSchedule | null;
}

/**
 * A started task at `now`: `running` on page `page` until `switchAt` (the next page, or the end of
 * the schedule's window), or `waiting` for the window that opens at `switchAt`. Pages count from
 * the later of the start and the window's opening, so each window begins on the first page.
 */
export function taskPosition(task: TaskClock, now: number): { state: 'running' | 'waiting'; page: number; switchAt: number } {
  let anchor = task.startedAt;
  let windowEnd = Number.POSITIVE_INFINITY;
  if (task.schedule) {
    const at = scheduleAt(task.schedule, now);
    if (!at.onAir) return { state: 'waiting', page: 0, switchAt: at.opensAt };
    anchor = Math.max(anchor, at.openedAt);
    windowEnd = at.endsAt;
  }
  const turns = Math.max(0, Math.floor((now - anchor) / task.dwellMs));
  return { state: 'running', page: turns % task.pageCount, switchAt: Math.min(anchor + (turns + 1) * task.dwellMs, windowEnd) };
}
