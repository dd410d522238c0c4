import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MsePlayer } from '@ship-cctv/player';
import type { ShipConfig, UserInfo } from '@ship-cctv/protocol';
import { MemoryRouter } from 'react-router';
import { createI18n, type Language } from '../../i18n/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../lib/runtime-config.ts';
import { sessionStore } from '../../lib/session-store.ts';
import { pickOrg } from '../../shared/source-tree/index.ts';
import { MobileProviders } from '../providers.tsx';
import { camera, channel, org, ship } from '../test-fleet.ts';
import { MobileScreen } from './MobileScreen.tsx';

const tree = {
  orgShipTreeNodes: [org('blueocean', '蓝海航运', [ship('S1', '蓝海之星', 'BLUE OCEAN STAR')]), org('njzsz', '南京', [ship('S3', '金陵', 'JINLING', 'njzsz')])],
};
const model = { id: 6, displayName: '标清', width: 640, height: 360, frameRate: 10, bitrateKbps: 400, codec: 'h264' };
const CONFIG: ShipConfig = { groupAliasResDTOS: [{ id: 1, displayName: '标准', defaultModelId: 6, models: [model] }], defaultGroupId: 1, talk: false, audio: false };

function envelope(data: unknown, status = 200) {
  return new Response(JSON.stringify({ code: status, message: status === 200 ? 'SUCCESS' : 'FAILED', data }), { status, headers: { 'content-type': 'application/json' } });
}

function serve() {
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      if (url.includes('getOrgShipTreeUnion')) return Promise.resolve(envelope(tree));
      if (url.includes('waitTime')) return Promise.resolve(envelope({ waitTime: 8 }));
      if (url.includes('getChannel/')) return Promise.resolve(envelope([channel('C1', 'Bridge', [camera('C1-1', 'Bridge')])]));
      if (url.includes('shipGroup/ship/list')) return Promise.resolve(envelope(CONFIG));
      return new Promise<Response>(() => undefined);
    }),
  );
}

function renderScreen(language: Language) {
  return render(
    <MobileProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)}>
      <MemoryRouter>
        <MobileScreen mode="live" />
      </MemoryRouter>
    </MobileProviders>,
  );
}

describe('mobile screen: changing the organisation', { timeout: 30_000 }, () => {
  beforeEach(() => {
    sessionStore.signedIn({ id: `u-mobile-${Math.random()}` } as UserInfo);
    vi.spyOn(MsePlayer.prototype, 'play').mockImplementation(() => undefined);
    serve();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    sessionStore.clear();
  });

  for (const [language, play, empty] of [
    ['zh-CN', '播放', '长按下方通道，选择实时视频或船端视频回放'],
    ['en', 'Play', 'Long-press a channel below to choose live video or ship-end playback'],
  ] as const) {
    it(`stops and clears the old organisation's live video (${language})`, async () => {
      act(() => pickOrg('blueocean'));
      const { container } = renderScreen(language);
      fireEvent.click(await screen.findByRole('button', { name: 'Bridge' }, { timeout: 10_000 }));
      const playButton = await screen.findByRole('button', { name: play }, { timeout: 10_000 });
      await waitFor(() => expect((playButton as HTMLButtonElement).disabled).toBe(false));
      fireEvent.click(playButton);
      await waitFor(() => expect(container.querySelector('[data-camera-id="C1-1"]')).not.toBeNull());

      act(() => pickOrg('njzsz'));
      await waitFor(() => expect(container.querySelector('[data-camera-id]')).toBeNull());
      expect(container.querySelector('video')).toBeNull();
      expect(screen.getByText(empty)).toBeTruthy();
    });
  }
});
