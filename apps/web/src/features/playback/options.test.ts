import { describe, expect, it } from 'vitest';
import type { ShipConfig } from '@ship-cctv/protocol';
import {
  closedTimeParts,
  DEFAULT_WINDOW_MS,
  defaultPlaybackOptions,
  defaultTemplatePair,
  epochToWallClock,
  findTimeZone,
  formatInIanaZone,
  formatInTimeZone,
  formatUtcOffset,
  isDayAfterNow,
  matchesTimeZone,
  offsetMinutesAt,
  parseWallClock,
  sideBySide,
  templateGroups,
  TIME_ZONES,
  timeZoneLabel,
  timeZoneName,
  timeZonesAt,
  toPlaybackCommand,
  validatePlaybackOptions,
  wallClockToEpoch,
  type PlaybackOptionsDraft,
  type TimeZoneEntry,
} from './options.ts';

const zone = (id: string): TimeZoneEntry => {
  const found = findTimeZone(id);
  if (!found) throw new Error(`no zone ${id}`);
  return found;
};

const CONFIG: ShipConfig = {
  groupAliasResDTOS: [
    {
      id: 2,
      displayName: '标准',
      defaultModelId: 6,
      models: [
        { id: 5, displayName: 'Smooth 320×180', width: 320, height: 180, frameRate: 5, bitrateKbps: 150, codec: 'h264' },
        { id: 6, displayName: 'Standard 640×360', width: 640, height: 360, frameRate: 10, bitrateKbps: 400, codec: 'h264' },
      ],
    },
    { id: 3, displayName: 'Empty', defaultModelId: null, models: [] },
  ],
  defaultGroupId: 2,
  talk: false,
  audio: false,
};
const NO_DEFAULT: ShipConfig = { ...CONFIG, defaultGroupId: null };

