import type { RecordConfig } from '@ship-cctv/protocol';

const DAY_MS = 86_400_000;

/**
 * Whether a recording configuration asks for recording at `now`: an enabled continuous one always,
 * an enabled scheduled one inside one of its daily windows [from, to) (minutes after midnight UTC;
 * a window with to < from runs over midnight).
 */
export function isConfigActive(config: Pick<RecordConfig, 'mode' | 'schedule' | 'enabled'>, now: number): boolean {
  if (!config.enabled) return false;
  if (config.mode === 'continuous') return true;
  const minute = Math.floor((((now % DAY_MS) + DAY_MS) % DAY_MS) / 60_000);
  return config.schedule.some(({ from, to }) => (from <= to ? minute >= from && minute < to : minute >= from || minute < to));
}
