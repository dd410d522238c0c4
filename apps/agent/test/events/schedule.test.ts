import { describe, expect, it } from 'vitest';
import { inSchedule } from '../../src/events/analyser/schedule.ts';

describe('analysis schedule on the ship clock', () => {
  // 2026-06-01 12:00 UTC is 20:00 in Shanghai and 08:00 in New York (daylight saving).
  const noonUtc = Date.UTC(2026, 5, 1, 12, 0);

  it('runs always, or between two times of day in the zone', () => {
    expect(inSchedule({ kind: 'always' }, noonUtc)).toBe(true);
    expect(inSchedule({ kind: 'daily', timeZone: 'Asia/Shanghai', from: '18:00', to: '06:00' }, noonUtc)).toBe(true);
    expect(inSchedule({ kind: 'daily', timeZone: 'America/New_York', from: '18:00', to: '06:00' }, noonUtc)).toBe(false);
    expect(inSchedule({ kind: 'daily', timeZone: 'America/New_York', from: '07:59', to: '08:01' }, noonUtc)).toBe(true);
    expect(inSchedule({ kind: 'daily', timeZone: 'UTC', from: '12:00', to: '12:00' }, noonUtc)).toBe(true);
    // The end is not in it.
    expect(inSchedule({ kind: 'daily', timeZone: 'UTC', from: '06:00', to: '12:00' }, noonUtc)).toBe(false);
  });

  it('throws for a zone the runtime does not know', () => {
    expect(() => inSchedule({ kind: 'daily', timeZone: 'Mars/Olympus_Mons', from: '18:00', to: '06:00' }, noonUtc)).toThrow(/unknown time zone/);
  });
});
