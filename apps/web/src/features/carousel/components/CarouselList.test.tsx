import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { dest } from '@ship-cctv/protocol';
import { AppProviders } from '../../../app/providers.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import { createI18n } from '../../../i18n/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../../lib/runtime-config.ts';
import { ApiError, apiClient } from '../../../lib/api-client.ts';
import { realtime } from '../../../lib/realtime/index.ts';
import { FakeStompClient } from '../../../test/fake-stomp.ts';
import { testCarousel, testStatus } from '../test-data.ts';
import { CarouselList } from './CarouselList.tsx';

afterEach(() => {
  vi.restoreAllMocks();
  realtime.store.reset();
});

const simple = testCarousel({ id: 'simple01', name: 'Deck watch' });
const running = testCarousel({ id: 'task0001', kind: 'task', name: 'Night round', running: true, seconds: 20, mode: 'ships', shipIds: ['S1001', 'S1002'] });
const stopped = testCarousel({ id: 'task0002', kind: 'task', name: 'Engine rooms', running: false, layout: 9 });

function renderList(kind: 'simple' | 'task', handlers: { onPlay?: () => void } = {}) {
  const onKindChange = vi.fn();
  render(
    <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n('en')} queryClient={createQueryClient()}>
      <CarouselList orgId="blueocean" kind={kind} onKindChange={onKindChange} onPlay={handlers.onPlay ?? vi.fn()} onEdit={vi.fn()} onCreate={vi.fn()} />
    </AppProviders>,
  );
  return { onKindChange };
}

describe('CarouselList', { timeout: 30_000 }, () => {
  it("lists the organisation's simple carousels with their layout, time and channels", async () => {
    const get = vi.spyOn(apiClient, 'get').mockImplementation(async (path: string) => (path === '/cctv/carousel/simple/list' ? [simple] : []) as never);
    const onPlay = vi.fn();
    const { onKindChange } = renderList('simple', { onPlay });
    const row = (await screen.findByText('Deck watch')).closest('tr');
    expect(row?.getAttribute('data-carousel-id')).toBe('simple01');
    const cells = within(row as HTMLElement);
    expect(cells.getByText('4 cells')).toBeTruthy();
    expect(cells.getByText('1 min')).toBeTruthy();
    expect(cells.getByText('Channels: 2')).toBeTruthy();
    expect(get).toHaveBeenCalledWith('/cctv/carousel/simple/list', { query: { orgId: 'blueocean' } });
    fireEvent.click(cells.getByRole('button', { name: /Play/ }));
    expect(onPlay).toHaveBeenCalledWith(simple);
    fireEvent.click(screen.getByRole('tab', { name: 'Carousel tasks' }));
    expect(onKindChange).toHaveBeenCalledWith('task');
  });

  it("shows each task's state, following a started one over STOMP, with start or stop", async () => {
    vi.spyOn(apiClient, 'get').mockImplementation(async (path: string) => {
      if (path === '/cctv/carousel/task/list') return [running, stopped] as never;
      if (path === '/cctv/carousel/task/status/task0001') return testStatus({ id: 'task0001', state: 'waiting' }) as never;
      throw new ApiError('envelope', 404, `unexpected ${path}`, 404);
    });
    const stomp = new FakeStompClient();
    realtime.store.connected(stomp);
    renderList('task');

    const runningRow = within((await screen.findByText('Night round')).closest('tr') as HTMLElement);
    const stoppedRow = within(screen.getByText('Engine rooms').closest('tr') as HTMLElement);
    expect(runningRow.getByText('20 s')).toBeTruthy();
    expect(runningRow.getByText('Ships: 2')).toBeTruthy();
    expect(stoppedRow.getByText('Stopped').getAttribute('data-task-state')).toBe('stopped');
    expect(stoppedRow.getByRole('button', { name: /Start/ })).toBeTruthy();
    // Started: its status says waiting (outside its schedule), and it can be stopped.
    await waitFor(() => expect(runningRow.getByText('Waiting').getAttribute('data-task-state')).toBe('waiting'));
    expect(runningRow.getByRole('button', { name: /Stop/ })).toBeTruthy();
    // Only the started task is followed.
    expect(stomp.log).toEqual([`SUB ${dest.carousel('task0001')}`]);
    // Shore's window opens: the message says running.
    act(() => stomp.publish(dest.carousel('task0001'), testStatus({ id: 'task0001', state: 'running', serverTime: Date.now() + 1_000 })));
    await waitFor(() => expect(runningRow.getByText('Running').getAttribute('data-task-state')).toBe('running'));
  });

  it('says why a list could not be loaded', async () => {
    vi.spyOn(apiClient, 'get').mockRejectedValue(new ApiError('envelope', 403, 'No access to this organisation', 403));
    renderList('simple');
    // One retry (the app's default), then the server's words.
    expect(await screen.findByText('Loading failed: No access to this organisation', undefined, { timeout: 5_000 })).toBeTruthy();
  });
});
