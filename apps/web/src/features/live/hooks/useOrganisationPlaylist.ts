import { useEffect, useMemo } from 'react';
import { shipsOf, useOrganisations } from '../../../shared/source-tree/index.ts';
import { keepShips, playlistStore, type PlaylistStore } from '../playlist.ts';

/**
 * Keeps the play grid to the selected organisation (spec §2: changing the organisation clears the
 * sources): once an organisation is selected — picked now, or remembered from before a reload —
 * cells of ships outside it close. With none selected yet nothing is touched.
 */
export function useOrganisationPlaylist(store: PlaylistStore = playlistStore): void {
  const { selected } = useOrganisations();
  const node = selected?.node;
  const shipIds = useMemo(() => (node ? new Set(shipsOf(node).map((ship) => ship.id)) : undefined), [node]);
  useEffect(() => {
    if (shipIds) store.update((s) => ({ ...s, playlist: keepShips(s.playlist, shipIds) }));
  }, [shipIds, store]);
}
