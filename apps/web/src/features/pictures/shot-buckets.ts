import { SHOT_STATES, type TaskShot } from '@ship-cctv/protocol';

type ShotState = TaskShot['state'];

/** The shots of a task planned in one stretch of its window, counted by state. */
export interface ShotBucket {
  from: number;
  to: number;
  counts: Record<ShotState, number>;
  total: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The stretches a timeline may use, shortest first. */
export const BUCKET_SIZES = [MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 7 * DAY] as const;
/** Most bars on a timeline: each stays wide enough to point at (and its tooltip reachable). */
export const MAX_BUCKETS = 48;

/** The shortest stretch that covers the window in at most `max` bars. */
export function bucketSize(span: number, max = MAX_BUCKETS): number {
  return BUCKET_SIZES.find((size) => Math.ceil(span / size) <= max) ?? Math.ceil(span / max / DAY) * DAY;
}

/**
 * A task's shots in bars of one size over its window [start, end): only the bars that hold a shot,
 * in time order. 1,196 shots of a 20-hour task are 40 bars of 30 minutes, not 1,196 dots on
 * one another.
 */
export function shotBuckets(shots: readonly TaskShot[], start: number, end: number, max = MAX_BUCKETS): { size: number; buckets: ShotBucket[] } {
  const span = Math.max(1, end - start);
  const size = bucketSize(span, max);
  const count = Math.max(1, Math.ceil(span / size));
  const byIndex = new Map<number, ShotBucket>();
  for (const shot of shots) {
    const index = Math.min(count - 1, Math.max(0, Math.floor((shot.plannedAt - start) / size)));
    let bucket = byIndex.get(index);
    if (!bucket) {
      const from = start + index * size;
      bucket = { from, to: Math.min(end, from + size), counts: Object.fromEntries(SHOT_STATES.map((s) => [s, 0])) as Record<ShotState, number>, total: 0 };
      byIndex.set(index, bucket);
    }
    bucket.counts[shot.state] += 1;
    bucket.total += 1;
  }
  return { size, buckets: [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, b]) => b) };
}

/** A stretch's length in its unit, for "每格 30 分钟" / "Each bar: 30 minutes". */
export function sizeUnit(size: number): { unit: 'minutes' | 'hours' | 'days'; count: number } {
  if (size >= DAY && size % DAY === 0) return { unit: 'days', count: size / DAY };
  if (size >= HOUR && size % HOUR === 0) return { unit: 'hours', count: size / HOUR };
  return { unit: 'minutes', count: Math.round(size / MINUTE) };
}

/**
 * A task's rate (hours per picture) in the unit that reads naturally: seconds under a minute,
 * minutes under an hour, else hours; at most one decimal in seconds and minutes, two in hours.
 */
export function rateUnit(rateHours: number): { unit: 'seconds' | 'minutes' | 'hours'; count: number } {
  const seconds = rateHours * 3600;
  if (seconds < 60) return { unit: 'seconds', count: Math.round(seconds * 10) / 10 };
  if (seconds < 3600) return { unit: 'minutes', count: Math.round((seconds / 60) * 10) / 10 };
  return { unit: 'hours', count: Math.round(rateHours * 100) / 100 };
}
