import { describe, expect, it } from 'vitest';
import { carouselPages as pagesOf } from '@ship-cctv/protocol';
import {
  clockOffset,
  formatCountdown,
  gridPlace,
  mountedCells,
  msUntil,
  msUntilOverdue,
  pauseClock,
  resizeClock,
  resumeClock,
  startClock,
  stepClock,
  tickClock,
  wrapPage,
} from './paging.ts';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `C${i + 1}`);
const cells = (names: string[]) => names.map((channelId) => ({ channelId }));

describe('pages of a list by layout', () => {
  it('cuts the list in pages of the layout, the last one short', () => {
    expect(pagesOf(ids(6), 4)).toEqual([['C1', 'C2', 'C3', 'C4'], ['C5', 'C6']]);
    expect(pagesOf(ids(9), 9)).toEqual([ids(9)]);
    expect(pagesOf(ids(3), 1)).toEqual([['C1'], ['C2'], ['C3']]);
    expect(pagesOf([], 16)).toEqual([]);
    expect(pagesOf(ids(6), 4)).toHaveLength(2);
    expect(pagesOf(ids(16), 16)).toHaveLength(1);
    expect(pagesOf(ids(17), 16)).toHaveLength(2);
    expect(pagesOf([], 4)).toHaveLength(0);
  });

  it('wraps next and previous at both ends', () => {
    expect(wrapPage(0, 1, 3)).toBe(1);
    expect(wrapPage(2, 1, 3)).toBe(0);
    expect(wrapPage(0, -1, 3)).toBe(2);
    expect(wrapPage(1, -4, 3)).toBe(0);
    expect(wrapPage(0, 1, 1)).toBe(0);
    expect(wrapPage(5, 1, 0)).toBe(0);
  });

  it('places slots row by row in the layout’s square', () => {
    expect(gridPlace(0, 4)).toEqual({ row: 1, column: 1 });
    expect(gridPlace(1, 4)).toEqual({ row: 1, column: 2 });
    expect(gridPlace(2, 4)).toEqual({ row: 2, column: 1 });
    expect(gridPlace(8, 9)).toEqual({ row: 3, column: 3 });
    expect(gridPlace(0, 1)).toEqual({ row: 1, column: 1 });
  });
});

describe("a simple carousel's clock (this browser)", () => {
  const DWELL = 60_000;

  it('turns a page at each dwell and wraps', () => {
    let clock = startClock(3, DWELL, 1_000);
    expect(clock).toMatchObject({ page: 0, switchAt: 61_000 });
    expect(tickClock(clock, 60_999)).toBe(clock);
    clock = tickClock(clock, 61_000);
    expect(clock).toMatchObject({ page: 1, switchAt: 121_000 });
    clock = tickClock(tickClock(clock, 121_000), 181_000);
    expect(clock).toMatchObject({ page: 0, switchAt: 241_000 });
  });

  it('wakes on the right page after the tab slept through several dwells', () => {
    const clock = tickClock(startClock(4, DWELL, 0), 3 * DWELL + 5_000);
    expect(clock).toMatchObject({ page: 3, switchAt: 4 * DWELL });
  });

  it('does not turn a single page', () => {
    const clock = startClock(1, DWELL, 0);
    expect(clock.switchAt).toBeNull();
    expect(tickClock(clock, 10 * DWELL)).toBe(clock);
  });

  it('steps by hand with a whole dwell for the new page, wrapping', () => {
    const clock = startClock(3, DWELL, 0);
    expect(stepClock(clock, -1, 10_000)).toMatchObject({ page: 2, switchAt: 70_000 });
    expect(stepClock(clock, 1, 10_000)).toMatchObject({ page: 1, switchAt: 70_000 });
  });

  it('pauses with the dwell left, and resumes from it', () => {
    const paused = pauseClock(startClock(3, DWELL, 0), 45_000);
    expect(paused).toMatchObject({ page: 0, switchAt: null, pausedLeftMs: 15_000 });
    // Paused, time does not turn pages; a step keeps it paused with a whole dwell.
    expect(tickClock(paused, 500_000)).toBe(paused);
    expect(stepClock(paused, 1, 50_000)).toMatchObject({ page: 1, switchAt: null, pausedLeftMs: DWELL });
    expect(resumeClock(paused, 100_000)).toMatchObject({ page: 0, switchAt: 115_000, pausedLeftMs: null });
  });

  it('keeps the page when the list changes length, if it still exists', () => {
    const clock = tickClock(startClock(3, DWELL, 0), 2 * DWELL);
    expect(clock.page).toBe(2);
    expect(resizeClock(clock, 3, 0)).toBe(clock);
    expect(resizeClock(clock, 2, 2 * DWELL)).toMatchObject({ page: 1, pageCount: 2 });
    expect(resizeClock(clock, 1, 2 * DWELL)).toMatchObject({ page: 0, switchAt: null });
  });
});

