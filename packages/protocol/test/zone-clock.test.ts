import { describe, expect, it } from 'vitest';
import { UnknownTimeZoneError, isTimeZone, startOfNextZoneDay, startOfZoneDay, startOfZoneMonth, zoneTime } from '../src/index.ts';

const HOUR = 3_600_000;
const clock = (at: number, zone: string) => {
  const t = zoneTime(at, zone);
  return `${t.date} ${String(t.hour).padStart(2, '0')}:${String(t.minute).padStart(2, '0')}:${String(t.second).padStart(2, '0')} ${t.offsetMinutes}`;
};

describe('zoneTime: the wall clock of a zone at an instant', () => {
  it('reads every field: date, time, weekday, minute of the day, offset', () => {
    // 2026-12-01 00:00:00.250 in Shanghai (UTC+8 all year) is a Tuesday.
    expect(zoneTime(Date.UTC(2026, 10, 30, 16, 0, 0, 250), 'Asia/Shanghai')).toEqual({
      year: 2026,
      month: 12,
      day: 1,
      hour: 0,
      minute: 0,
      second: 0,
      millisecond: 250,
      weekday: 2,
      date: '2026-12-01',
      yearMonth: '2026-12',
      minuteOfDay: 0,
      offsetMs: 8 * HOUR,
      offsetMinutes: 480,
    });
    expect(zoneTime(Date.UTC(2026, 10, 30, 15, 59, 59), 'Asia/Shanghai')).toMatchObject({ date: '2026-11-30', weekday: 1, minuteOfDay: 23 * 60 + 59 });
  });

  it('keeps offsets that are not whole hours (Kolkata +05:30) and turns the year at its own midnight', () => {
    expect(clock(Date.UTC(2026, 11, 31, 18, 29, 59), 'Asia/Kolkata')).toBe('2026-12-31 23:59:59 330');
    expect(zoneTime(Date.UTC(2026, 11, 31, 18, 30), 'Asia/Kolkata')).toMatchObject({ date: '2027-01-01', yearMonth: '2027-01', weekday: 5, minuteOfDay: 0 });
  });

  it('follows daylight saving in Berlin: the spring hour is skipped, the autumn one read twice', () => {
    expect(clock(Date.UTC(2026, 2, 29, 0, 59, 59), 'Europe/Berlin')).toBe('2026-03-29 01:59:59 60');
    expect(clock(Date.UTC(2026, 2, 29, 1, 0, 0), 'Europe/Berlin')).toBe('2026-03-29 03:00:00 120');
    expect(clock(Date.UTC(2026, 9, 25, 0, 30), 'Europe/Berlin')).toBe('2026-10-25 02:30:00 120');
    expect(clock(Date.UTC(2026, 9, 25, 1, 30), 'Europe/Berlin')).toBe('2026-10-25 02:30:00 60');
  });

  it('follows daylight saving in New York, behind UTC', () => {
    expect(clock(Date.UTC(2026, 2, 8, 6, 59), 'America/New_York')).toBe('2026-03-08 01:59:00 -300');
    expect(clock(Date.UTC(2026, 2, 8, 7, 0), 'America/New_York')).toBe('2026-03-08 03:00:00 -240');
    // Monday 01:30 UTC is still Sunday evening there.
    expect(zoneTime(Date.UTC(2026, 2, 9, 1, 30), 'America/New_York')).toMatchObject({ weekday: 7, minuteOfDay: 21 * 60 + 30 });
    expect(clock(Date.UTC(2026, 10, 1, 5, 30), 'America/New_York')).toBe('2026-11-01 01:30:00 -240');
    expect(clock(Date.UTC(2026, 10, 1, 6, 30), 'America/New_York')).toBe('2026-11-01 01:30:00 -300');
  });

  it('keeps the quarter-hour offsets of the Chatham Islands through their daylight saving', () => {
    expect(clock(Date.UTC(2026, 3, 4, 13, 59), 'Pacific/Chatham')).toBe('2026-04-05 03:44:00 825');
    expect(clock(Date.UTC(2026, 3, 4, 14, 0), 'Pacific/Chatham')).toBe('2026-04-05 02:45:00 765');
    expect(clock(Date.UTC(2026, 8, 26, 13, 59), 'Pacific/Chatham')).toBe('2026-09-27 02:44:00 765');
    expect(clock(Date.UTC(2026, 8, 26, 14, 0), 'Pacific/Chatham')).toBe('2026-09-27 03:45:00 825');
  });
});

