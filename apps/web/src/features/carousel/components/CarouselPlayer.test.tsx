import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { dest, type CarouselDetail, type CarouselStatus } from '@ship-cctv/protocol';
import { AppProviders } from '../../../app/providers.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import { createI18n } from '../../../i18n/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../../lib/runtime-config.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { realtime } from '../../../lib/realtime/index.ts';
import { FakeStompClient } from '../../../test/fake-stomp.ts';
import { testCarousel, testCell, testStatus } from '../test-data.ts';
import { CarouselPlayer } from './CarouselPlayer.tsx';

afterEach(() => {
  vi.restoreAllMocks();
  realtime.store.reset();
});

const PAGE_1 = ['S1001-C01', 'S1001-C02', 'S1001-C03', 'S1001-C04'].map((id) => testCell(id));
const PAGE_2 = ['S1002-C01', 'S1002-C03'].map((id) => testCell(id));
const task = testCarousel({ id: 'task0001', kind: 'task', name: 'Night round', running: true, seconds: 20, dwellMs: 20_000 });
const detail: CarouselDetail = { carousel: task, cells: [...PAGE_1, ...PAGE_2], prewarmSeconds: 5 };

/** Answers the player's calls: the detail, then the statuses in turn (the last one repeats). */
function serve(statuses: CarouselStatus[]) {
  const asked: CarouselStatus[] = [...statuses];
  return vi.spyOn(apiClient, 'get').mockImplementation(async (path: string) => {
    if (path === '/cctv/carousel/info2/task0001') return detail as never;
    if (path === '/cctv/carousel/task/status/task0001') return (asked.length > 1 ? asked.shift() : asked[0]) as never;
    // Ship configurations of the cells: never answered here.
    return new Promise(() => undefined);
  });
}

function renderPlayer() {
  const onExit = vi.fn();
  render(
    <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n('en')} queryClient={createQueryClient()}>
      <CarouselPlayer id="task0001" kind="task" onExit={onExit} />
    </AppProviders>,
  );
  return { onExit };
}

const slot = (channelId: string) => document.querySelector<HTMLElement>(`[data-channel-id="${channelId}"]`);
const visibleIds = () => [...document.querySelectorAll<HTMLElement>('[data-channel-id][data-visible="true"]')].map((el) => el.dataset.channelId);
const hiddenIds = () => [...document.querySelectorAll<HTMLElement>('[data-channel-id][data-visible="false"]')].map((el) => el.dataset.channelId);

