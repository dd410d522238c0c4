import { describe, expect, it } from 'vitest';
import { type Organisation, OrgTree, requireOrg, visibleSubtreeOrgIds } from '../../src/core/orgs/org-tree.ts';

const org = (id: string, parentId: string | null): Organisation => ({
  id,
  name: `name-${id}`,
  displayName: `Org ${id}`,
  parentId,
  waitTimeSeconds: 8,
  autoShutdownEnabled: true,
  autoShutdownMinutes: 20,
  autoShutdownCountdownSeconds: 10,
});

// a ─ b ─ c, a ─ d; e alone; x and y name each other as parent (a loop left by bad data).
const tree = new OrgTree([org('a', null), org('b', 'a'), org('c', 'b'), org('d', 'a'), org('e', null), org('x', 'y'), org('y', 'x')]);

describe('the organisation tree', () => {
  it('walks down from each root, and up to the top nearest first', () => {
    expect(tree.subtree(['a'])).toEqual(new Set(['a', 'b', 'c', 'd']));
    expect(tree.subtree(['b', 'e'])).toEqual(new Set(['b', 'c', 'e']));
    expect(tree.subtree([])).toEqual(new Set());
    expect(tree.ancestors('c')).toEqual(['c', 'b', 'a']);
    expect(tree.ancestors('e')).toEqual(['e']);
    // An organisation the tree does not hold is its own chain, as before it was stored.
    expect(tree.ancestors('new')).toEqual(['new']);
  });

  it('ends a walk that comes round again', () => {
    expect(tree.ancestors('x')).toEqual(['x', 'y']);
    expect(tree.subtree(['x'])).toEqual(new Set(['x', 'y']));
  });

  it('finds an organisation by id and by name', () => {
    expect(tree.get('d')?.displayName).toBe('Org d');
    expect(tree.byName('name-c')?.id).toBe('c');
    expect(tree.get('nope')).toBeUndefined();
    expect(tree.byName('nope')).toBeUndefined();
  });

  it('answers what a caller may see: 404 for an unknown organisation, 403 for one outside theirs, the visible part of a subtree', () => {
    const scope = { orgs: tree, visibleOrgIds: new Set(['b', 'c']) };
    expect(requireOrg(scope, 'b').id).toBe('b');
    expect(() => requireOrg(scope, 'nope')).toThrow(expect.objectContaining({ code: 404 }));
    expect(() => requireOrg(scope, 'a')).toThrow(expect.objectContaining({ code: 403 }));
    expect(visibleSubtreeOrgIds(scope, 'b').sort()).toEqual(['b', 'c']);
    expect(() => visibleSubtreeOrgIds(scope, 'a')).toThrow(expect.objectContaining({ code: 403 }));
  });
});