describe('the start of a zone day and month', () => {
  it('finds local midnights across the days that are 23 and 25 hours long', () => {
    // Berlin: 29 March 2026 has 23 hours, 25 October 26 has 25.
    expect(startOfZoneDay(Date.UTC(2026, 2, 29, 12), 'Europe/Berlin')).toBe(Date.UTC(2026, 2, 28, 23));
    expect(startOfNextZoneDay(Date.UTC(2026, 2, 29, 12), 'Europe/Berlin')).toBe(Date.UTC(2026, 2, 29, 22));
    expect(startOfZoneDay(Date.UTC(2026, 9, 25, 12), 'Europe/Berlin')).toBe(Date.UTC(2026, 9, 24, 22));
    expect(startOfNextZoneDay(Date.UTC(2026, 9, 25, 12), 'Europe/Berlin')).toBe(Date.UTC(2026, 9, 25, 23));
    // New York, from just after midnight on the day its clocks go forward.
    expect(startOfNextZoneDay(Date.UTC(2026, 2, 8, 5, 30), 'America/New_York')).toBe(Date.UTC(2026, 2, 9, 4));
    expect(startOfZoneDay(Date.UTC(2026, 2, 8, 5, 30), 'America/New_York')).toBe(Date.UTC(2026, 2, 8, 5));
  });

  it('finds the first instant of the zone month', () => {
    expect(startOfZoneMonth(Date.UTC(2027, 0, 15), 'Asia/Kolkata')).toBe(Date.UTC(2026, 11, 31, 18, 30));
    // A month that began in winter time, asked from summer time.
    expect(startOfZoneMonth(Date.UTC(2026, 2, 31, 12), 'Europe/Berlin')).toBe(Date.UTC(2026, 1, 28, 23));
    // Chatham: April began in summer time (+13:45), asked from winter time (+12:45).
    expect(startOfZoneMonth(Date.UTC(2026, 3, 20, 12), 'Pacific/Chatham')).toBe(Date.UTC(2026, 2, 31, 10, 15));
  });

  it('brackets every hour of a year with the midnights of its own date, in every kind of zone', () => {
    // Thousands of instants: what is wrong is gathered and asserted once (an expect each costs more than the clock).
    const wrong: string[] = [];
    let checked = 0;
    for (const zone of ['Asia/Shanghai', 'Asia/Kolkata', 'Pacific/Chatham', 'Europe/Berlin', 'America/New_York', 'UTC']) {
      for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 7 * HOUR) {
        checked++;
        const start = startOfZoneDay(t, zone);
        const next = startOfNextZoneDay(t, zone);
        const atStart = zoneTime(start, zone);
        const problems = [
          start <= t && t < next ? '' : 'not bracketed',
          atStart.date === zoneTime(t, zone).date ? '' : `its day starts on ${atStart.date}`,
          atStart.minuteOfDay === 0 && atStart.second === 0 ? '' : `the start shows ${atStart.hour}:${atStart.minute}:${atStart.second}`,
          zoneTime(next, zone).minuteOfDay === 0 ? '' : 'the next day does not start at midnight',
          [23, 24, 25].includes((next - start) / HOUR) ? '' : `a day of ${(next - start) / HOUR} hours`,
        ].filter(Boolean);
        if (problems.length > 0) wrong.push(`${zone} ${new Date(t).toISOString()}: ${problems.join(', ')}`);
      }
    }
    expect(checked).toBeGreaterThan(7_000);
    expect(wrong).toEqual([]);
  });

  it('reads the same clock as the runtime’s time-zone data, across changes of offset and in zones that changed at odd times', () => {
    const formats = new Map<string, Intl.DateTimeFormat>();
    const direct = (at: number, timeZone: string) => {
      let format = formats.get(timeZone);
      if (!format) formats.set(timeZone, (format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })));
      const parts = format.formatToParts(new Date(at));
      const f = (type: string) => Number(parts.find((p) => p.type === type)?.value);
      return [f('year'), f('month'), f('day'), f('hour'), f('minute'), f('second')].join(' ');
    };
    const wrong: string[] = [];
    // St. John's changed at 00:01 local until 2011; Monrovia kept −0:44:30 until 1972; Lord Howe moves by half an hour.
    for (const zone of ['America/St_Johns', 'Africa/Monrovia', 'Australia/Lord_Howe', 'Europe/Berlin', 'Pacific/Chatham']) {
      for (const [from, to] of [[Date.UTC(1971, 0, 1), Date.UTC(1973, 0, 1)], [Date.UTC(2009, 0, 1), Date.UTC(2010, 0, 1)]] as const) {
        for (let t = from; t < to; t += 433 * 60_000 + 7_000) {
          const z = zoneTime(t, zone);
          const got = [z.year, z.month, z.day, z.hour, z.minute, z.second].join(' ');
          const want = direct(t, zone);
          if (got !== want) wrong.push(`${zone} ${new Date(t).toISOString()}: ${got}, the runtime says ${want}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('zone names', () => {
  it('knows IANA names and refuses others with an error that names them', () => {
    expect(isTimeZone('Asia/Shanghai')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(() => zoneTime(0, 'Mars/Olympus_Mons')).toThrow(UnknownTimeZoneError);
    expect(() => zoneTime(0, 'Mars/Olympus_Mons')).toThrow('unknown time zone "Mars/Olympus_Mons"');
    expect(() => startOfNextZoneDay(0, 'GMT+8:00')).toThrow(UnknownTimeZoneError);
  });
});
