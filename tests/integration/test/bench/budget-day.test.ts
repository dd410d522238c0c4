import { describe, expect, it } from 'vitest';
import { type MeasuredRates, type ViewWindow, FLUSH_MS, gridFor, linkTimeline, policyOn, shipClock, simulateShipDay, viewBytesPerSecond, viewKindFor } from '../../bench/budget-day.ts';
import { PROFILES, demoScheduleFor } from '@ship-cctv/simulator';

const MIN = 60_000;
const rates: MeasuredRates = { perCamera: { lowest: 10_000, standard: 50_000 }, fbbCarried: 40_000, stillBytes: 30_000, stillsEverySeconds: 30 };
/** 2026-11-27 00:00 in Singapore (UTC+8) is 2026-11-26 16:00 UTC; `dayOf` any instant of the 26th there. */
const SG_MIDNIGHT = Date.UTC(2026, 10, 26, 16);
const vsatAllDay = [{ from: SG_MIDNIGHT - MIN, to: SG_MIDNIGHT + 25 * 60 * MIN, profile: 'VSAT' as const }];
/** Six 10-minute windows from 09:00, one after another with a minute between. */
const rounds: ViewWindow[] = Array.from({ length: 6 }, (_, i) => ({ fromMinute: 9 * 60 + i * 11, toMinute: 9 * 60 + i * 11 + 10 }));

describe('link timeline of a demo schedule', () => {
  it('follows the phases of the schedule, back to back, over the whole span', () => {
    const phases = [
      { profile: PROFILES.FBB, durationMs: 10 * MIN },
      { profile: PROFILES.VSAT, durationMs: 5 * MIN },
    ];
    const segs = linkTimeline({ phases, seed: 1 }, 1_000, 32 * MIN);
    expect(segs.map((s) => [s.profile, s.from - 1_000, s.to - 1_000])).toEqual([
      ['FBB', 0, 10 * MIN],
      ['VSAT', 10 * MIN, 15 * MIN],
      ['FBB', 15 * MIN, 25 * MIN],
      ['VSAT', 25 * MIN, 30 * MIN],
      ['FBB', 30 * MIN, 32 * MIN],
    ]);
  });

  it('gives the Iridium ship its outages, and the same ones for the same seed', () => {
    const a = linkTimeline(demoScheduleFor(3), 0, 24 * 60 * MIN);
    const b = linkTimeline(demoScheduleFor(3), 0, 24 * 60 * MIN);
    expect(a).toEqual(b);
    expect(a.filter((s) => s.profile === 'OFFLINE').length).toBeGreaterThan(10);
    expect(new Set(a.map((s) => s.profile))).toEqual(new Set(['IRIDIUM', 'FBB', 'OFFLINE']));
    for (let i = 1; i < a.length; i++) expect(a[i]?.from).toBe(a[i - 1]?.to);
    expect(a[a.length - 1]?.to).toBe(24 * 60 * MIN);
  });
});

describe('what a grid view costs and gets', () => {
  it('fits cameras into the smallest grid and refuses nonsense', () => {
    expect([1, 2, 4, 5, 9, 16].map(gridFor)).toEqual([1, 4, 4, 9, 9, 16]);
    expect(() => gridFor(0)).toThrow(/whole number/);
    expect(() => gridFor(17)).toThrow(/16-cell/);
  });

  it('takes the link policy (FBB: lowest in every grid; VSAT: standard in a 4-cell grid) unless the budget narrows it', () => {
    expect(viewKindFor('FBB', 16, 'normal')).toBe('lowest');
    expect(viewKindFor('FBB', 4, 'normal')).toBe('lowest');
    expect(viewKindFor('VSAT', 4, 'normal')).toBe('standard');
    expect(viewKindFor('VSAT', 6, 'normal')).toBe('lowest');
    expect(viewKindFor('VSAT', 4, 'lowest')).toBe('lowest');
    expect(viewKindFor('VSAT', 4, 'stills')).toBe('stills');
    expect(viewKindFor('VSAT', 4, 'block')).toBe('refused');
  });

  it('bounds a view by what the link carries, scaled from FBB', () => {
    expect(viewBytesPerSecond(rates, 'FOURTHG', 'standard', 16)).toBe(16 * 50_000);
    expect(viewBytesPerSecond(rates, 'FBB', 'standard', 16)).toBe(40_000);
    expect(viewBytesPerSecond(rates, 'IRIDIUM', 'lowest', 16)).toBe(35_000);
    expect(viewBytesPerSecond(rates, 'FBB', 'stills', 16)).toBe(16_000);
    expect(viewBytesPerSecond(rates, 'OFFLINE', 'lowest', 4)).toBe(0);
  });
});

