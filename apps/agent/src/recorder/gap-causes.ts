import { type RecordedSpan, clipSpans, normalizeSpans, subtractSpans } from '@ship-cctv/protocol';

/** The causes the ship's recorder gives its own gaps. */
export type ShipGapCause = 'agentStopped' | 'retention' | 'diskFull' | 'cameraSilent' | 'unknown';

export interface ShipGap {
  start: number;
  end: number;
  cause: ShipGapCause;
}

/** What the ship knows about why a camera's recording holds nothing at times. */
export interface ShipGapFacts {
  /** The periods the agent ran (run-log.ts). */
  runs: readonly RecordedSpan[];
  /** The agent's first run in this data directory: before it nothing is known. */
  firstStart: number | undefined;
  /** Everything before this was deleted for its age (now − the days kept). */
  retentionHorizon: number;
  /** Recordings of the camera up to here were deleted early to make room on the disk. */
  diskFullUntil: number | undefined;
  /** Periods the camera sent nothing (or was reported not answering) while the agent ran. */
  silences: readonly RecordedSpan[];
}

/**
 * The ship recorder's gaps in [start, end), each piece with its cause — first the cause that rules
 * out the others: the agent was not running; older than the recorder keeps; deleted to make room
 * on a full disk; the camera sent nothing; else unknown. Touching pieces of one cause are joined.
 */
export function shipGaps(recorded: readonly RecordedSpan[], start: number, end: number, facts: ShipGapFacts): ShipGap[] {
  if (end <= start) return [];
  let rest = subtractSpans([{ start, end }], recorded);
  const out: ShipGap[] = [];
  const take = (where: readonly RecordedSpan[], cause: ShipGapCause) => {
    const hit = rest.flatMap((r) => clipSpans(where, r.start, r.end));
    for (const s of hit) out.push({ ...s, cause });
    rest = subtractSpans(rest, hit);
  };
  if (facts.firstStart !== undefined) {
    // Not running: after the first start, outside every run period.
    take(subtractSpans([{ start: facts.firstStart, end }], facts.runs), 'agentStopped');
  }
  take([{ start, end: facts.retentionHorizon }], 'retention');
  if (facts.diskFullUntil !== undefined) take([{ start, end: facts.diskFullUntil }], 'diskFull');
  take(normalizeSpans(facts.silences), 'cameraSilent');
  for (const s of rest) out.push({ ...s, cause: 'unknown' });
  return joinGaps(out);
}

/** Sorted by start, touching pieces of the same cause joined. */
export function joinGaps<T extends { start: number; end: number; cause: string }>(gaps: readonly T[]): T[] {
  const sorted = gaps.filter((g) => g.end > g.start).sort((a, b) => a.start - b.start);
  const out: T[] = [];
  for (const g of sorted) {
    const last = out.at(-1);
    if (last && last.cause === g.cause && g.start <= last.end) last.end = Math.max(last.end, g.end);
    else out.push({ ...g });
  }
  return out;
}
