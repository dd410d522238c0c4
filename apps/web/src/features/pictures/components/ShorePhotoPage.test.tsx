import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import type { OrgShipTree, PictureInfo, PicturePage, Ship, UserInfo } from '@ship-cctv/protocol';
import { AppProviders } from '../../../app/providers.tsx';
import { createI18n, type Language } from '../../../i18n/index.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { realtime } from '../../../lib/realtime/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../../lib/runtime-config.ts';
import { sessionStore } from '../../../lib/session-store.ts';
import { pickOrg } from '../../../shared/source-tree/index.ts';
import { FakeStompClient } from '../../../test/fake-stomp.ts';
import { ShorePhotoPage } from './ShorePhotoPage.tsx';

const star: Ship = { id: 'S1', name: '蓝海之星', enName: 'BLUE OCEAN STAR', orgId: 'blueocean', orgName: 'blueocean', jsonObject: { version: '3', third: [] }, timeZone: 'Asia/Shanghai' };
const fleet = { orgShipTreeNodes: [{ organizationid: 'blueocean', organizationname: 'blueocean', displayName: 'Blue Ocean Shipping', parentId: null, orgShipTreeNodes: [], shipList: [star] }] } as OrgShipTree;
const picture = (id: string, origin: PictureInfo['origin']): PictureInfo => ({
  id,
  orgId: 'blueocean',
  shipId: 'S1',
  shipName: '蓝海之星',
  channelId: 'S1-C1',
  cameraId: 'S1-C1-1',
  takenAt: Date.now() - 60_000,
  origin,
  taskId: null,
  bytes: 30_000,
  width: 1280,
  height: 720,
  storedAt: Date.now(),
});
const PAGE: PicturePage = { page: 1, size: 48, total: 2, pictures: [picture('pic-still', 'stills'), picture('pic-manual', 'manual')] };

beforeEach(() => {
  sessionStore.signedIn({ id: 'u-shore-photo' } as UserInfo);
  pickOrg('blueocean');
  realtime.store.connected(new FakeStompClient());
  vi.spyOn(apiClient, 'get').mockImplementation((path: string) => (path.includes('getOrgShipTreeUnion') ? Promise.resolve(fleet as never) : new Promise(() => undefined)));
  vi.spyOn(apiClient, 'post').mockImplementation((path: string) => (path.includes('/snapshot/complexQuery/') ? Promise.resolve(PAGE as never) : new Promise(() => undefined)));
});
afterEach(() => {
  vi.restoreAllMocks();
  sessionStore.clear();
});

describe('shore picture cards', { timeout: 30_000 }, () => {
  it.each<[Language, { ship: string; stills: string; manual: string }]>([
    ['en', { ship: 'BLUE OCEAN STAR', stills: 'Stills mode', manual: 'Manual snapshot' }],
    ['zh-CN', { ship: '蓝海之星', stills: '图片模式', manual: '手动抓拍' }],
  ])('name the ship in the page language and tell stills from manual snapshots (%s)', async (language, text) => {
    render(
      <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)} queryClient={createQueryClient()}>
        <ShorePhotoPage />
      </AppProviders>,
    );
    const still = within((await screen.findAllByRole('listitem')).find((card) => card.getAttribute('data-picture-id') === 'pic-still') as HTMLElement);
    await within(document.body).findAllByText(text.ship);
    expect(still.getByTestId('picture-ship').textContent).toBe(text.ship);
    expect(still.getByTestId('picture-ship').getAttribute('title')).toBe('BLUE OCEAN STAR 蓝海之星');
    expect(still.getByText(text.stills)).toBeTruthy();
    const manual = within(screen.getAllByRole('listitem').find((card) => card.getAttribute('data-picture-id') === 'pic-manual') as HTMLElement);
    expect(manual.getByText(text.manual)).toBeTruthy();
  });
});

describe('shore picture cards with no organisation chosen', { timeout: 30_000 }, () => {
  it('name the ship in English from the whole fleet the user sees', async () => {
    // Two organisations and none picked: the page lists every picture and still knows each ship.
    const njzsz = { organizationid: 'njzsz', organizationname: 'njzsz', displayName: 'NJZSZ Shipping', parentId: null, orgShipTreeNodes: [], shipList: [] };
    const twoOrgs = { orgShipTreeNodes: [...fleet.orgShipTreeNodes, njzsz] } as OrgShipTree;
    pickOrg('none-of-these');
    vi.spyOn(apiClient, 'get').mockImplementation((path: string) => (path.includes('getOrgShipTreeUnion') ? Promise.resolve(twoOrgs as never) : new Promise(() => undefined)));
    render(
      <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n('en')} queryClient={createQueryClient()}>
        <ShorePhotoPage />
      </AppProviders>,
    );
    await within(document.body).findAllByText('BLUE OCEAN STAR');
    const card = within((await screen.findAllByRole('listitem')).find((c) => c.getAttribute('data-picture-id') === 'pic-manual') as HTMLElement);
    expect(card.getByTestId('picture-ship').textContent).toBe('BLUE OCEAN STAR');
  });
});
