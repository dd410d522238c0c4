import { useEffect, useMemo } from 'react';
import { shipsOf, useOrganisations } from '../../shared/source-tree/index.ts';
import type { PlayableSource } from '../../shared/playable-source.ts';

/**
 * Spec §2, as on the desktop: changing the organisation clears what the one before plays. Once an
 * organisation is selected, `onOutside` runs whenever `source` (what plays, or the dialog about to
 * play it) belongs to none of its ships (sub-organisations' included); unmounting the video stops
 * its stream. With none selected yet nothing is touched.
 */
export function useOrganisationScope(source: PlayableSource | undefined, onOutside: () => void): void {
  const { selected } = useOrganisations();
  const node = selected?.node;
  const shipIds = useMemo(() => (node ? new Set(shipsOf(node).map((ship) => ship.id)) : undefined), [node]);
  const outside = !!source && !!shipIds && !shipIds.has(source.shipId);
  useEffect(() => {
    if (outside) onOutside();
  }, [outside, onOutside]);
}
