import { lazy, Suspense, useMemo } from 'react';
import { shipsOf, useOrganisations } from '../shared/source-tree/index.ts';

// Loaded when first drawn (a small chunk of its own): not part of the first screen.
const LoadedNotices = lazy(() => import('../features/ship-storage/index.ts').then((m) => ({ default: m.RecorderStorageNotices })));

/** Notices of the selected organisation's ships whose recorder cannot keep the days of recordings asked. */
export function RecorderStorageNoticesSlot() {
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
