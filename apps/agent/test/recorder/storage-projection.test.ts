import { describe, expect, it } from 'vitest';
import { DAY_MS, allowedBytes, bytesPerDay, projectStorage } from '../../src/recorder/storage-projection.ts';

const GB = 1_000_000_000;
const NOW = Date.UTC(2026, 10, 29, 12);

describe('the storage projection of the ship recorder', () => {
  it('measures each camera over the wall-clock time since its first recent file, and sums the cameras', () => {
    // 10 GB over the last whole day, and 1 GB over the last 6 hours (a camera added since): 14 GB a day.
    expect(bytesPerDay([{ bytes: 10 * GB, from: NOW - DAY_MS }, { bytes: GB, from: NOW - DAY_MS / 4 }], NOW)).toBeCloseTo(14 * GB, -3);
    // A camera that wrote nothing lately adds nothing.
    expect(bytesPerDay([undefined, { bytes: 0, from: NOW - DAY_MS }], NOW)).toBe(0);
  });

  it('allows the configured limit, or less when the filesystem has less to give (less the margin kept free)', () => {
    expect(allowedBytes({ maxBytes: 500 * GB, usedBytes: 100 * GB, freeBytes: 900 * GB, minFreeBytes: GB })).toBe(500 * GB);
    expect(allowedBytes({ maxBytes: 500 * GB, usedBytes: 100 * GB, freeBytes: 200 * GB, minFreeBytes: GB })).toBe(299 * GB);
    // The disk is nearly full: the recordings must shrink below what they use now.
    expect(allowedBytes({ maxBytes: 500 * GB, usedBytes: 100 * GB, freeBytes: GB / 2, minFreeBytes: GB })).toBe(99.5 * GB);
    // Free space unknown: only the limit.
    expect(allowedBytes({ maxBytes: 500 * GB, usedBytes: 100 * GB, freeBytes: undefined, minFreeBytes: GB })).toBe(500 * GB);
  });

  it('says 90 days fit when the disk holds them at the recent rate', () => {
    const storage = projectStorage({ keepDays: 90, maxBytes: 2_000 * GB, usedBytes: 300 * GB, freeBytes: 3_000 * GB, minFreeBytes: GB, recent: [{ bytes: 20 * GB, from: NOW - DAY_MS }], now: NOW });
    expect(storage).toEqual({ keepDays: 90, holdsDays: 100, short: false, allowedBytes: 2_000 * GB, usedBytes: 300 * GB, bytesPerDay: 20 * GB, freeBytes: 3_000 * GB });
  });

  it('warns when the disk given cannot hold the days asked, whichever of the limit and the free space is smaller', () => {
    const byLimit = projectStorage({ keepDays: 90, maxBytes: 1_000 * GB, usedBytes: 300 * GB, freeBytes: 3_000 * GB, minFreeBytes: GB, recent: [{ bytes: 20 * GB, from: NOW - DAY_MS }], now: NOW });
    expect(byLimit).toMatchObject({ holdsDays: 50, short: true, allowedBytes: 1_000 * GB });
    // The limit would hold 100 days, but the filesystem has only 600 GB more to give (one kept free).
    const byDisk = projectStorage({ keepDays: 90, maxBytes: 2_000 * GB, usedBytes: 300 * GB, freeBytes: 601 * GB, minFreeBytes: GB, recent: [{ bytes: 20 * GB, from: NOW - DAY_MS }], now: NOW });
    expect(byDisk).toMatchObject({ holdsDays: 45, short: true, allowedBytes: 900 * GB });
  });

  it('projects nothing before anything was recorded lately', () => {
    const storage = projectStorage({ keepDays: 90, maxBytes: 10 * GB, usedBytes: 0, freeBytes: 50 * GB, minFreeBytes: GB, recent: [undefined, undefined], now: NOW });
    expect(storage).toMatchObject({ holdsDays: null, short: false, bytesPerDay: 0 });
  });
});
