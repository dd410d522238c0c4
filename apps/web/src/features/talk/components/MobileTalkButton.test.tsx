import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { ShipConfig } from '@ship-cctv/protocol';
import { createI18n, type Language } from '../../../i18n/index.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../../lib/runtime-config.ts';
import { MobileProviders } from '../../../mobile/providers.tsx';
import type { PlayableSource } from '../../../shared/playable-source.ts';
import { shipConfigQuery } from '../../../shared/player-cell/index.ts';
import { MobileTalkButton } from './MobileTalkButton.tsx';

const SOURCE: PlayableSource = {
  cameraId: 'S1001-C01-1',
  title: 'Bridge',
  channelId: 'S1001-C01',
  shipId: 'S1001',
  shipName: 'S1001',
  shipDisplayName: 'BLUE OCEAN STAR 蓝海之星',
  orgId: 'blueocean',
  orgName: 'Blue Ocean Shipping',
  waitTime: 10,
  componentType: 'live',
};

const model = { id: 6, displayName: '标清', width: 640, height: 360, frameRate: 10, bitrateKbps: 400, codec: 'h264' };
const config = (talk: boolean): ShipConfig => ({ groupAliasResDTOS: [{ id: 2, displayName: '标准', defaultModelId: 6, models: [model] }], defaultGroupId: 2, talk, audio: true });

function renderButton(talk: boolean, language: Language = 'zh-CN') {
  const queryClient = createQueryClient();
  queryClient.setQueryData(shipConfigQuery(SOURCE.orgId, SOURCE.shipId).queryKey, config(talk));
  return render(
    <MobileProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)} queryClient={queryClient}>
      <MobileTalkButton source={SOURCE} />
    </MobileProviders>,
  );
}

describe('the phone’s talk button', () => {
  it('shows on a ship with talk on, idle and not pressed, in Chinese and English', () => {
    const zh = renderButton(true);
    const button = screen.getByRole('button', { name: createI18n('zh-CN').t('talk.button') });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(screen.queryByRole('meter')).toBeNull();
    zh.unmount();
    renderButton(true, 'en');
    expect(screen.getByRole('button', { name: createI18n('en').t('talk.button') })).toBeTruthy();
  });

  it('is not there on a ship with talk off', () => {
    const { container } = renderButton(false);
    expect(container.querySelector('[data-talk-state]')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('says in the page’s language why it cannot talk: this browser (jsdom) has no audio encoder', async () => {
    for (const language of ['zh-CN', 'en'] as const) {
      const { unmount } = renderButton(true, language);
      const t = createI18n(language).t;
      const button = screen.getByRole('button', { name: t('talk.button') });
      act(() => {
        fireEvent.pointerDown(button, { pointerId: 1, button: 0 });
      });
      expect(await screen.findByText(t('talk.problem.unsupported'))).toBeTruthy();
      act(() => {
        window.dispatchEvent(Object.assign(new Event('pointerup'), { pointerId: 1 }));
      });
      // Back to idle: the button can be pressed again.
      expect(button.getAttribute('aria-pressed')).toBe('false');
      unmount();
    }
  });
});
