import { lazy, Suspense, useMemo } from 'react';
import type { Ship } from '@ship-cctv/protocol';
import { shipsOf, useOrganisations } from '../shared/source-tree/index.ts';

/*
 * Events in the shell, loaded when first drawn (the live preview's first screen stays within its
 * size): the unacknowledged count after each ship's name in the source tree, and the toasts of new
 * events of the selected organisation's ships.
 */
const loadEvents = () => import('../features/events/pages.ts');
const LoadedBadge = lazy(() => loadEvents().then((m) => ({ default: m.ShipEventBadge })));
const LoadedNotices = lazy(() => loadEvents().then((m) => ({ default: m.EventNotices })));
export const EventSettingsDialog = lazy(() => loadEvents().then((m) => ({ default: m.EventSettingsDialog })));

export function ShipEventBadgeSlot({ ship }: { ship: Ship }) {
  return (
    <Suspense fallback={null}>
      <LoadedBadge ship={ship} />
    </Suspense>
  );
}

/** Event notices of every ship of the selected organisation (and its sub-organisations). */
export function EventNoticesSlot() {
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

