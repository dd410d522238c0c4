import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dest, type Channel, type OrgShipTree, type OrgShipTreeNode, type Ship, type UserInfo } from '@ship-cctv/protocol';
import { AppProviders } from '../../app/providers.tsx';
import { createI18n, type Language } from '../../i18n/index.ts';
import { apiClient } from '../../lib/api-client.ts';
import { createQueryClient } from '../../lib/query-client.ts';
import { realtime } from '../../lib/realtime/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../lib/runtime-config.ts';
import { sessionStore } from '../../lib/session-store.ts';
import { FakeStompClient } from '../../test/fake-stomp.ts';
import { pickOrg } from './selection.ts';
import { SourceTree } from './SourceTree.tsx';

function ship(id: string, name: string, enName: string, orgId: string): Ship {
  return { id, name, enName, orgId, orgName: orgId, jsonObject: { version: '3', third: [] }, timeZone: 'Asia/Shanghai' };
}
function org(id: string, ships: Ship[], children: OrgShipTreeNode[] = []): OrgShipTreeNode {
  return { organizationid: id, organizationname: id, displayName: id.toUpperCase(), parentId: null, orgShipTreeNodes: children, shipList: ships };
}

const star = ship('S1', '蓝海之星', 'BLUE OCEAN STAR', 'blueocean');
const wind = ship('S3', '长风号', 'LONG WIND', 'tankers');
// An organisation with a sub-organisation, the one the user picked.
const fleet: OrgShipTree = { orgShipTreeNodes: [org('blueocean', [star], [org('tankers', [wind])])] } as OrgShipTree;
const bridge: Channel = { id: 'S1-C1', name: 'Bridge', shipId: 'S1', block: 0, sort: 0, cameras: [{ id: 'S1-C1-1', type: 'ipc', sourceType: 'hkszy', other: 'cameraId=S1-C1-1', name: 'Bridge' }] };

const actions = { open: () => undefined, hint: 'double-click' };

function renderTree(language: Language = 'en') {
  return render(
    <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)} queryClient={createQueryClient()}>
      <div style={{ height: 600 }}>
        <SourceTree actions={actions} />
      </div>
    </AppProviders>,
  );
}

describe('source tree, first use', () => {
  let get: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    sessionStore.signedIn({ id: 'u-first-use' } as UserInfo);
    pickOrg('blueocean');
    realtime.store.connected(new FakeStompClient());
    get = vi.spyOn(apiClient, 'get').mockImplementation((path: string) => {
      if (path.includes('getOrgShipTreeUnion')) return Promise.resolve(fleet);
      if (path.includes('/getChannel/S1')) return Promise.resolve([bridge]);
      if (path.includes('waitTime')) return Promise.resolve({ waitTime: 8 });
      return new Promise(() => undefined);
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    sessionStore.clear();
  });

  it("expands a ship when its name is clicked (not only its caret), loading its channels, and a second click closes it", { timeout: 20_000 }, async () => {
    renderTree();
    const name = await screen.findByText(/BLUE OCEAN STAR/);
    expect(screen.queryByText('Bridge')).toBeNull();
    fireEvent.click(name, { detail: 1 });
    expect(await screen.findByText('Bridge')).toBeTruthy();
    expect((get.mock.calls as unknown[][]).some((call) => String(call[0]).includes('/getChannel/S1'))).toBe(true);
    fireEvent.click(screen.getByText(/BLUE OCEAN STAR/), { detail: 1 });
    await waitFor(() => expect(screen.queryByText('Bridge')).toBeNull());
  });

  it('a double-click on a row leaves no text selected (its second press does not start a selection)', async () => {
    renderTree();
    const name = await screen.findByText(/BLUE OCEAN STAR/);
    // fireEvent answers false when the event's default was prevented.
    expect(fireEvent.mouseDown(name, { detail: 1 })).toBe(true);
    expect(fireEvent.mouseDown(name, { detail: 2 })).toBe(false);
  });

  it.each<[Language, string]>([
    ['en', 'Search'],
    ['zh-CN', '搜索'],
  ])('names the search button and gives it a tooltip (%s)', async (language, name) => {
    renderTree(language);
    const button = await screen.findByRole('button', { name });
    expect(button.getAttribute('title')).toBe(name);
  }, 20_000);

  it("shows the ships of sub-organisations, with their link state subscribed, before anything is expanded", async () => {
    const client = new FakeStompClient();
    realtime.store.connected(client);
    renderTree();
    expect(await screen.findByText(/LONG WIND/)).toBeTruthy();
    expect(client.log).toContain(`SUB ${dest.shipStatus('长风号')}`);
  });
});
