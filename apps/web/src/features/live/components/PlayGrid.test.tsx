import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OrgShipTree, UserInfo } from '@ship-cctv/protocol';
import { AppProviders } from '../../../app/providers.tsx';
import { createI18n } from '../../../i18n/index.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../../lib/runtime-config.ts';
import { sessionStore } from '../../../lib/session-store.ts';
import { pickOrg } from '../../../shared/source-tree/index.ts';
import { PlayGrid } from './PlayGrid.tsx';

const org = (id: string) => ({ organizationid: id, organizationname: id, displayName: id, parentId: null, orgShipTreeNodes: [], shipList: [] });

function renderGrid(tree: OrgShipTree, language: 'en' | 'zh-CN') {
  vi.spyOn(apiClient, 'get').mockImplementation((path: string) => (path.includes('getOrgShipTreeUnion') ? Promise.resolve(tree) : new Promise(() => undefined)));
  return render(
    <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)} queryClient={createQueryClient()}>
      <PlayGrid />
    </AppProviders>,
  );
}

describe('play grid, first use', () => {
  beforeEach(() => sessionStore.signedIn({ id: `u-grid-${Math.random()}` } as UserInfo));
  afterEach(() => {
    vi.restoreAllMocks();
    sessionStore.clear();
  });

  it('tells a user of several organisations, none picked yet, to choose one first; once picked, how to play', async () => {
    renderGrid({ orgShipTreeNodes: [org('blueocean'), org('redsea')] } as OrgShipTree, 'en');
    const cells = await screen.findAllByText('Choose an organisation on the left, then double-click a channel to play it');
    expect(cells.length).toBeGreaterThan(0);
    act(() => pickOrg('redsea'));
    expect((await screen.findAllByText('Double-click a channel in the tree to play it')).length).toBe(cells.length);
    expect(screen.queryByText(/Choose an organisation/)).toBeNull();
  });

  it('says it in Chinese too, and not to a user of one organisation (selected by itself)', async () => {
    const several = renderGrid({ orgShipTreeNodes: [org('blueocean'), org('redsea')] } as OrgShipTree, 'zh-CN');
    expect((await screen.findAllByText('请先在左侧选择组织，再双击通道播放视频')).length).toBeGreaterThan(0);
    several.unmount();
    vi.restoreAllMocks();
    renderGrid({ orgShipTreeNodes: [org('blueocean')] } as OrgShipTree, 'zh-CN');
    expect((await screen.findAllByText('双击左侧通道播放视频')).length).toBeGreaterThan(0);
    expect(screen.queryByText('请先在左侧选择组织，再双击通道播放视频')).toBeNull();
  });
});
