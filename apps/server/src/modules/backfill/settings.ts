/** Settings of backfill; each has an environment variable (see the root README). */
export interface BackfillSettings {
  /** Backfill runs at all on this server (BACKFILL=off turns it off; default on). */
  enabled: boolean;
  /** How often the ships whose link this instance holds are looked at for gaps (BACKFILL_EVERY_SECONDS, default 60). */
  everyMs: number;
  /** After a ship's link returns, its first look waits this long, so its live recordings start again and close their gaps (ms). */
  afterOnlineMs: number;
  /** How far back gaps are looked for (BACKFILL_LOOKBACK_HOURS, default 24). */
  lookbackMs: number;
  /** Shorter gaps are left (BACKFILL_MIN_GAP_SECONDS, default 3): the seam between two recordings is not a gap. */
  minGapMs: number;
  /** What is left of a gap after a refill (the ship still writing the file for it) counts from this (ms). */
  seamMs: number;
  /**
   * A gap that ended this recently may still get files (the ship closes its segment file for the
   * gap's end later: 60 s files by default), so the ship having nothing (yet) is asked again (ms).
   */
  settleMs: number;
  /** Longer gaps are left (BACKFILL_MAX_GAP_HOURS, default 6): a day without viewers is no outage to refill. */
  maxGapMs: number;
  /** Megabytes a ship may spend on backfill a day when its data budget names no backfill cap (BACKFILL_DAY_MB, default 200; 0: none). */
  defaultDayMb: number | null;
  /** How long the ship has to answer which files it has (ms). */
  askTimeoutMs: number;
  /**
   * How long one file may take to cross (ms): long, since backfill gets only what the uplink
   * carries beside everything else (a 60 s file beside live video on FleetBroadband takes minutes);
   * a link that goes fails the fetch at once anyway.
   */
  fetchTimeoutMs: number;
  /** A gap the ship had nothing for is not asked about again for this long (ms). */
  retryMs: number;
}

function number(value: string | undefined, fallback: number, name: string, min = 0): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number of at least ${min}, got "${value}"`);
  return n;
}

export function readBackfillSettings(env: NodeJS.ProcessEnv): BackfillSettings {
  const dayMb = number(env.BACKFILL_DAY_MB, 200, 'BACKFILL_DAY_MB');
  return {
    enabled: !['off', 'false', '0', 'no'].includes((env.BACKFILL ?? '').toLowerCase()),
    everyMs: number(env.BACKFILL_EVERY_SECONDS, 60, 'BACKFILL_EVERY_SECONDS', 1) * 1000,
    afterOnlineMs: 15_000,
    lookbackMs: number(env.BACKFILL_LOOKBACK_HOURS, 24, 'BACKFILL_LOOKBACK_HOURS') * 3_600_000,
    minGapMs: number(env.BACKFILL_MIN_GAP_SECONDS, 3, 'BACKFILL_MIN_GAP_SECONDS') * 1000,
    seamMs: 250,
    settleMs: 5 * 60_000,
    maxGapMs: number(env.BACKFILL_MAX_GAP_HOURS, 6, 'BACKFILL_MAX_GAP_HOURS') * 3_600_000,
    defaultDayMb: dayMb === 0 ? null : dayMb,
    askTimeoutMs: 60_000,
    fetchTimeoutMs: 30 * 60_000,
    retryMs: 15 * 60_000,
  };
}
