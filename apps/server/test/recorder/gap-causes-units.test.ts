import { describe, expect, it } from 'vitest';
import { MIN_GAP_MS, type ShoreGapFacts, shoreGaps } from '../../src/modules/recorder/gaps/gap-causes.ts';

const none: ShoreGapFacts = { linkDown: [], cameraSilent: [], budgetHeld: [], backfillPending: [], ship: undefined, retentionBefore: undefined };

describe('the causes of a shore recording’s gaps, decided', () => {
  it('leaves out gaps shorter than a second (segment boundaries), and says unknown with no fact', () => {
    const recorded = [{ start: 0, end: 10_000 }, { start: 10_000 + MIN_GAP_MS - 1, end: 20_000 }, { start: 25_000, end: 30_000 }];
    expect(shoreGaps(recorded, 0, 30_000, none)).toEqual([{ start: 20_000, end: 25_000, cause: 'unknown' }]);
  });

  it('prefers what tells the operator most where facts overlap: pending, silent, lost on the ship too, link, budget, retention', () => {
    const facts: ShoreGapFacts = {
      linkDown: [{ start: 0, end: 100_000 }],
      cameraSilent: [{ start: 10_000, end: 20_000 }],
      budgetHeld: [{ start: 0, end: 100_000 }],
      backfillPending: [{ start: 30_000, end: 40_000 }],
      // The ship answered for 20 s … 60 s and holds 30 s … 50 s of it.
      ship: { covered: [{ start: 20_000, end: 60_000 }], spans: [{ start: 30_000, end: 50_000 }] },
      retentionBefore: 5_000,
    };
    expect(shoreGaps([], 0, 100_000, facts)).toEqual([
      { start: 0, end: 10_000, cause: 'linkDown' },
      { start: 10_000, end: 20_000, cause: 'cameraSilent' },
      { start: 20_000, end: 30_000, cause: 'nothingOnShip' },
      { start: 30_000, end: 40_000, cause: 'backfillPending' },
      { start: 40_000, end: 50_000, cause: 'linkDown' },
      { start: 50_000, end: 60_000, cause: 'nothingOnShip' },
      { start: 60_000, end: 100_000, cause: 'linkDown' },
    ]);
    // Without the link fact the budget explains it; without either, retention does before its horizon.
    expect(shoreGaps([], 0, 20_000, { ...none, budgetHeld: [{ start: 5_000, end: 20_000 }], retentionBefore: 10_000 })).toEqual([
      { start: 0, end: 5_000, cause: 'retention' },
      { start: 5_000, end: 20_000, cause: 'budgetHeld' },
    ]);
  });
});
