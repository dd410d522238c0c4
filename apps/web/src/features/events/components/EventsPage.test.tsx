import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import type { UserInfo } from '@ship-cctv/protocol';
import { AppProviders } from '../../../app/providers.tsx';
import { createI18n, type Language } from '../../../i18n/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../../lib/runtime-config.ts';
import { sessionStore } from '../../../lib/session-store.ts';
import { pickOrg } from '../../../shared/source-tree/index.ts';
import { eventOf, serveEvents } from '../../../test/events-server.ts';
import { isPlayAtState } from '../../playback/index.ts';
import { EventsPage } from './EventsPage.tsx';

/** Where "play this moment" lands: shows what the ship playback screen was asked to play. */
function PlaybackProbe() {
  const { state } = useLocation() as { state: unknown };
  if (!isPlayAtState(state)) return <div data-testid="playback">none</div>;
  const { source, options } = state.playAt;
  return <div data-testid="playback">{JSON.stringify({ cameraId: source.cameraId, shipId: source.shipId, title: source.title, start: options.start, end: options.end, speed: options.speed })}</div>;
}

function renderPage(language: Language) {
  return render(
    <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)}>
      <MemoryRouter initialEntries={['/events']}>
        <Routes>
          <Route path="/events" element={<EventsPage />} />
          <Route path="/live/recordlivevideo" element={<PlaybackProbe />} />
        </Routes>
      </MemoryRouter>
    </AppProviders>,
  );
}

const rowOf = (container: HTMLElement, id: string) => container.querySelector<HTMLElement>(`tr[data-event-id="${id}"]`);
async function findRow(container: HTMLElement, id: string) {
  await waitFor(() => expect(rowOf(container, id)).not.toBeNull(), { timeout: 10_000 });
  return within(rowOf(container, id) as HTMLElement);
}

/** Opens an antd Select and picks the option with this text. */
async function choose(container: HTMLElement, filter: string, option: string) {
  const select = container.querySelector(`[data-event-filter="${filter}"]`) ?? container.querySelector(`.ant-select[aria-label="${filter}"]`);
  const opener = select?.querySelector('.ant-select-selector') ?? select;
  fireEvent.mouseDown(opener as Element);
  const item = await waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].find((el) => el.textContent === option);
    expect(found).toBeDefined();
    return found as HTMLElement;
  });
  fireEvent.click(item);
}

