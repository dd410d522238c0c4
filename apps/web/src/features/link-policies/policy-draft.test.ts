import { describe, expect, it } from 'vitest';
import type { LinkPolicy } from '@ship-cctv/protocol';
import { draftOf, problemOf, sameAs, updateOf } from './policy-draft.ts';

const FBB: LinkPolicy = { linkType: 'FBB', manyCells: 'lowest', fewCells: 'lowest', fullScreen: 'standard', stills: false, stillsEverySeconds: 10, budgetPolicy: 'stills', custom: false, source: 'default' };

describe('a link policy being edited', () => {
  it('is the saved policy until a field differs', () => {
    expect(sameAs(draftOf(FBB), FBB)).toBe(true);
    expect(sameAs({ ...draftOf(FBB), stills: true }, FBB)).toBe(false);
    // Whose policy it is is not part of what is saved.
    expect(draftOf({ ...FBB, custom: true, source: 'inherited', inheritedFrom: { orgId: 'a', displayName: 'A' } })).toEqual(draftOf(FBB));
  });

  it('refuses a bigger view asking for less than a smaller one, as the server does', () => {
    expect(problemOf({ ...draftOf(FBB), fewCells: 'standard' })).toBeUndefined();
    expect(problemOf({ ...draftOf(FBB), manyCells: 'standard' })).toBe('order');
    expect(problemOf({ ...draftOf(FBB), fullScreen: 'lowest', fewCells: 'standard' })).toBe('order');
    expect(problemOf({ manyCells: 'best', fewCells: 'best', fullScreen: 'best', stills: false, stillsEverySeconds: 10, budgetPolicy: 'lowest' })).toBeUndefined();
  });

  it('needs whole seconds from 1 to 3600 between stills', () => {
    for (const seconds of [null, 0, 3601, 2.5]) expect(problemOf({ ...draftOf(FBB), stillsEverySeconds: seconds }), String(seconds)).toBe('secondsRange');
    expect(problemOf({ ...draftOf(FBB), stillsEverySeconds: 3600 })).toBeUndefined();
  });

  it('becomes the body of PUT only without a problem', () => {
    expect(updateOf({ ...draftOf(FBB), stills: true, stillsEverySeconds: 20 })).toEqual({ manyCells: 'lowest', fewCells: 'lowest', fullScreen: 'standard', stills: true, stillsEverySeconds: 20, budgetPolicy: 'stills' });
    expect(updateOf({ ...draftOf(FBB), stillsEverySeconds: null })).toBeUndefined();
    expect(updateOf({ ...draftOf(FBB), manyCells: 'best' })).toBeUndefined();
  });
});
