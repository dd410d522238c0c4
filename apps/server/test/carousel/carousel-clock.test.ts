import { describe, expect, it } from 'vitest';
import { carouselPages } from '@ship-cctv/protocol';
import { pageAt, scheduleAt, taskPosition, wallClock } from '../../src/modules/carousel/carousel-clock.ts';

const MIN = 60_000;
/** 2026-11-23 was a Monday. */
const mondayUtc = (hh: number, mm = 0) => Date.UTC(2026, 10, 23, hh, mm);

describe('carousel pages', () => {
  it('cuts the channels by the layout; the last page holds the rest; pages wrap', () => {
    const six = ['a', 'b', 'c', 'd', 'e', 'f'];
    const pageOf = (items: string[], layout: number, page: number) => pageAt(carouselPages(items, layout), page);
    expect(carouselPages(six, 4)).toHaveLength(2);
    expect(carouselPages([], 4)).toHaveLength(0);
    expect(pageOf([], 4, 0)).toEqual([]);
    expect(pageOf(six, 4, 0)).toEqual(['a', 'b', 'c', 'd']);
    expect(pageOf(six, 4, 1)).toEqual(['e', 'f']);
    expect(pageOf(six, 4, 2)).toEqual(['a', 'b', 'c', 'd']);
    expect(pageOf(six, 4, -1)).toEqual(['e', 'f']);
    expect(pageOf(six, 1, 5)).toEqual(['f']);
  });

  it('a started task turns a page every dwell from its start, on any instance’s clock', () => {
    const task = { startedAt: 1_000_000, dwellMs: 2 * MIN, pageCount: 3, schedule: null };
    expect(taskPosition(task, 1_000_000)).toEqual({ state: 'running', page: 0, switchAt: 1_000_000 + 2 * MIN });
    expect(taskPosition(task, 1_000_000 + 2 * MIN - 1)).toMatchObject({ page: 0 });
    expect(taskPosition(task, 1_000_000 + 2 * MIN)).toEqual({ state: 'running', page: 1, switchAt: 1_000_000 + 4 * MIN });
    expect(taskPosition(task, 1_000_000 + 7 * MIN)).toEqual({ state: 'running', page: 0, switchAt: 1_000_000 + 8 * MIN });
    // A clock a little behind the start (another instance) shows the first page, not a negative one.
    expect(taskPosition(task, 999_000)).toMatchObject({ page: 0 });
  });
});

describe('carousel schedules', () => {
  const office = { days: [1, 2, 3, 4, 5], start: '08:00', end: '18:00', timeZone: 'Asia/Shanghai' };

  it('reads the wall clock of the schedule’s time zone', () => {
    expect(wallClock(mondayUtc(1, 30), 'Asia/Shanghai')).toMatchObject({ weekday: 1, minute: 9 * 60 + 30 });
    expect(wallClock(mondayUtc(1, 30), 'America/New_York')).toMatchObject({ weekday: 7, minute: 20 * 60 + 30 });
  });

  it('is on air inside a window of a listed day, with its opening and end', () => {
    // Monday 09:30 in Shanghai.
    expect(scheduleAt(office, mondayUtc(1, 30))).toEqual({ onAir: true, openedAt: mondayUtc(0), endsAt: mondayUtc(10) });
    // Monday 18:00 in Shanghai: over; next Tuesday 08:00.
    expect(scheduleAt(office, mondayUtc(10))).toEqual({ onAir: false, opensAt: mondayUtc(24) });
  });

  it('off air on a day not listed, until the next listed day', () => {
    // Saturday 2026-11-28 12:00 Shanghai → Monday 2026-11-30 08:00 Shanghai.
    expect(scheduleAt(office, Date.UTC(2026, 10, 28, 4))).toEqual({ onAir: false, opensAt: Date.UTC(2026, 10, 30, 0) });
  });

  it('a window ending before it starts runs past midnight and belongs to the day it opens', () => {
    const night = { days: [5], start: '22:00', end: '06:00', timeZone: 'UTC' };
    const friday = Date.UTC(2026, 10, 27);
    expect(scheduleAt(night, friday + 23 * 60 * MIN)).toEqual({ onAir: true, openedAt: friday + 22 * 60 * MIN, endsAt: friday + 30 * 60 * MIN });
    // Saturday 03:00 is Friday's window.
    expect(scheduleAt(night, friday + 27 * 60 * MIN)).toMatchObject({ onAir: true, openedAt: friday + 22 * 60 * MIN });
    // Saturday 23:00 is not: Saturday is not listed.
    expect(scheduleAt(night, friday + 47 * 60 * MIN)).toMatchObject({ onAir: false, opensAt: friday + 7 * 24 * 60 * MIN + 22 * 60 * MIN });
  });

  it('a scheduled task waits off air, starts each window on the first page, and its last page ends with the window', () => {
    const task = { startedAt: mondayUtc(-20), dwellMs: 7 * MIN, pageCount: 4, schedule: office };
    // Sunday 20:00 Shanghai: waiting for Monday 08:00.
    expect(taskPosition(task, mondayUtc(-12))).toEqual({ state: 'waiting', page: 0, switchAt: mondayUtc(0) });
    expect(taskPosition(task, mondayUtc(0))).toEqual({ state: 'running', page: 0, switchAt: mondayUtc(0, 7) });
    expect(taskPosition(task, mondayUtc(0, 22))).toEqual({ state: 'running', page: 3, switchAt: mondayUtc(0, 28) });
    // 17:58: the page would last to 18:03; it ends with the window at 18:00.
    expect(taskPosition(task, mondayUtc(9, 58))).toMatchObject({ state: 'running', switchAt: mondayUtc(10) });
  });
});
