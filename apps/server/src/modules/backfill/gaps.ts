/** A span of time, epoch ms [start, end). */
export interface Span {
  start: number;
  end: number;
}

/** What finding gaps needs of a recording of one camera. */
export interface RecordedRun extends Span {
  /** It ended because its last viewer left: what follows it is no gap (the recorder records only what is watched). */
  endedUnwatched: boolean;
  /** Copied from the ship (backfill): what is left of a gap after it is refilled however short (seamMs). */
  backfilled: boolean;
}

/**
 * The gaps in one camera's shore recording worth refilling from the ship: the time between two of
 * its recordings (any overlap merged) when the earlier one was cut short — link down, a held
 * budget, a shore instance gone — rather than ended because nobody watched, and the gap is at
 * least `minGapMs` (the seam between two recordings is no gap) and at most `maxGapMs`. What is
 * left after a backfilled recording (the ship had not finished the file for the rest yet) counts
 * from `seamMs`. Nothing after the last recording: a gap has two ends. Oldest first.
 */
export function refillableGaps(runs: readonly RecordedRun[], opts: { minGapMs: number; maxGapMs: number; seamMs: number }): Span[] {
  const sorted = [...runs].sort((a, b) => a.start - b.start || a.end - b.end);
  const gaps: Span[] = [];
  let covered: RecordedRun | undefined;
  for (const run of sorted) {
    if (!covered) {
      covered = run;
      continue;
    }
    const gap = run.start - covered.end;
    const min = covered.backfilled ? opts.seamMs : opts.minGapMs;
    if (gap >= min && gap <= opts.maxGapMs && !covered.endedUnwatched) gaps.push({ start: covered.end, end: run.start });
    // The run reaching furthest decides what follows (of two ending together, a cut-short one).
    if (run.end > covered.end || (run.end === covered.end && !run.endedUnwatched)) covered = run;
  }
  return gaps;
}

/** The files that together cover what of `gap` they can: those overlapping it, oldest first. */
export function filesForGap<F extends Span>(files: readonly F[], gap: Span): F[] {
  return files.filter((f) => f.end > gap.start && f.start < gap.end).sort((a, b) => a.start - b.start);
}