describe('a ship day against a live cap', () => {
  // Four cameras over VSAT at the standard definition: 200 kB/s, 120 MB per 10-minute round.
  const base = { timeZone: 'Asia/Singapore', dayOf: SG_MIDNIGHT - 3_600_000, cameras: 4, links: vsatAllDay, rates, pattern: rounds, capMb: 300 };

  it('runs the ship-local day and notices at 80 % and 100 % as the server sends them', () => {
    const day = simulateShipDay({ ...base, policy: 'lowest' });
    expect(day.dayStart).toBe(SG_MIDNIGHT);
    expect(day.dayEnd - day.dayStart).toBe(24 * 60 * MIN);
    // 240 MB (80 %) after 20 minutes of watching: 09:11 + 10 min = 09:21; 300 MB 5 minutes into the third round.
    expect(day.notices.map((n) => [n.level, shipClock(n.at, 'Asia/Singapore')])).toEqual([
      [80, '09:21'],
      [100, '09:27'],
    ]);
    expect(day.notices[1]?.usedBytes).toBeGreaterThanOrEqual(300e6);
    // The third round goes on at the standard; the three after it start at the lowest (40 kB/s: 24 MB each).
    expect(day.policyFrom).toBe(SG_MIDNIGHT + (9 * 60 + 33) * MIN);
    expect(day.views).toBe(6);
    expect(day.narrowed).toBe(3);
    expect(day.liveBytes).toBe(3 * 120e6 + 3 * 24e6);
    expect(day.pictureBytes).toBe(0);
  });

  it('without a budget policy nothing is narrowed and no notice goes', () => {
    const day = simulateShipDay({ ...base, policy: null });
    expect(day.notices).toEqual([]);
    expect(day.policyFrom).toBeUndefined();
    expect(day.liveBytes).toBe(6 * 120e6);
  });

  it('stills move the new views to pictures, which the live cap does not count', () => {
    const day = simulateShipDay({ ...base, policy: 'stills' });
    expect(day.liveBytes).toBe(3 * 120e6);
    // 4 cameras × 30 kB every 30 s for 30 minutes.
    expect(day.pictureBytes).toBe(3 * 10 * 60 * 4_000);
    expect(day.narrowed).toBe(3);
  });

  it('block refuses new views once the cap is reached', () => {
    const day = simulateShipDay({ ...base, policy: 'block' });
    expect(day.refused).toBe(3);
    expect(day.liveBytes).toBe(3 * 120e6);
  });

  it('`link`: the policy of the link the ship is on — lowest over VSAT, pictures once it is on FBB', () => {
    const at = (minute: number) => SG_MIDNIGHT + minute * MIN;
    // VSAT until 09:43 (the fourth round's end), FBB after.
    const links = [
      { from: at(-60), to: at(9 * 60 + 43), profile: 'VSAT' as const },
      { from: at(9 * 60 + 43), to: at(25 * 60), profile: 'FBB' as const },
    ];
    const day = simulateShipDay({ ...base, links, policy: 'link' });
    expect(policyOn('link', 'VSAT')).toBe('lowest');
    expect(policyOn('link', 'FBB')).toBe('stills');
    expect(policyOn('block', 'FBB')).toBe('block');
    expect(day.narrowed).toBe(3);
    // Three rounds at the standard, the fourth at the lowest (VSAT), the last two as stills (FBB).
    expect(day.liveBytes).toBe(3 * 120e6 + 24e6);
    expect(day.pictureBytes).toBe(2 * 10 * 60 * 4_000);
  });

  it('asks again when the link changes under a view, and counts nothing while the link is down', () => {
    const at = (minute: number) => SG_MIDNIGHT + minute * MIN;
    const links = [
      { from: at(-60), to: at(9 * 60 + 5), profile: 'VSAT' as const },
      { from: at(9 * 60 + 5), to: at(9 * 60 + 7), profile: 'OFFLINE' as const },
      { from: at(9 * 60 + 7), to: at(25 * 60), profile: 'FBB' as const },
    ];
    const day = simulateShipDay({ ...base, links, pattern: [{ fromMinute: 9 * 60, toMinute: 9 * 60 + 10 }], capMb: null, policy: null });
    expect(day.views).toBe(2);
    expect(day.offlineViewingMinutes).toBe(2);
    // 5 minutes of VSAT standard (200 kB/s), 3 of FBB lowest (bounded at 40 kB/s).
    expect(day.liveBytes).toBe(5 * 60 * 200_000 + 3 * 60 * 40_000);
  });

  it('keeps the pattern on the ship clock across a daylight-saving change (a 25-hour day)', () => {
    // Europe/Amsterdam leaves summer time on 2026-10-25: that day has 25 hours.
    const dayOf = Date.UTC(2026, 9, 24, 12);
    const links = [{ from: Date.UTC(2026, 9, 24), to: Date.UTC(2026, 9, 27), profile: 'VSAT' as const }];
    const day = simulateShipDay({ ...base, timeZone: 'Europe/Amsterdam', dayOf, links, capMb: null, policy: null });
    expect(day.dayEnd - day.dayStart).toBe(25 * 60 * MIN);
    expect(day.liveBytes).toBe(6 * 120e6);
    expect(FLUSH_MS).toBe(5_000);
  });
});