describe('time-zone list', () => {
  it('covers −12 … +13 with half-hour and 45-minute zones, each with a Chinese text and a unique id', () => {
    const offsets = TIME_ZONES.map((z) => z.offset);
    expect(Math.min(...offsets)).toBe(-12);
    expect(Math.max(...offsets)).toBe(13);
    expect(offsets).toContain(-4.5);
    expect(offsets).toContain(5.5);
    expect(offsets).toContain(5.75);
    expect(offsets).toContain(9.5);
    expect(new Set(TIME_ZONES.map((z) => z.id)).size).toBe(TIME_ZONES.length);
    for (const z of TIME_ZONES) {
      expect(z.textZh, z.text).toMatch(/^\(UTC[^)]*\) [^A-Za-z]/);
      // No English place name left in the Chinese list (abbreviations such as "UTC" aside).
      expect(timeZoneName(z, 'zh-CN'), z.text).not.toMatch(/[a-z]{2,}/);
    }
  });

  it('defaults to China Standard Time and labels it in both languages', () => {
    const cst = zone('China Standard Time');
    expect(defaultPlaybackOptions(0).timeZoneId).toBe('China Standard Time');
    expect(timeZoneLabel(cst, 'zh-CN')).toBe('(UTC+08:00) 北京，重庆，香港，乌鲁木齐');
    expect(timeZoneLabel(cst, 'en')).toBe('(UTC+08:00) Beijing, Chongqing, Hong Kong, Urumqi');
  });

  it('labels an entry with its offset as of the time being chosen: summer time only in summer', () => {
    const alaska = zone('Alaskan Standard Time');
    const may = Date.UTC(2026, 4, 1);
    const november = Date.UTC(2026, 10, 24);
    expect(timeZoneLabel(alaska, 'en', may)).toBe('(UTC-08:00) Alaska (DST)');
    expect(timeZoneLabel(alaska, 'zh-CN', may)).toBe('(UTC-08:00) 阿拉斯加（夏令时）');
    expect(timeZoneLabel(alaska, 'en', november)).toBe('(UTC-09:00) Alaska');
    expect(timeZoneLabel(alaska, 'zh-CN', november)).toBe('(UTC-09:00) 阿拉斯加');
    // The list says −02:30 (its summer offset) all year.
    const newfoundland = zone('Newfoundland Standard Time');
    expect(timeZoneLabel(newfoundland, 'en', november)).toBe('(UTC-03:30) Newfoundland');
    expect(timeZoneLabel(newfoundland, 'en', may)).toBe('(UTC-02:30) Newfoundland (DST)');
    // The list's summer twin leads to the standard entry, whose offset is the one in force then.
    const pacific = zone('Pacific Daylight Time');
    expect(pacific.id).toBe('Pacific Standard Time');
    expect(timeZoneLabel(pacific, 'zh-CN', november)).toBe('(UTC-08:00) 太平洋标准时间（美国和加拿大）');
    expect(timeZoneLabel(pacific, 'en', may)).toBe('(UTC-07:00) Pacific Standard Time (US & Canada) (DST)');
    // Rules changed since the list was written: Caracas is −04:00 (listed −04:30), Tehran keeps no summer time.
    expect(timeZoneLabel(zone('Venezuela Standard Time'), 'en', may)).toBe('(UTC-04:00) Caracas');
    expect(timeZoneLabel(zone('Iran Standard Time'), 'en', may)).toBe('(UTC+03:30) Tehran');
    expect(offsetMinutesAt(zone('China Standard Time'), november)).toBe(480);
  });

  it('sorts the list by the offsets of the time being chosen, and finds UTC-03:30 in winter', () => {
    for (const at of [Date.UTC(2026, 0, 15), Date.UTC(2026, 6, 15)]) {
      const offsets = timeZonesAt(at).map((z) => offsetMinutesAt(z, at));
      expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
      expect(timeZonesAt(at)).toHaveLength(TIME_ZONES.length);
    }
    const november = Date.UTC(2026, 10, 24);
    expect(TIME_ZONES.filter((z) => matchesTimeZone(z, 'UTC-03:30', november)).map((z) => z.id)).toEqual(['Newfoundland Standard Time']);
    expect(TIME_ZONES.filter((z) => matchesTimeZone(z, 'UTC-02:30', november))).toEqual([]);
  });

  it('keeps both entries of the value listed twice', () => {
    const gmt = TIME_ZONES.filter((z) => z.value === 'GMT Standard Time');
    expect(gmt.map((z) => z.id)).toEqual(['GMT Standard Time', 'GMT Standard Time|GDT']);
    expect(findTimeZone('GMT Standard Time|GDT')?.text).toBe('(UTC) Dublin, Lisbon');
  });

  it('lists each place once: no summer twin of Eastern, Pacific or London time', () => {
    const november = Date.UTC(2026, 10, 24);
    const labels = (language: 'zh-CN' | 'en') => timeZonesAt(november).map((z) => timeZoneLabel(z, language, november));
    expect(labels('en').filter((l) => l.includes('London'))).toEqual(['(UTC+00:00) Edinburgh, London']);
    expect(labels('zh-CN').filter((l) => l.includes('伦敦'))).toEqual(['(UTC+00:00) 爱丁堡，伦敦']);
    expect(labels('en').filter((l) => /Daylight|Summer/.test(l))).toEqual([]);
    expect(labels('zh-CN').filter((l) => l.includes('美国和加拿大') && l.includes('夏令时'))).toEqual([]);
    expect(labels('en')).toContain('(UTC-05:00) Eastern Time (US & Canada)');
    expect(new Set(TIME_ZONES.map((z) => z.text)).size).toBe(TIME_ZONES.length);
    // In summer the one London entry is +01:00 and says so.
    expect(timeZoneLabel(zone('British Summer Time'), 'en', Date.UTC(2026, 6, 1))).toBe('(UTC+01:00) Edinburgh, London (DST)');
    expect(findTimeZone('Eastern Daylight Time')?.id).toBe('Eastern Standard Time');
  });

  it('finds zones by city names with spaces, and by the Chinese names of main cities', () => {
    const search = (q: string) => TIME_ZONES.filter((z) => matchesTimeZone(z, q)).map((z) => z.id);
    expect(search('New York')).toEqual(['Eastern Standard Time']);
    expect(search('new_york')).toEqual(['Eastern Standard Time']);
    expect(search('Los Angeles')).toEqual(['Pacific Standard Time']);
    expect(search('纽约')).toEqual(['Eastern Standard Time']);
    expect(search('洛杉矶')).toEqual(['Pacific Standard Time']);
    expect(search('鹿特丹')).toEqual(['W. Europe Standard Time']);
    expect(search('上海')).toEqual(['China Standard Time']);
    expect(search('London')).toEqual(['GMT Standard Time']);
  });

  it('finds zones by Chinese or English name, IANA zone, abbreviation or offset', () => {
    const search = (q: string) => TIME_ZONES.filter((z) => matchesTimeZone(z, q)).map((z) => z.id);
    expect(search('北京')).toEqual(['China Standard Time']);
    expect(search('kathmandu')).toEqual(['Nepal Standard Time']);
    expect(search('Asia/Kolkata')).toEqual(['India Standard Time']);
    expect(search('UTC+05:45')).toEqual(['Nepal Standard Time']);
    expect(search('')).toHaveLength(TIME_ZONES.length);
  });

  it('writes offsets with hours and minutes', () => {
    expect(formatUtcOffset(480)).toBe('UTC+08:00');
    expect(formatUtcOffset(-270)).toBe('UTC-04:30');
    expect(formatUtcOffset(345)).toBe('UTC+05:45');
    expect(formatUtcOffset(0)).toBe('UTC+00:00');
  });
});

