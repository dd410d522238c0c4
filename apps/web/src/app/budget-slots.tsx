import { lazy, Suspense, useMemo } from 'react';
import type { Ship } from '@ship-cctv/protocol';
import { shipsOf, useOrganisations, type ShipExtra } from '../shared/source-tree/index.ts';

/*
 * Data budgets in the shell, loaded when first drawn (the live preview's first screen stays within
 * its issue-17 size): the badge after each ship's name in the source tree, and the notices of the
 * selected organisation's ships.
 */
const loadBudgets = () => import('../features/budgets/index.ts');
const LoadedBadge = lazy(() => loadBudgets().then((m) => ({ default: m.ShipBudgetBadge })));
const LoadedNotices = lazy(() => loadBudgets().then((m) => ({ default: m.BudgetNotices })));

export const SHIP_BUDGET_BADGE: ShipExtra = function ShipBudgetBadgeSlot({ ship }: { ship: Ship }) {
  return (
    <Suspense fallback={null}>
      <LoadedBadge ship={ship} />
    </Suspense>
  );
};

/** Budget notices of every ship of the selected organisation (and its sub-organisations). */
export function BudgetNoticesSlot() {
  const { selected } = useOrganisations();
  const node = selected?.node;
  const ships = useMemo(() => (node ? shipsOf(node) : []), [node]);
  if (ships.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <LoadedNotices ships={ships} />
    </Suspense>
  );
}
