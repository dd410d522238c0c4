import { describe, expect, it } from 'vitest';
import { crossings, levelOf, liveState, purposeUse, useOf } from '../../src/modules/budgets/budget-arithmetic.ts';
import { endOfShipDay, monthDays, shipPeriod } from '../../src/modules/budgets/ship-calendar.ts';
import { UsageRecorder } from '../../src/modules/budgets/usage-recorder.ts';

/** The ship's calendar and the budget arithmetic: pure, on given instants. */
describe('ship calendar', () => {
  it('names the ship’s day and month in its own time zone, not the server’s', () => {
    // 2026-11-30 15:59:59 UTC is 23:59:59 in Shanghai; one second later it is December there.
    expect(shipPeriod(Date.UTC(2026, 10, 30, 15, 59, 59), 'Asia/Shanghai')).toEqual({ day: '2026-11-30', month: '2026-11' });
    expect(shipPeriod(Date.UTC(2026, 10, 30, 16, 0, 0), 'Asia/Shanghai')).toEqual({ day: '2026-12-01', month: '2026-12' });
    // The same instant is still November 30 in UTC and in Amsterdam.
    expect(shipPeriod(Date.UTC(2026, 10, 30, 16, 0, 0), 'UTC')).toEqual({ day: '2026-11-30', month: '2026-11' });
    expect(shipPeriod(Date.UTC(2026, 10, 30, 16, 0, 0), 'Europe/Amsterdam').day).toBe('2026-11-30');
    // New year in Kolkata (UTC+5:30) comes at 18:30 UTC.
    expect(shipPeriod(Date.UTC(2026, 11, 31, 18, 29), 'Asia/Kolkata').month).toBe('2026-12');
    expect(shipPeriod(Date.UTC(2026, 11, 31, 18, 30), 'Asia/Kolkata')).toEqual({ day: '2027-01-01', month: '2027-01' });
    // A zone Intl does not know counts in UTC rather than failing.
    expect(shipPeriod(Date.UTC(2026, 10, 30, 23), 'Not/AZone').day).toBe('2026-11-30');
  });

  it('gives a month’s day range across the year’s end', () => {
    expect(monthDays('2026-11')).toEqual({ first: '2026-11-01', next: '2026-12-01' });
    expect(monthDays('2026-12')).toEqual({ first: '2026-12-01', next: '2027-01-01' });
  });

  it('ends the ship’s day at its next local midnight, daylight-saving days included', () => {
    expect(endOfShipDay(Date.UTC(2026, 10, 30, 10), 'Asia/Shanghai')).toBe(Date.UTC(2026, 10, 30, 16));
    expect(endOfShipDay(Date.UTC(2026, 10, 30, 17), 'Asia/Shanghai')).toBe(Date.UTC(2026, 11, 1, 16));
    // Amsterdam leaves summer time on 2026-10-25 at 03:00 local: that day is 25 hours long, midnight after it is 23:00 UTC.
    expect(endOfShipDay(Date.UTC(2026, 9, 25, 0, 30), 'Europe/Amsterdam')).toBe(Date.UTC(2026, 9, 25, 23));
    // and enters it on 2026-03-29: midnight after it is 22:00 UTC.
    expect(endOfShipDay(Date.UTC(2026, 2, 29, 0, 30), 'Europe/Amsterdam')).toBe(Date.UTC(2026, 2, 29, 22));
  });
});

describe('budget arithmetic', () => {
  const MB = 1_000_000;

  it('reaches 80 at 80 % and 100 at the cap; no cap is never reached', () => {
    expect(levelOf(799_999, MB)).toBe(0);
    expect(levelOf(800_000, MB)).toBe(80);
    expect(levelOf(999_999, MB)).toBe(80);
    expect(levelOf(MB, MB)).toBe(100);
    expect(levelOf(10 * MB, null)).toBe(0);
  });

  it('takes the higher of the day’s and the month’s level', () => {
    // A quiet day in a month nearly used up.
    expect(purposeUse({ dayMb: 10, monthMb: 100 }, MB, 99 * MB)).toMatchObject({ level: 80, dayCapBytes: 10 * MB, monthCapBytes: 100 * MB });
    expect(purposeUse({ dayMb: 10, monthMb: 100 }, 10 * MB, 20 * MB).level).toBe(100);
    expect(purposeUse({ monthMb: 100 }, 50 * MB, 100 * MB).level).toBe(100);
    expect(purposeUse(undefined, 50 * MB, 100 * MB).level).toBe(0);
    // Fractions of a megabyte (a tiny cap) round to bytes.
    expect(purposeUse({ dayMb: 0.25 }, 0, 0).dayCapBytes).toBe(250_000);
  });

  it('applies the policy to live views only once the live budget is used up; an override lifts only a block', () => {
    const full = purposeUse({ dayMb: 1 }, MB, MB);
    const near = purposeUse({ dayMb: 1 }, 900_000, 900_000);
    expect(liveState('lowest', near, false)).toBe('normal');
    expect(liveState('lowest', full, false)).toBe('lowest');
    expect(liveState('stills', full, true)).toBe('stills');
    expect(liveState('block', full, false)).toBe('block');
    expect(liveState('block', full, true)).toBe('override');
    expect(liveState(null, full, false)).toBe('normal');
  });

  it('lists the levels reached per purpose and period', () => {
    const caps = { live: { dayMb: 1, monthMb: 10 }, playback: { monthMb: 1 }, pictures: {} };
    const use = useOf(caps, { live: { day: 850_000, month: 850_000 }, playback: { day: 0, month: 2 * MB }, pictures: { day: 5 * MB, month: 5 * MB }, backfill: { day: 0, month: 0 }, events: { day: 0, month: 0 } });
    expect(crossings(use).map((c) => `${c.purpose}/${c.period}/${c.level}`)).toEqual(['live/day/80', 'playback/month/80', 'playback/month/100']);
  });
});

describe('usage recorder', () => {
  it('hands out what each counter grew by since the last take, both directions together, by the ship’s day', () => {
    const totals = new Map<string, number>();
    const recorder = new UsageRecorder((ship, direction, purpose) => totals.get(`${ship}/${direction}/${purpose}`) ?? 0);
    totals.set('S1/up/live', 1000);
    totals.set('S1/down/live', 10);
    totals.set('S1/up/control', 5000);
    expect(recorder.take(['S1'], () => '2026-11-30')).toEqual([{ shipId: 'S1', day: '2026-11-30', purpose: 'live', bytes: 1010 }]);
    expect(recorder.take(['S1'], () => '2026-11-30')).toEqual([]);
    totals.set('S1/up/live', 1500);
    totals.set('S1/up/pictures', 300);
    // The ship is no longer listed (its link left): its last bytes still count.
    const next = recorder.take([], () => '2026-12-01');
    expect(next).toEqual([
      { shipId: 'S1', day: '2026-12-01', purpose: 'live', bytes: 500 },
      { shipId: 'S1', day: '2026-12-01', purpose: 'pictures', bytes: 300 },
    ]);
    // A failed write gives them back: the next take carries them again.
    recorder.giveBack(next);
    expect(recorder.take([], () => '2026-12-01').reduce((n, i) => n + i.bytes, 0)).toBe(800);
  });
});