describe("a task's countdown (shore's clock)", () => {
  it('corrects the countdown by how far shore’s clock is ahead', () => {
    // Shore said 10 000 when this browser read 9 000: shore is 1 s ahead.
    const offset = clockOffset(10_000, 9_000);
    expect(offset).toBe(1_000);
    // switchAt 30 000 on shore's clock, 19 000 here = 20 000 there: 10 s left.
    expect(msUntil(30_000, offset, 19_000)).toBe(10_000);
    expect(msUntil(30_000, offset, 40_000)).toBe(0);
    // A browser behind shore's clock.
    expect(msUntil(30_000, clockOffset(10_000, 12_000), 12_000)).toBe(20_000);
  });

  it('counts a status overdue 2 s after its switch without a newer one', () => {
    expect(msUntilOverdue(30_000, 0, 31_999)).toBeGreaterThan(0);
    expect(msUntilOverdue(30_000, 0, 32_000)).toBe(0);
    expect(msUntilOverdue(30_000, 1_000, 31_000)).toBe(0);
    expect(msUntilOverdue(30_000, 0, 25_000)).toBe(7_000);
    expect(msUntilOverdue(30_000, 0, 40_000)).toBe(0);
  });

  it('shows the countdown as m:ss, rounded up', () => {
    expect(formatCountdown(0)).toBe('0:00');
    expect(formatCountdown(1)).toBe('0:01');
    expect(formatCountdown(19_001)).toBe('0:20');
    expect(formatCountdown(60_000)).toBe('1:00');
    expect(formatCountdown(3_600_000 + 61_000)).toBe('1:01:01');
    expect(formatCountdown(-5)).toBe('0:00');
  });

});

describe('what is mounted', () => {
  it('mounts the page on screen, then the next page hidden at the places it will take', () => {
    const mounted = mountedCells(cells(['A', 'B', 'C', 'D']), cells(['E', 'F']));
    expect(mounted.map((m) => [m.cell.channelId, m.slot, m.visible])).toEqual([
      ['A', 0, true],
      ['B', 1, true],
      ['C', 2, true],
      ['D', 3, true],
      ['E', 0, false],
      ['F', 1, false],
    ]);
  });

  it('mounts a channel on both pages once, where it shows now', () => {
    const mounted = mountedCells(cells(['A', 'B']), cells(['A', 'B']));
    expect(mounted.map((m) => m.cell.channelId)).toEqual(['A', 'B']);
    expect(mountedCells(cells(['A']), undefined)).toHaveLength(1);
  });

  it('keeps the pre-warmed cells first in their order after the switch (same keys, nothing moved)', () => {
    const before = mountedCells(cells(['A', 'B', 'C', 'D']), cells(['E', 'F'])).map((m) => m.cell.channelId);
    const after = mountedCells(cells(['E', 'F']), undefined).map((m) => m.cell.channelId);
    expect(before.filter((id) => after.includes(id))).toEqual(after);
  });
});