describe('wall clock ↔ epoch', () => {
  const wall = { year: 2025, month: 5, day: 1, hour: 8, minute: 0, second: 0 };

  it('converts a time typed in a zone to the instant and back, for whole and fractional offsets', () => {
    const cases: Array<[string, number]> = [
      ['China Standard Time', Date.UTC(2025, 4, 1, 0, 0, 0)],
      ['Nepal Standard Time', Date.UTC(2025, 4, 1, 2, 15, 0)], // +5:45
      ['Venezuela Standard Time', Date.UTC(2025, 4, 1, 12, 0, 0)], // −4:00 (Caracas since 2016)
      ['Afghanistan Standard Time', Date.UTC(2025, 4, 1, 3, 30, 0)], // +4:30
      ['Newfoundland Standard Time', Date.UTC(2025, 4, 1, 10, 30, 0)], // summer −2:30
      ['Dateline Standard Time', Date.UTC(2025, 4, 1, 20, 0, 0)], // −12
      ['Samoa Standard Time', Date.UTC(2025, 3, 30, 19, 0, 0)], // +13: the day before in UTC
      ['UTC', Date.UTC(2025, 4, 1, 8, 0, 0)],
    ];
    for (const [id, utc] of cases) {
      expect(wallClockToEpoch(wall, zone(id)), id).toBe(utc);
      expect(epochToWallClock(utc, zone(id)), id).toEqual(wall);
    }
  });

  it('crosses days, months and years in both directions', () => {
    const newYear = Date.UTC(2025, 0, 1, 0, 0, 0);
    expect(formatInTimeZone(newYear, zone('Hawaiian Standard Time'))).toBe('2024-12-31 14:00:00');
    expect(formatInTimeZone(newYear, zone('Nepal Standard Time'))).toBe('2025-01-01 05:45:00');
    expect(wallClockToEpoch({ year: 2024, month: 12, day: 31, hour: 14, minute: 0, second: 0 }, zone('Hawaiian Standard Time'))).toBe(newYear);
  });

  it('follows summer time where it changes: a skipped reading takes the offset before, a repeated one its first instant', () => {
    const newfoundland = zone('Newfoundland Standard Time');
    // 2026-11-01 02:00 NDT (−02:30) goes back to 01:00 NST (−03:30): 01:30 is read twice.
    expect(wallClockToEpoch({ year: 2026, month: 11, day: 1, hour: 1, minute: 30, second: 0 }, newfoundland)).toBe(Date.UTC(2026, 10, 1, 4, 0, 0));
    expect(epochToWallClock(Date.UTC(2026, 10, 1, 5, 0, 0), newfoundland)).toEqual({ year: 2026, month: 11, day: 1, hour: 1, minute: 30, second: 0 });
    // 2026-03-08 02:00 NST goes forward to 03:00 NDT: 02:30 is never read.
    expect(wallClockToEpoch({ year: 2026, month: 3, day: 8, hour: 2, minute: 30, second: 0 }, newfoundland)).toBe(Date.UTC(2026, 2, 8, 6, 0, 0));
    expect(formatInTimeZone(Date.UTC(2026, 2, 8, 5, 29, 0), newfoundland)).toBe('2026-03-08 01:59:00');
    expect(formatInTimeZone(Date.UTC(2026, 2, 8, 5, 30, 0), newfoundland)).toBe('2026-03-08 03:00:00');
  });

  it('round-trips every zone at every quarter hour of a day', () => {
    for (const z of TIME_ZONES) {
      for (let t = Date.UTC(2025, 1, 28); t < Date.UTC(2025, 2, 1); t += 15 * 60_000) {
        expect(wallClockToEpoch(epochToWallClock(t, z), z)).toBe(t);
      }
    }
  });

  it('parses typed times and refuses dates that do not exist', () => {
    expect(parseWallClock('2025-05-01 08:00')).toEqual(wall);
    expect(parseWallClock('2025-5-1 8:00:07')).toEqual({ ...wall, second: 7 });
    expect(parseWallClock('2025-02-30 08:00:00')).toBeUndefined();
    expect(parseWallClock('yesterday')).toBeUndefined();
  });
});