describe('events screen (desktop)', { timeout: 30_000 }, () => {
  beforeEach(() => {
    sessionStore.signedIn({ id: `u-events-${Math.random()}` } as UserInfo);
    act(() => pickOrg('blueocean'));
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    sessionStore.clear();
  });

  for (const [language, person, unacknowledged, total] of [
    ['en', 'Person 92%', 'Unacknowledged', '3 events'],
    ['zh-CN', '人员 92%', '未确认', '共 3 个事件'],
  ] as const) {
    it(`lists events newest first with their pictures, classes and state (${language})`, async () => {
      serveEvents([eventOf(1), eventOf(2, { acknowledgedBy: 'njzsz', acknowledgedAt: eventOf(2).start + 60_000 }), eventOf(3, { classes: [{ class: 'boat', score: 0.7 }], zone: undefined })]);
      const { container } = renderPage(language);
      const first = await findRow(container, eventOf(1).id);
      expect(first.getByText(person)).toBeTruthy();
      expect(first.getByText(unacknowledged)).toBeTruthy();
      const picture = rowOf(container, eventOf(1).id)?.querySelector('img');
      expect(picture?.getAttribute('src')).toBe(`/api/v1/cctv/events/${eventOf(1).id}/picture`);
      expect(picture?.getAttribute('alt')).toContain('BLUE OCEAN STAR 蓝海之星');
      expect(screen.getByTestId('events-total').textContent).toBe(total);
      const order = [...container.querySelectorAll('tr[data-event-id]')].map((tr) => tr.getAttribute('data-event-id'));
      expect(order).toEqual([eventOf(3).id, eventOf(2).id, eventOf(1).id]);
      expect(rowOf(container, eventOf(2).id)?.querySelector('[data-event-ack="true"]')?.textContent).toContain('njzsz');
    });
  }

  it('asks the server with the filters chosen, from page 1', async () => {
    const server = serveEvents([eventOf(1), eventOf(2, { classes: [{ class: 'boat', score: 0.8 }] })]);
    const { container } = renderPage('en');
    await findRow(container, eventOf(2).id);
    await choose(container, 'class', 'Boat');
    await waitFor(() => expect(container.querySelectorAll('tr[data-event-id]')).toHaveLength(1));
    expect(rowOf(container, eventOf(2).id)).not.toBeNull();
    const last = server.callsTo('GET', '/api/v1/cctv/events').at(-1);
    expect(last?.query.get('class')).toBe('boat');
    expect(last?.query.get('page')).toBe('1');

    await choose(container, 'acknowledged', 'Unacknowledged');
    await waitFor(() => expect(server.callsTo('GET', '/api/v1/cctv/events').at(-1)?.query.get('acknowledged')).toBe('false'));
  });

  it('acknowledges one event, then the ticked ones together', async () => {
    const server = serveEvents([eventOf(1), eventOf(2), eventOf(3)]);
    const { container } = renderPage('en');
    const row = await findRow(container, eventOf(3).id);
    fireEvent.click(row.getByRole('button', { name: /Acknowledge/ }));
    await waitFor(() => expect(rowOf(container, eventOf(3).id)?.querySelector('[data-event-ack="true"]')?.textContent).toContain('Acknowledged by demo at '));
    expect(server.callsTo('POST', `/api/v1/cctv/events/${eventOf(3).id}/acknowledge`)).toHaveLength(1);

    const bulk = screen.getByTestId('events-acknowledge-selected') as HTMLButtonElement;
    expect(bulk.disabled).toBe(true);
    for (const id of [eventOf(1).id, eventOf(2).id]) fireEvent.click(rowOf(container, id)?.querySelector('input[type="checkbox"]') as HTMLElement);
    await waitFor(() => expect(bulk.disabled).toBe(false));
    fireEvent.click(bulk);
    await waitFor(() => expect(server.callsTo('POST', '/api/v1/cctv/events/acknowledge')).toHaveLength(1));
    expect((server.callsTo('POST', '/api/v1/cctv/events/acknowledge')[0]?.body as { ids: string[] }).ids.sort()).toEqual([eventOf(1).id, eventOf(2).id]);
    await waitFor(() => expect(container.querySelectorAll('[data-event-ack="false"]')).toHaveLength(0));
    expect(server.events().every((e) => e.acknowledgedBy === 'demo')).toBe(true);
  });

  it('deletes an event after a confirmation', async () => {
    const server = serveEvents([eventOf(1), eventOf(2)]);
    const { container } = renderPage('zh-CN');
    const row = await findRow(container, eventOf(1).id);
    fireEvent.click(row.getByRole('button', { name: '删除' }));
    const ok = await waitFor(() => {
      const button = document.querySelector<HTMLElement>('.ant-popconfirm .ant-btn-dangerous.ant-btn-primary, .ant-popconfirm .ant-btn-primary');
      expect(button?.textContent?.replace(/\s/g, '')).toBe('删除');
      return button as HTMLElement;
    });
    expect(document.querySelector('.ant-popconfirm')?.textContent).toContain('删除此事件及其图片？');
    fireEvent.click(ok);
    await waitFor(() => expect(rowOf(container, eventOf(1).id)).toBeNull());
    expect(server.callsTo('DELETE', `/api/v1/cctv/events/${eventOf(1).id}`)).toHaveLength(1);
    expect(rowOf(container, eventOf(2).id)).not.toBeNull();
  });

  it('offers an operator no delete (shore refuses it), but acknowledging', async () => {
    sessionStore.signedIn({ id: `u-operator-${Math.random()}`, role: 'operator' } as UserInfo);
    serveEvents([eventOf(1)]);
    const { container } = renderPage('en');
    const row = await findRow(container, eventOf(1).id);
    expect(row.getByRole('button', { name: /Acknowledge/ })).toBeTruthy();
    expect(rowOf(container, eventOf(1).id)?.querySelector('[data-event-action="delete"]')).toBeNull();
  });

  it('plays the moment: ship playback of the camera from the event start − 5 s, at 1×', async () => {
    serveEvents([eventOf(1)]);
    const { container } = renderPage('en');
    const row = await findRow(container, eventOf(1).id);
    fireEvent.click(row.getByRole('button', { name: /Play this moment/ }));
    const shown = await screen.findByTestId('playback', {}, { timeout: 10_000 });
    const played = JSON.parse(shown.textContent ?? '{}') as Record<string, unknown>;
    expect(played).toEqual({ cameraId: 'C1-1', shipId: 'S1', title: 'Bridge', start: eventOf(1).start - 5_000, end: eventOf(1).start + 12_000 + 60_000, speed: 1 });
  });

  it('draws the page on a timeline, a row per camera', async () => {
    serveEvents([eventOf(1), eventOf(2, { cameraId: 'C2-1', cameraName: 'Port' }), eventOf(3)]);
    const { container } = renderPage('en');
    await findRow(container, eventOf(1).id);
    fireEvent.click(screen.getByText('Timeline'));
    const timeline = await screen.findByTestId('event-timeline');
    const rows = [...timeline.querySelectorAll('[data-timeline-row]')].map((r) => [r.getAttribute('data-timeline-row'), r.querySelectorAll('[data-timeline-event]').length]);
    expect(rows).toEqual([
      ['C1-1', 2],
      ['C2-1', 1],
    ]);
    const mark = timeline.querySelector(`[data-timeline-event="${eventOf(2).id}"]`);
    expect(mark?.getAttribute('aria-label')).toContain('Person 92%');
  });
});
