import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { dest, type RecorderStorage, type Ship, type ShipStatusMessage } from '@ship-cctv/protocol';
import { AppProviders } from '../../../app/providers.tsx';
import { createI18n } from '../../../i18n/index.ts';
import { realtime } from '../../../lib/realtime/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../../lib/runtime-config.ts';
import { FakeStompClient } from '../../../test/fake-stomp.ts';
import { RecorderStorageNotices } from './RecorderStorageNotices.tsx';

const ship: Ship = { id: 'S1', name: '蓝海之星', enName: 'BLUE OCEAN STAR', orgId: 'blueocean', orgName: '蓝海航运', jsonObject: { version: '3', third: [] }, timeZone: 'Asia/Shanghai' };
const other: Ship = { ...ship, id: 'S2', name: '长风号', enName: 'LONG WIND' };
const GB = 1_000_000_000;
const fits: RecorderStorage = { keepDays: 90, holdsDays: 120, short: false, allowedBytes: 2_400 * GB, usedBytes: 300 * GB, bytesPerDay: 20 * GB, freeBytes: 3_000 * GB };
const short: RecorderStorage = { ...fits, holdsDays: 45.2, short: true, allowedBytes: 904 * GB };
const status = (storage?: RecorderStorage): ShipStatusMessage => ({ status: 'VSAT', quality: 80, udpConnectionStats: { duplex: 'BOTH' }, ...(storage ? { storage } : {}) });

afterEach(() => realtime.store.reset());

function renderNotices(language: 'en' | 'zh-CN') {
  const client = new FakeStompClient();
  realtime.store.connected(client);
  render(
    <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)}>
      <RecorderStorageNotices ships={[ship, other]} />
    </AppProviders>,
  );
  return client;
}

const notices = () => screen.queryAllByTestId('recorder-storage-notice').map((n) => n.textContent);

describe('notices of ships whose recorder cannot keep the days asked', () => {
  it('says so when a ship turns short, once, and again only after it was fine in between (en)', async () => {
    const client = renderNotices('en');
    expect([...client.log].sort()).toEqual([`SUB ${dest.shipStatus('蓝海之星')}`, `SUB ${dest.shipStatus('长风号')}`].sort());
    // A ship without the report, and one whose disk holds the days: nothing.
    act(() => client.publish(dest.shipStatus('长风号'), status()));
    act(() => client.publish(dest.shipStatus('蓝海之星'), status(fits)));
    expect(notices()).toEqual([]);

    act(() => client.publish(dest.shipStatus('蓝海之星'), status(short)));
    await waitFor(() => expect(notices()).toHaveLength(1));
    expect(notices()[0]).toBe(
      'BLUE OCEAN STAR 蓝海之星: at its recent rate, the ship recorder’s disk holds about 45 days of recordings, fewer than the 90 days asked (904 GB allowed, about 20.0 GB a day). The oldest recordings will be deleted sooner; recording does not stop.',
    );
    // Every status of the ship carries it while it lasts: one notice, not one per status.
    act(() => client.publish(dest.shipStatus('蓝海之星'), status({ ...short, holdsDays: 44.9 })));
    act(() => client.publish(dest.shipStatus('蓝海之星'), status(fits)));
    act(() => client.publish(dest.shipStatus('蓝海之星'), status({ ...short, holdsDays: 8.25 })));
    await waitFor(() => expect(notices()).toHaveLength(2));
    expect(notices()[1]).toContain('holds about 8.3 days of recordings, fewer than the 90 days asked');
  });

  it('speaks Chinese', async () => {
    const client = renderNotices('zh-CN');
    act(() => client.publish(dest.shipStatus('长风号'), status(short)));
    await waitFor(() => expect(notices()).toHaveLength(1));
    expect(notices()[0]).toBe('LONG WIND 长风号：船端录像磁盘按近期录像速率约可保存 45 天，少于要求的 90 天（可用 904 GB，每天约 20.0 GB）。最早的录像将提前删除，录像不会停止。');
  });
});
