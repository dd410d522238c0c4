import type { RecorderStorage } from '@ship-cctv/protocol';

export const DAY_MS = 24 * 3_600_000;

/** What one camera's recording wrote lately: the bytes of its files that began at or after `from`. */
export interface RecentWrites {
  bytes: number;
  /** Start of the first of those files (epoch ms). */
  from: number;
}

export interface StorageFigures {
  /** Days asked (the age limit). */
  keepDays: number;
  /** The configured limit on all recordings together. */
  maxBytes: number;
  /** What the recordings take now. */
  usedBytes: number;
  /** Free bytes on the recordings' filesystem; undefined: not known (only maxBytes limits). */
  freeBytes: number | undefined;
  /** Bytes kept free on the filesystem whatever the limits say (the recorder deletes to keep them). */
  minFreeBytes: number;
  /** Each camera's recent writes (undefined: nothing recorded lately). */
  recent: readonly (RecentWrites | undefined)[];
  now: number;
}

/**
 * The rate the cameras are being recorded at, in bytes a day: each camera's bytes over the wall-clock
 * time from its first recent file to now (a camera silent part of that time counts as it wrote), summed.
 */
export function bytesPerDay(recent: readonly (RecentWrites | undefined)[], now: number): number {
  let rate = 0;
  for (const r of recent) {
    if (!r || r.bytes <= 0) continue;
    const span = Math.max(now - r.from, 1_000);
    rate += (r.bytes * DAY_MS) / span;
  }
  return rate;
}

/** The bytes the recordings may take: the configured limit, or less when the filesystem has less to give. */
export function allowedBytes(f: Pick<StorageFigures, 'maxBytes' | 'usedBytes' | 'freeBytes' | 'minFreeBytes'>): number {
  if (f.freeBytes === undefined) return f.maxBytes;
  return Math.max(0, Math.min(f.maxBytes, f.usedBytes + f.freeBytes - f.minFreeBytes));
}

/**
 * How many days the recorder can hold: the bytes allowed over the recent rate, and whether that
 * falls short of the days asked. Without a rate (nothing recorded lately) nothing is projected.
 */
export function projectStorage(f: StorageFigures): RecorderStorage {
  const allowed = allowedBytes(f);
  const rate = bytesPerDay(f.recent, f.now);
  const days = rate > 0 ? allowed / rate : undefined;
  return {
    keepDays: f.keepDays,
    holdsDays: days === undefined ? null : Math.round(days * 100) / 100,
    short: days !== undefined && days < f.keepDays,
    allowedBytes: Math.floor(allowed),
    usedBytes: Math.floor(f.usedBytes),
    bytesPerDay: Math.round(rate),
    ...(f.freeBytes !== undefined ? { freeBytes: Math.floor(f.freeBytes) } : {}),
  };
}
