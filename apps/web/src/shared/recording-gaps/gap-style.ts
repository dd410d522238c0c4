import type { GapCause } from '@ship-cctv/protocol';

/**
 * How each cause of a gap looks on a timeline: a colour and a hatch, so that causes stay apart
 * without colour alone (the pattern differs between causes that would otherwise look alike).
 */
const COLOURS: Record<GapCause, string> = {
  linkDown: '#d4380d',
  cameraSilent: '#d48806',
  nothingOnShip: '#595959',
  budgetHeld: '#722ed1',
  retention: '#8c8c8c',
  backfillPending: '#1677ff',
  diskFull: '#c41d7f',
  agentStopped: '#a8071a',
  unknown: '#bfbfbf',
};

export function gapColour(cause: GapCause): string {
  return COLOURS[cause];
}

/** A band's background: stripes of the cause's colour (a gap is an absence, not a recording). */
export function gapBackground(cause: GapCause): string {
  const c = COLOURS[cause];
  return `repeating-linear-gradient(135deg, ${c} 0 3px, transparent 3px 6px)`;
}

/** Fractions [from, to) of a range that each gap covers, clipped to it, in order. */
export function gapFractions<T extends { start: number; end: number; cause: GapCause }>(gaps: readonly T[], range: { start: number; end: number }): { from: number; to: number; gap: T }[] {
  const length = range.end - range.start;
  if (length <= 0) return [];
  return [...gaps]
    .sort((a, b) => a.start - b.start)
    .map((gap) => ({ from: (Math.max(gap.start, range.start) - range.start) / length, to: (Math.min(gap.end, range.end) - range.start) / length, gap }))
    .filter((f) => f.to > f.from);
}

/** The causes present, in the order of the protocol's list (for a legend that shows only what is on screen). */
export function causesIn(gaps: readonly { cause: GapCause }[], order: readonly GapCause[]): GapCause[] {
  const present = new Set(gaps.map((g) => g.cause));
  return order.filter((c) => present.has(c));
}
