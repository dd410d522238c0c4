import { afterEach, describe, expect, it } from 'vitest';
import { act, render } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../../lib/query-client.ts';
import { sessionStore } from '../../../lib/session-store.ts';
import { orgShipTreeQuery, pickOrg } from '../../../shared/source-tree/index.ts';
import { source } from '../../../shared/test-sources.ts';
import { org, ship } from '../../../mobile/test-fleet.ts';
import { createPlaylistStore, keepShips, type PlaylistStore } from '../playlist.ts';
import { useOrganisationPlaylist } from './useOrganisationPlaylist.ts';

const ids = (store: PlaylistStore) => store.getSnapshot().playlist.map((s) => s.cameraId);

function Grid({ store }: { store: PlaylistStore }) {
  useOrganisationPlaylist(store);
  return null;
}

afterEach(() => {
  sessionStore.clear();
  localStorage.clear();
});

describe('the play grid follows the selected organisation (spec §2)', () => {
  it('keeps only the channels of ships in a set', () => {
    const list = [source(1, 'S1001'), source(1, 'S2001'), source(2, 'S1001')];
    expect(keepShips(list, new Set(['S1001'])).map((s) => s.cameraId)).toEqual(['S1001-C01-1', 'S1001-C02-1']);
    expect(keepShips(list, new Set(['S1001', 'S2001']))).toBe(list);
  });

  it('changing the organisation closes the cells of the one before; a sub-organisation’s ships stay', () => {
    const queryClient = createQueryClient();
    // Blue Ocean (with a sub-organisation's ship S1003) and another company (S2001).
    const tree = {
      orgShipTreeNodes: [
        org('blueocean', '蓝海航运', [ship('S1001', '蓝海之星', 'BLUE OCEAN STAR')], [org('blueocean-tankers', '蓝海油运', [ship('S1003', '蓝海油轮', 'BLUE TANKER')])]),
        org('njzsz', '南京', [ship('S2001', '金陵号', 'JINLING', 'njzsz')]),
      ],
    };
    queryClient.setQueryData(orgShipTreeQuery().queryKey, tree);
    sessionStore.signedIn({ id: 'u1', username: 'demo', displayName: 'Demo', role: 'manager', orgIds: ['blueocean', 'njzsz'] });
    const store = createPlaylistStore(undefined);
    store.update((s) => ({ ...s, playlist: [source(1, 'S1001'), source(1, 'S1003'), source(1, 'S2001')] }));

    render(
      <QueryClientProvider client={queryClient}>
        <Grid store={store} />
      </QueryClientProvider>,
    );
    // Two organisations, none picked yet: nothing is touched.
    expect(ids(store)).toEqual(['S1001-C01-1', 'S1003-C01-1', 'S2001-C01-1']);

    act(() => pickOrg('blueocean'));
    expect(ids(store)).toEqual(['S1001-C01-1', 'S1003-C01-1']);

    act(() => pickOrg('njzsz'));
    expect(ids(store)).toEqual([]);
  });
});
