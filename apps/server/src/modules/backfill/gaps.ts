/** A span of time, epoch ms [start, end). */
export interface Span {
  start: number;
  end: number;
}

/** What finding gaps needs of a recording of one camera. */
export interface RecordedRun extends Span {
  /** It ended because its last viewer left: what follows it is no gap (the recorder records only what is watched). */
  endedUnwatched: boolean;
}

/**
 * The gaps in one camera's shore recording worth refilling from the ship: the time between two of
 * its recordings (any overlap merged) when the earlier one was cut short — link down, a held
 * budget, a shore instance gone — rather than ended because nobody watched, and the gap is at
 * least `minGapMs` (the seam between two recordings is no gap) and at most `maxGapMs`. Nothing
 * after the last recording: a gap has two ends. Oldest first.
 */
export function refillableGaps(runs: readonly RecordedRun[], opts: { minGapMs: number; maxGapMs: number }): Span[] {
  const sorted = [...runs].sort((a, b) => a.start - b.start || a.end - b.end);
  const gaps: Span[] = [];
  let covered: { end: number; endedUnwatched: boolean } | undefined;
  for (const run of sorted) {
    if (!covered) {
      covered = { end: run.end, endedUnwatched: run.endedUnwatched };
      continue;
    }
    const gap = run.start - covered.end;
    if (gap >= opts.minGapMs && gap <= opts.maxGapMs && !covered.endedUnwatched) gaps.push({ start: covered.end, end: run.start });
    if (run.end > covered.end) covered = { end: run.end, endedUnwatched: run.endedUnwatched };
    else if (run.end === covered.end) covered = { end: covered.end, endedUnwatched: covered.endedUnwatched && run.endedUnwatched };
  }
  return gaps;
}

/** The files that together cover what of `gap` they can: those overlapping it, oldest first. */
export function filesForGap<F extends Span>(files: readonly F[], gap: Span): F[] {
  return files.filter((f) => f.end > gap.start && f.start < gap.end).sort((a, b) => a.start - b.start);
}
