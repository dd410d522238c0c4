import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toast } from 'antd-mobile';
import { dest, type EventNotice, type UserInfo } from '@ship-cctv/protocol';
import { createI18n, type Language } from '../../i18n/index.ts';
import { realtime } from '../../lib/realtime/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../lib/runtime-config.ts';
import { sessionStore } from '../../lib/session-store.ts';
import { pickOrg } from '../../shared/source-tree/index.ts';
import { FakeStompClient } from '../../test/fake-stomp.ts';
import { eventOf, serveEvents } from '../../test/events-server.ts';
import { MobileProviders } from '../providers.tsx';
import { MobileEventNotices } from './MobileEventNotices.tsx';

const toasts = () => screen.queryAllByTestId('mobile-event-notice').map((n) => n.textContent);

describe('toasts of new events on the phone', { timeout: 20_000 }, () => {
  beforeEach(() => {
    sessionStore.signedIn({ id: `u-mobile-notices-${Math.random()}` } as UserInfo);
    act(() => pickOrg('blueocean'));
  });
  afterEach(() => {
    act(() => Toast.clear());
    realtime.store.reset();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    sessionStore.clear();
  });

  for (const [language, text] of [
    ['en', '蓝海之星 · Bridge: Person 92% · Motion 100%'],
    ['zh-CN', '蓝海之星 · Bridge：人员 92% · 移动 100%'],
  ] as const) {
    it(`toasts an event of the chosen organisation's ships that its rule notifies, once (${language})`, async () => {
      serveEvents([]);
      const client = new FakeStompClient();
      realtime.store.connected(client);
      render(
        <MobileProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language as Language)}>
          <MobileEventNotices />
        </MobileProviders>,
      );
      // The organisation's ships come from shore's tree: then its ship's notices are listened to.
      await waitFor(() => expect(client.log).toContain(`SUB ${dest.events('蓝海之星')}`));
      const quiet: EventNotice = { type: 'event', event: eventOf(1), notify: false };
      act(() => client.publish(dest.events('蓝海之星'), quiet));
      const loud: EventNotice = { type: 'event', event: eventOf(2), notify: true };
      act(() => client.publish(dest.events('蓝海之星'), loud));
      await waitFor(() => expect(toasts()).toEqual([text]));
      expect(screen.getByTestId('mobile-event-notice').getAttribute('data-event-id')).toBe(eventOf(2).id);
      // The same event again (a reconnect's repeat): no second toast.
      act(() => client.publish(dest.events('蓝海之星'), { ...loud }));
      await new Promise((r) => setTimeout(r, 100));
      expect(toasts()).toEqual([text]);
    });
  }
});
