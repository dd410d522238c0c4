import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router';
import { dest, type EventNotice } from '@ship-cctv/protocol';
import { AppProviders } from '../../../app/providers.tsx';
import { createI18n, type Language } from '../../../i18n/index.ts';
import { realtime } from '../../../lib/realtime/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../../lib/runtime-config.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { FakeStompClient } from '../../../test/fake-stomp.ts';
import { eventOf } from '../../../test/events-server.ts';
import { ship } from '../../../mobile/test-fleet.ts';
import { EventNotices } from './EventNotices.tsx';

afterEach(() => {
  realtime.store.reset();
  vi.restoreAllMocks();
});

const star = ship('S1', '蓝海之星', 'BLUE OCEAN STAR');
const wind = ship('S2', '长风号', 'LONG WIND');

function renderNotices(language: Language) {
  const client = new FakeStompClient();
  realtime.store.connected(client);
  const queryClient = createQueryClient();
  const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
  render(
    <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)} queryClient={queryClient}>
      <MemoryRouter>
        <EventNotices ships={[star, wind]} />
      </MemoryRouter>
    </AppProviders>,
  );
  return { client, invalidate };
}

const notices = () => screen.queryAllByTestId('event-notice').map((n) => n.querySelector('span')?.textContent);

describe('toasts of new events of the chosen organisation', { timeout: 20_000 }, () => {
  for (const [language, text] of [
    ['en', '蓝海之星 · Bridge: Person 92% · Motion 100%'],
    ['zh-CN', '蓝海之星 · Bridge：人员 92% · 移动 100%'],
  ] as const) {
    it(`toasts an event its organisation's rule notifies, once; others only refresh the lists (${language})`, async () => {
      const { client, invalidate } = renderNotices(language);
      expect([...client.log].sort()).toEqual([`SUB ${dest.events('蓝海之星')}`, `SUB ${dest.events('长风号')}`].sort());
      const quiet: EventNotice = { type: 'event', event: eventOf(1), notify: false };
      act(() => client.publish(dest.events('蓝海之星'), quiet));
      await waitFor(() => expect(invalidate).toHaveBeenCalledWith({ queryKey: ['events'] }));
      expect(notices()).toEqual([]);

      const loud: EventNotice = { type: 'event', event: eventOf(2), notify: true };
      act(() => client.publish(dest.events('蓝海之星'), loud));
      await waitFor(() => expect(notices()).toEqual([text]));
      // The same event again (a reconnect's repeat): no second toast.
      act(() => client.publish(dest.events('蓝海之星'), { ...loud }));
      act(() => client.publish(dest.events('长风号'), { type: 'acknowledged', id: eventOf(2).id, acknowledgedBy: 'demo', acknowledgedAt: 1 } satisfies EventNotice));
      await waitFor(() => expect(invalidate.mock.calls.length).toBeGreaterThanOrEqual(4));
      expect(notices()).toEqual([text]);
    });
  }
});
