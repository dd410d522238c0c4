import { type GapCause, type RecordedSpan, type RecordingGap, subtractSpans } from '@ship-cctv/protocol';

/** What the shore knows of one camera over a span, to say why its recording holds nothing at times. */
export interface ShoreGapFacts {
  /** The ship's link was down. */
  linkDown: readonly RecordedSpan[];
  /** The ship was connected but the camera sent nothing or was reported offline. */
  cameraSilent: readonly RecordedSpan[];
  /** A data budget held the ship's live video. */
  budgetHeld: readonly RecordedSpan[];
  /** Times the ship holds and that are on their way to shore (backfill). */
  backfillPending: readonly RecordedSpan[];
  /** What the ship's own recorder holds, as far as shore knows without asking (undefined: nothing known). */
  ship?: { covered: readonly RecordedSpan[]; spans: readonly RecordedSpan[] } | undefined;
  /** Everything before this is older than the shore keeps (or was deleted by its retention). */
  retentionBefore: number | undefined;
}

/** Shorter gaps than this are not gaps (segment boundaries, a definition change). */
export const MIN_GAP_MS = 1_000;

/** The parts of `a` that lie inside `b`. */
function intersect(a: readonly RecordedSpan[], b: readonly RecordedSpan[]): RecordedSpan[] {
  return subtractSpans(a, subtractSpans(a, b));
}

/**
 * The gaps of a camera's shore recording inside [start, end): the times no recording covers,
 * gaps shorter than MIN_GAP_MS left out, each cut into pieces by cause. Where several facts hold,
 * the one that tells the operator most wins: backfill pending (the video is coming), camera silent
 * (there was no video), nothing on the ship either (it is lost), link down, budget held, retention
 * (older than the shore keeps); else unknown.
 */
export function shoreGaps(recorded: readonly RecordedSpan[], start: number, end: number, facts: ShoreGapFacts): RecordingGap[] {
  if (end <= start) return [];
  const holes = subtractSpans([{ start, end }], recorded).filter((h) => h.end - h.start >= MIN_GAP_MS);
  let rest = holes;
  const out: RecordingGap[] = [];
  const take = (where: readonly RecordedSpan[], cause: GapCause) => {
    const hit = intersect(rest, where);
    for (const s of hit) out.push({ ...s, cause });
    rest = subtractSpans(rest, hit);
  };
  take(facts.backfillPending, 'backfillPending');
  take(facts.cameraSilent, 'cameraSilent');
  if (facts.ship) take(subtractSpans(facts.ship.covered, facts.ship.spans), 'nothingOnShip');
  take(facts.linkDown, 'linkDown');
  take(facts.budgetHeld, 'budgetHeld');
  if (facts.retentionBefore !== undefined) take([{ start, end: facts.retentionBefore }], 'retention');
  for (const s of rest) out.push({ ...s, cause: 'unknown' });
  return joinGaps(out);
}

/** Sorted by start, touching pieces of one cause joined. */
export function joinGaps(gaps: readonly RecordingGap[]): RecordingGap[] {
  const sorted = gaps.filter((g) => g.end > g.start).sort((a, b) => a.start - b.start);
  const out: RecordingGap[] = [];
  for (const g of sorted) {
    const last = out.at(-1);
    if (last && last.cause === g.cause && g.start <= last.end) last.end = Math.max(last.end, g.end);
    else out.push({ ...g });
  }
  return out;
}
