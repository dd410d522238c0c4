/**
 * The carousel's clocks, kept apart from React so every rule is tested (the pages themselves are
 * `carouselPages` of the protocol, shore's rule too): stepping with wrap-around, the browser's own clock of a simple carousel, the countdown
 * of a task to shore's `switchAt` (corrected by `serverTime`), and which cells are mounted (the page
 * on screen plus, for the last few seconds, the next one).
 */

/** A task's status counts as late this long after its `switchAt`: then the screen asks shore again. */
export const OVERDUE_GRACE_MS = 2_000;

/** `page` moved by `delta`, wrapping at both ends (0 when there are no pages). */
export function wrapPage(page: number, delta: number, pageCount: number): number {
  if (pageCount <= 0) return 0;
  return (((page + delta) % pageCount) + pageCount) % pageCount;
}

// ── a simple carousel: the browser's clock ─────────────────────────────────────────────────────

/** Where a simple carousel is: the page on screen and when it turns (or, paused, what was left). */
export interface LocalClock {
  page: number;
  pageCount: number;
  dwellMs: number;
  /** When the page turns (Date.now() clock); null while paused or with a single page. */
  switchAt: number | null;
  /** While paused: the dwell left when it was paused. */
  pausedLeftMs: number | null;
}

export function startClock(pageCount: number, dwellMs: number, now: number, page = 0): LocalClock {
  return { page: pageCount > 0 ? wrapPage(page, 0, pageCount) : 0, pageCount, dwellMs, switchAt: pageCount > 1 ? now + dwellMs : null, pausedLeftMs: null };
}

/**
 * The clock at `now`: past its switch it moves on as many pages as whole dwells went by (a tab the
 * browser put to sleep wakes on the right page, not one page later).
 */
export function tickClock(clock: LocalClock, now: number): LocalClock {
  if (clock.switchAt === null || now < clock.switchAt) return clock;
  const steps = 1 + Math.floor((now - clock.switchAt) / clock.dwellMs);
  return { ...clock, page: wrapPage(clock.page, steps, clock.pageCount), switchAt: clock.switchAt + steps * clock.dwellMs };
}

/** Next (+1) or previous (−1) page by hand: the new page gets a whole dwell (paused stays paused). */
export function stepClock(clock: LocalClock, delta: number, now: number): LocalClock {
  const page = wrapPage(clock.page, delta, clock.pageCount);
  if (clock.pausedLeftMs !== null) return { ...clock, page, pausedLeftMs: clock.dwellMs };
  return { ...clock, page, switchAt: clock.pageCount > 1 ? now + clock.dwellMs : null };
}

export function pauseClock(clock: LocalClock, now: number): LocalClock {
  if (clock.pausedLeftMs !== null) return clock;
  return { ...clock, switchAt: null, pausedLeftMs: clock.switchAt === null ? clock.dwellMs : Math.max(0, clock.switchAt - now) };
}

export function resumeClock(clock: LocalClock, now: number): LocalClock {
  if (clock.pausedLeftMs === null) return clock;
  return { ...clock, switchAt: clock.pageCount > 1 ? now + clock.pausedLeftMs : null, pausedLeftMs: null };
}

/** The same clock for a list that changed length (cells of ships that came or went): the page stays if it still exists. */
export function resizeClock(clock: LocalClock, pageCount: number, now: number): LocalClock {
  if (pageCount === clock.pageCount) return clock;
  const page = pageCount > 0 ? Math.min(clock.page, pageCount - 1) : 0;
  if (clock.pausedLeftMs !== null) return { ...clock, page, pageCount };
  return { ...clock, page, pageCount, switchAt: pageCount > 1 ? (clock.switchAt ?? now + clock.dwellMs) : null };
}

// ── a task: shore's clock ──────────────────────────────────────────────────────────────────────

/** How far shore's clock is ahead of this browser's: `serverTime` as received at `receivedAt`. */
export function clockOffset(serverTime: number, receivedAt: number): number {
  return serverTime - receivedAt;
}

/** Milliseconds from `now` (this browser's clock) to `at` (shore's clock), never negative. */
export function msUntil(at: number, offsetMs: number, now: number): number {
  return Math.max(0, at - (now + offsetMs));
}

/** Milliseconds from `now` until a status counts as overdue (0: it already is). */
export function msUntilOverdue(switchAt: number, offsetMs: number, now: number, graceMs = OVERDUE_GRACE_MS): number {
  return msUntil(switchAt + graceMs, offsetMs, now);
}

/** The countdown as shown: `m:ss`, or `h:mm:ss` from an hour; rounded up so "0:01" shows until the end. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

// ── what is mounted ─────────────────────────────────────────────────────────────────────────────

/** A cell mounted in the grid: its place on its page, and whether it is the page on screen. */
export interface MountedCell<T> {
  cell: T;
  /** 0-based place on its page (row-major in the layout's square). */
  slot: number;
  visible: boolean;
}

/**
 * The page on screen, visible, and the next page's cells (while pre-warming), hidden at the place
 * they will take. A channel on both pages is mounted once, where it shows now. Both in one list,
 * keyed by channel: at the switch a pre-warmed cell becomes visible instead of a new one starting.
 */
export function mountedCells<T extends { channelId: string }>(current: readonly T[], next: readonly T[] | undefined): MountedCell<T>[] {
  const shown = new Set(current.map((c) => c.channelId));
  const mounted: MountedCell<T>[] = current.map((cell, slot) => ({ cell, slot, visible: true }));
  (next ?? []).forEach((cell, slot) => {
    if (!shown.has(cell.channelId)) mounted.push({ cell, slot, visible: false });
  });
  return mounted;
}

/** Row and column (1-based, CSS grid) of a slot in a square layout of `layout` cells. */
export function gridPlace(slot: number, layout: number): { row: number; column: number } {
  const side = Math.max(1, Math.round(Math.sqrt(layout)));
  return { row: Math.floor(slot / side) + 1, column: (slot % side) + 1 };
}
