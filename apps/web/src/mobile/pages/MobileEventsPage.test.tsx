import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import type { UserInfo } from '@ship-cctv/protocol';
import { createI18n, type Language } from '../../i18n/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../lib/runtime-config.ts';
import { sessionStore } from '../../lib/session-store.ts';
import { pickOrg } from '../../shared/source-tree/index.ts';
import { eventOf, serveEvents } from '../../test/events-server.ts';
import { isPlayNowState } from '../play-session.ts';
import { MobileProviders } from '../providers.tsx';
import { MobileEventsPage } from './MobileEventsPage.tsx';

function PlaybackProbe() {
  const { state } = useLocation() as { state: unknown };
  if (!isPlayNowState(state)) return <div data-testid="playback">none</div>;
  const { source, options } = state.playNow;
  return <div data-testid="playback">{JSON.stringify({ cameraId: source.cameraId, channelId: source.channelId, start: options.start, speed: options.speed })}</div>;
}

function renderPage(language: Language) {
  return render(
    <MobileProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)}>
      <MemoryRouter initialEntries={['/events']}>
        <Routes>
          <Route path="/events" element={<MobileEventsPage />} />
          <Route path="/remoteLive" element={<PlaybackProbe />} />
        </Routes>
      </MemoryRouter>
    </MobileProviders>,
  );
}

const item = async (container: HTMLElement, id: string) => {
  await waitFor(() => expect(container.querySelector(`[data-event-id="${id}"]`)).not.toBeNull(), { timeout: 10_000 });
  return within(container.querySelector(`[data-event-id="${id}"]`) as HTMLElement);
};

describe('events screen (phone)', { timeout: 30_000 }, () => {
  beforeEach(() => {
    sessionStore.signedIn({ id: `u-mobile-events-${Math.random()}` } as UserInfo);
    act(() => pickOrg('blueocean'));
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    sessionStore.clear();
  });

  for (const [language, person, acknowledge, total, pageText] of [
    ['zh-CN', '人员 92% · 移动 100%', '确认', '共 12 个事件', '第 1 / 2 页'],
    ['en', 'Person 92% · Motion 100%', 'Acknowledge', '12 events', 'Page 1 of 2'],
  ] as const) {
    it(`lists events with pictures in pages of 10 and acknowledges one (${language})`, async () => {
      const server = serveEvents(Array.from({ length: 12 }, (_, i) => eventOf(i + 1)));
      const { container } = renderPage(language);
      const newest = await item(container, eventOf(12).id);
      expect(newest.getByText(person)).toBeTruthy();
      expect(container.querySelector(`[data-event-id="${eventOf(12).id}"] img`)?.getAttribute('src')).toBe(`/api/v1/cctv/events/${eventOf(12).id}/picture`);
      expect(screen.getByTestId('events-total').textContent).toBe(total);
      expect(screen.getByTestId('events-page').textContent).toBe(pageText);
      expect(container.querySelectorAll('[data-event-id]')).toHaveLength(10);

      fireEvent.click(newest.getByRole('button', { name: acknowledge }));
      await waitFor(() => expect(container.querySelector(`[data-event-id="${eventOf(12).id}"] [data-event-ack="true"]`)).not.toBeNull());
      expect(server.callsTo('POST', `/api/v1/cctv/events/${eventOf(12).id}/acknowledge`)).toHaveLength(1);
    });
  }

  it('acknowledges the ticked events together and turns pages', async () => {
    const server = serveEvents(Array.from({ length: 12 }, (_, i) => eventOf(i + 1)));
    const { container } = renderPage('en');
    await item(container, eventOf(12).id);
    for (const n of [12, 11]) fireEvent.click(container.querySelector(`[data-event-id="${eventOf(n).id}"] .adm-checkbox`) as HTMLElement);
    fireEvent.click(screen.getByTestId('events-acknowledge-selected'));
    await waitFor(() => expect(server.callsTo('POST', '/api/v1/cctv/events/acknowledge')).toHaveLength(1));
    expect((server.callsTo('POST', '/api/v1/cctv/events/acknowledge')[0]?.body as { ids: string[] }).ids.sort()).toEqual([eventOf(11).id, eventOf(12).id]);

    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await item(container, eventOf(1).id);
    expect(container.querySelectorAll('[data-event-id]')).toHaveLength(2);
    expect(server.callsTo('GET', '/api/v1/cctv/events').at(-1)?.query.get('page')).toBe('2');
  });

  it('plays the moment on the playback tab from the event start − 5 s', async () => {
    serveEvents([eventOf(1)]);
    const { container } = renderPage('en');
    const one = await item(container, eventOf(1).id);
    fireEvent.click(one.getByRole('button', { name: 'Play this moment' }));
    const shown = await screen.findByTestId('playback', {}, { timeout: 10_000 });
    expect(JSON.parse(shown.textContent ?? '{}')).toEqual({ cameraId: 'C1-1', channelId: 'C1', start: eventOf(1).start - 5_000, speed: 1 });
  });

  it('filters by class and draws the timeline', async () => {
    const server = serveEvents([eventOf(1), eventOf(2, { classes: [{ class: 'boat', score: 0.8 }], cameraId: 'C2-1', cameraName: 'Port' })]);
    const { container } = renderPage('en');
    await item(container, eventOf(1).id);
    fireEvent.click(screen.getByText('Boat'));
    await waitFor(() => expect(container.querySelectorAll('[data-event-id]')).toHaveLength(1));
    expect(server.callsTo('GET', '/api/v1/cctv/events').at(-1)?.query.get('class')).toBe('boat');
    fireEvent.click(screen.getByText('Timeline'));
    const timeline = await screen.findByTestId('event-timeline');
    expect([...timeline.querySelectorAll('[data-timeline-row]')].map((r) => r.getAttribute('data-timeline-row'))).toEqual(['C2-1']);
  });
});
