import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { dest, type Camera, type Channel, type Ship } from '@ship-cctv/protocol';
import { AppProviders } from '../../app/providers.tsx';
import { createI18n } from '../../i18n/index.ts';
import { realtime } from '../../lib/realtime/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../lib/runtime-config.ts';
import { FakeStompClient } from '../../test/fake-stomp.ts';
import { ChannelTitle } from './NodeTitles.tsx';

const ship: Ship = { id: 'S1', name: 'STAR', enName: 'BLUE OCEAN STAR', orgId: 'blueocean', orgName: '蓝海航运', jsonObject: { version: '3', third: [] }, timeZone: 'Asia/Shanghai' };
const camera: Camera = { id: 'S1-C1-1', type: 'ipc', sourceType: 'hkszy', other: 'cameraId=S1-C1-1', name: 'Bridge' };
const channel: Channel = { id: 'S1-C1', name: 'Bridge', shipId: 'S1', block: 0, sort: 0, cameras: [camera] };
const media = dest.mediaList('STAR');
const status = (extra: object) => ({ sourceId: camera.id, status: 'ONLINE', remoteRecord: null, remoteStart: null, remoteEnd: null, argId: null, ...extra });

describe('channel title', () => {
  it('shows live, ship recording and shore recording apart, as STOMP reports them', () => {
    const client = new FakeStompClient();
    realtime.store.connected(client);
    render(
      <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n('zh-CN')}>
        <ChannelTitle ship={ship} channel={channel} />
      </AppProviders>,
    );
    expect(client.log).toContain(`SUB ${media}`);
    act(() => client.publish(media, status({})));
    expect(screen.getByLabelText('在线')).toBeTruthy();
    expect(screen.getByLabelText('未录像')).toBeTruthy();
    expect(screen.queryByLabelText('岸端录像中')).toBeNull();

    act(() => client.publish(media, status({ remoteRecord: true, remoteStart: 1000, argId: 'rc-S1-C1-1', recorder: 'shore' })));
    expect(screen.getByLabelText('岸端录像中')).toBeTruthy();
    // The shore recorder does not make the ship's recorder look busy.
    expect(screen.getByLabelText('未录像')).toBeTruthy();

    act(() => client.publish(media, status({ remoteRecord: false, remoteStart: 1000, remoteEnd: 2000, argId: 'rc-S1-C1-1', recorder: 'shore' })));
    expect(screen.queryByLabelText('岸端录像中')).toBeNull();
  });
});