describe('pickers limited to now, in the chosen zone', () => {
  const now = { year: 2025, month: 5, day: 1, hour: 8, minute: 30, second: 15 };

  it('closes the days after today', () => {
    expect(isDayAfterNow({ year: 2025, month: 5, day: 2 }, now)).toBe(true);
    expect(isDayAfterNow({ year: 2025, month: 5, day: 1 }, now)).toBe(false);
    expect(isDayAfterNow({ year: 2025, month: 4, day: 30 }, now)).toBe(false);
  });

  it('closes the hours, minutes and seconds after now on today only', () => {
    const today = closedTimeParts(now, now);
    expect(today.hours).toEqual([9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23]);
    expect(today.minutes(7)).toEqual([]);
    expect(today.minutes(8)[0]).toBe(31);
    expect(today.seconds(8, 30)[0]).toBe(16);
    expect(today.seconds(8, 29)).toEqual([]);
    expect(closedTimeParts({ year: 2025, month: 4, day: 30 }, now).hours).toEqual([]);
    expect(closedTimeParts({ year: 2025, month: 5, day: 2 }, now).hours).toHaveLength(24);
  });
});

describe('ship zone and operator zone side by side', () => {
  it('shows one instant on the ship clock and the operator clock', () => {
    const t = Date.UTC(2025, 4, 1, 0, 0, 0);
    const both = sideBySide(t, 'Asia/Kolkata', 'Europe/Amsterdam');
    expect(both.ship).toEqual({ text: '2025-05-01 05:30:00', offset: 'UTC+05:30', zone: 'Asia/Kolkata' });
    expect(both.operator).toEqual({ text: '2025-05-01 02:00:00', offset: 'UTC+02:00', zone: 'Europe/Amsterdam' });
    // Winter in Amsterdam: the IANA zone knows its summer time.
    expect(formatInIanaZone(Date.UTC(2025, 0, 1), 'Europe/Amsterdam')?.offset).toBe('UTC+01:00');
  });

  it('leaves the ship side out for a missing or unknown zone', () => {
    expect(sideBySide(0, undefined, 'UTC').ship).toBeUndefined();
    expect(sideBySide(0, 'Mars/Olympus', 'UTC').ship).toBeUndefined();
    expect(sideBySide(0, undefined, 'UTC').operator.text).toBe('1970-01-01 00:00:00');
  });
});