describe('the player of a carousel task', { timeout: 30_000 }, () => {
  it("shows shore's page, and the next one when shore says so; pause, next and previous are shore's", async () => {
    serve([testStatus({ id: 'task0001', page: 0, cells: PAGE_1, next: PAGE_2 })]);
    const stomp = new FakeStompClient();
    realtime.store.connected(stomp);
    renderPlayer();
    await waitFor(() => expect(screen.getByTestId('carousel-page').textContent).toBe('Page 1 / 2'));
    expect(visibleIds()).toEqual(PAGE_1.map((c) => c.channelId));
    // 20 s away, beyond the 5 s pre-warm: nothing of page 2 is mounted yet.
    expect(hiddenIds()).toEqual([]);
    expect(screen.getByTestId('carousel-countdown').textContent).toMatch(/^Next page in 0:(20|19)$/);
    for (const name of ['Previous page', 'Pause', 'Next page']) expect(screen.getByRole('button', { name }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: /Stop task/ })).toBeTruthy();

    act(() => stomp.publish(dest.carousel('task0001'), testStatus({ id: 'task0001', page: 1, cells: PAGE_2, next: PAGE_1, serverTime: Date.now() + 1 })));
    await waitFor(() => expect(screen.getByTestId('carousel-page').textContent).toBe('Page 2 / 2'));
    expect(visibleIds()).toEqual(PAGE_2.map((c) => c.channelId));
  });

  it('pre-warms the next page hidden, and shows the same elements at the switch', async () => {
    serve([testStatus({ id: 'task0001', page: 0, cells: PAGE_1, next: PAGE_2, switchAt: Date.now() + 3_000 })]);
    const stomp = new FakeStompClient();
    realtime.store.connected(stomp);
    renderPlayer();
    // 3 s before the switch, within the 5 s pre-warm: page 2's cells are mounted, hidden, at their places.
    await waitFor(() => expect(hiddenIds()).toEqual(PAGE_2.map((c) => c.channelId)));
    const warm = PAGE_2.map((c) => slot(c.channelId));
    expect(warm.every((el) => el?.getAttribute('aria-hidden') === 'true')).toBe(true);
    expect(warm[0]?.style.gridRow).toBe('1');
    expect(warm[1]?.style.gridColumn).toBe('2');

    act(() => stomp.publish(dest.carousel('task0001'), testStatus({ id: 'task0001', page: 1, cells: PAGE_2, next: PAGE_1, serverTime: Date.now() + 1, switchAt: Date.now() + 20_000 })));
    await waitFor(() => expect(visibleIds()).toEqual(PAGE_2.map((c) => c.channelId)));
    // The very elements that were warming, now shown; page 1's cells are gone (their streams stop).
    expect(PAGE_2.map((c) => slot(c.channelId))).toEqual(warm);
    expect(PAGE_1.map((c) => slot(c.channelId))).toEqual([null, null, null, null]);
  });

  it('asks shore again when no message came by the switch plus 2 s', async () => {
    const get = serve([
      testStatus({ id: 'task0001', page: 0, cells: PAGE_1, next: PAGE_2, switchAt: Date.now() - 2_500 }),
      testStatus({ id: 'task0001', page: 1, cells: PAGE_2, next: PAGE_1, switchAt: Date.now() + 17_500, serverTime: Date.now() + 1 }),
    ]);
    renderPlayer();
    await waitFor(() => expect(screen.getByTestId('carousel-page').textContent).toBe('Page 2 / 2'));
    expect(get.mock.calls.filter(([path]) => path === '/cctv/carousel/task/status/task0001')).toHaveLength(2);
    expect(visibleIds()).toEqual(PAGE_2.map((c) => c.channelId));
  });

  it("says at once that a cell's ship is offline, with no player", async () => {
    const offline = testCell('S1003-C01', { online: false, channelName: 'Bridge', shipDisplayName: 'FAR VOYAGER' });
    serve([testStatus({ id: 'task0001', page: 0, pageCount: 1, cells: [PAGE_1[0] ?? testCell('x'), offline], next: [] })]);
    renderPlayer();
    await waitFor(() => expect(slot('S1003-C01')).not.toBeNull());
    const card = slot('S1003-C01')?.querySelector('[data-state]');
    expect(card?.getAttribute('data-state')).toBe('offline');
    expect(card?.textContent).toContain('Ship offline');
    expect(slot('S1003-C01')?.querySelector('video')).toBeNull();
    expect(slot('S1001-C01')?.querySelector('video')).not.toBeNull();
  });

  it('shows a stopped task as stopped, with Start', async () => {
    serve([testStatus({ id: 'task0001', state: 'stopped', page: 0, cells: [], next: [], switchAt: null })]);
    renderPlayer();
    expect(await screen.findByText('This carousel task is stopped')).toBeTruthy();
    expect(screen.getByTestId('carousel-task-state').getAttribute('data-task-state')).toBe('stopped');
    expect(screen.getByRole('button', { name: /Start task/ })).toBeTruthy();
    expect(document.querySelector('[data-channel-id]')).toBeNull();
  });
});

describe('the player of a simple carousel', { timeout: 30_000 }, () => {
  it('runs here: pages of its cells by layout, next / previous wrapping, pause and resume', async () => {
    const simple = testCarousel({ id: 'simple01', kind: 'simple', name: 'Deck watch', layout: 4, channelIds: [...PAGE_1, ...PAGE_2].map((c) => c.channelId) });
    vi.spyOn(apiClient, 'get').mockImplementation(async (path: string) => {
      if (path === '/cctv/carousel/info1/simple01') return { carousel: simple, cells: [...PAGE_1, ...PAGE_2], prewarmSeconds: 5 } as never;
      return new Promise(() => undefined);
    });
    render(
      <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n('en')} queryClient={createQueryClient()}>
        <CarouselPlayer id="simple01" kind="simple" onExit={vi.fn()} />
      </AppProviders>,
    );
    await waitFor(() => expect(screen.getByTestId('carousel-page').textContent).toBe('Page 1 / 2'));
    expect(visibleIds()).toEqual(PAGE_1.map((c) => c.channelId));
    expect(screen.getByTestId('carousel-countdown').textContent).toMatch(/^Next page in (1:00|0:59)$/);
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(screen.getByTestId('carousel-page').textContent).toBe('Page 2 / 2'));
    expect(visibleIds()).toEqual(PAGE_2.map((c) => c.channelId));
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(screen.getByTestId('carousel-page').textContent).toBe('Page 1 / 2'));
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    await waitFor(() => expect(screen.getByTestId('carousel-page').textContent).toBe('Page 2 / 2'));
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    expect(await screen.findByText('Paused')).toBeTruthy();
    expect(screen.queryByTestId('carousel-countdown')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(screen.queryByText('Paused')).toBeNull());
    expect(screen.getByTestId('carousel-countdown')).toBeTruthy();
  });
});