describe('playback options', () => {
  const now = Date.UTC(2025, 4, 1, 12, 0, 0);
  const valid = (): PlaybackOptionsDraft => defaultPlaybackOptions(now, CONFIG);
  const check = (draft: PlaybackOptionsDraft, config: ShipConfig | null = CONFIG) => validatePlaybackOptions(draft, { now, config: config ?? undefined });

  it('defaults to the last 24 hours, 16× and the ship’s default template pair', () => {
    expect(valid()).toEqual({ timeZoneId: 'China Standard Time', start: now - DEFAULT_WINDOW_MS, end: now, speed: 16, template: [2, 6] });
    const result = check(valid());
    expect(result.ok).toBe(true);
  });

  it('offers the ship’s groups with models, and no default pair without a default group', () => {
    expect(templateGroups(CONFIG).map((g) => g.id)).toEqual([2]);
    expect(defaultTemplatePair(CONFIG)).toEqual([2, 6]);
    expect(defaultTemplatePair(NO_DEFAULT)).toBeUndefined();
    expect(defaultTemplatePair({ ...CONFIG, defaultGroupId: 3 })).toBeUndefined();
  });

  it('refuses times after now', () => {
    expect(check({ ...valid(), end: now + 1000 }).errors).toEqual({ end: 'endAfterNow' });
    expect(check({ ...valid(), start: now + 1000, end: now }).errors).toEqual({ start: 'startAfterNow', end: 'endBeforeStart' });
  });

  it('refuses an end before the start, and an empty range', () => {
    expect(check({ ...valid(), start: now - 1000, end: now - 2000 }).errors).toEqual({ end: 'endBeforeStart' });
    expect(check({ ...valid(), start: now - 1000, end: now - 1000 }).errors).toEqual({ end: 'emptyRange' });
    expect(check({ ...valid(), start: now - 8 * 86_400_000, end: now }).errors).toEqual({ end: 'rangeTooLong' });
    expect(check({ ...valid(), start: now - 7 * 86_400_000, end: now }).ok).toBe(true);
  });

  it('asks for every field', () => {
    const result = check({ timeZoneId: undefined, start: undefined, end: undefined, speed: undefined, template: undefined });
    expect(result.errors).toEqual({ timeZone: 'timeZoneRequired', start: 'startRequired', end: 'endRequired', speed: 'speedRequired', template: 'templateRequired' });
    expect(check({ ...valid(), speed: 3 }).errors).toEqual({ speed: 'speedRequired' });
  });

  it('offers the speeds 16, 8, 4, 2, 1', () => {
    for (const speed of [16, 8, 4, 2, 1]) expect(check({ ...valid(), speed }).ok).toBe(true);
  });

  it('does not start without a default template, whatever pair is chosen', () => {
    expect(defaultPlaybackOptions(now, NO_DEFAULT).template).toBeUndefined();
    expect(check({ ...valid(), template: [2, 5] }, NO_DEFAULT)).toEqual({ ok: false, errors: { template: 'noDefaultTemplate' } });
  });

  it('refuses a pair the ship does not have', () => {
    expect(check({ ...valid(), template: [2, 99] }).errors).toEqual({ template: 'templateUnknown' });
  });

  it('lets the server decide the template when the config could not be read', () => {
    const result = check({ ...valid(), template: undefined }, null);
    expect(result.ok).toBe(true);
    if (result.ok) expect(toPlaybackCommand('S1001-C01-1', result.options)).not.toHaveProperty('templateId');
  });

  it('builds the media socket command from valid options', () => {
    const result = check({ ...valid(), speed: 4, template: [2, 5] });
    if (!result.ok) throw new Error('expected valid');
    expect(toPlaybackCommand('S1001-C01-1', result.options)).toEqual({
      type: 'play',
      mode: 'shipPlayback',
      cameraId: 'S1001-C01-1',
      templateId: 5,
      start: now - DEFAULT_WINDOW_MS,
      end: now,
      speed: 4,
      timeZone: 'China Standard Time',
    });
  });
});
