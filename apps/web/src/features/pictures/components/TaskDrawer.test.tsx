import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import type { SnapshotTaskDetail, SnapshotTaskStatus, TaskShot } from '@ship-cctv/protocol';
import { AppProviders } from '../../../app/providers.tsx';
import { createI18n, type Language } from '../../../i18n/index.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../../lib/runtime-config.ts';
import { TaskDrawer } from './TaskDrawer.tsx';

// A day's task at one picture every 72 s (0.02 h): 1,196 shots.
const START = Date.UTC(2026, 10, 28, 0, 0);
const RATE_MS = 72_000;
const SHOTS: TaskShot[] = Array.from({ length: 1196 }, (_, index) => ({
  cameraId: 'S1001-C01-1',
  index,
  plannedAt: START + index * RATE_MS,
  state: index < 1000 ? 'onShore' : index < 1050 ? 'failed' : 'planned',
  pictureId: null,
  reason: index >= 1000 && index < 1050 ? 'camera offline' : null,
}));
const TASK: SnapshotTaskStatus = {
  id: 'task1',
  orgId: 'blueocean',
  shipId: 'S1001',
  shipName: 'S1001',
  channelIds: ['S1001-C01'],
  cameraIds: ['S1001-C01-1'],
  rateHours: 0.02,
  start: START,
  end: START + SHOTS.length * RATE_MS,
  templateId: 720,
  state: 'active',
  createdAt: START,
  handedOverAt: START,
  counts: { total: 1196, planned: 146, onItsWay: 0, onShore: 1000, failed: 50 },
};

afterEach(() => vi.restoreAllMocks());

function renderDrawer(language: Language) {
  vi.spyOn(apiClient, 'post').mockImplementation(async (path: string) => (path === '/cctv-server/v3/getTasks' ? [TASK] : []) as never);
  vi.spyOn(apiClient, 'get').mockImplementation(async () => ({ task: TASK, shots: SHOTS }) satisfies SnapshotTaskDetail as never);
  render(
    <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)} queryClient={createQueryClient()}>
      <TaskDrawer ship={{ shipId: 'S1001', shipDisplayName: 'Ocean Star 海洋之星' }} open onClose={() => undefined} />
    </AppProviders>,
  );
}

describe('a snapshot task in the drawer', { timeout: 30_000 }, () => {
  it.each<[Language, { rate: string; shots: string; first: RegExp; failed: RegExp; size: string }]>([
    ['en', { rate: 'One every 1.2 min', shots: 'Shots', first: /: On shore: 25$/, failed: /: Failed: 25$/, size: 'Each bar: 30 minutes' }],
    ['zh-CN', { rate: '每 1.2 分钟一张', shots: '拍摄明细', first: /：已回岸 25$/, failed: /：失败 25$/, size: '每格 30 分钟' }],
  ])('gives the rate in minutes and 1,196 shots in 48 bars, each with its counts on hover (%s)', async (language, text) => {
    renderDrawer(language);
    const task = await screen.findByText(text.rate);
    const item = task.closest('[data-task-id]') as HTMLElement;
    fireEvent.click(within(item).getByRole('button', { name: text.shots }));
    const timeline = await within(item).findByTestId('task-timeline');
    const bars = within(timeline).getAllByRole('button');
    expect(bars).toHaveLength(48);
    expect(bars[0]?.getAttribute('aria-label')).toMatch(text.first);
    expect(bars.some((bar) => text.failed.test(bar.getAttribute('aria-label') ?? ''))).toBe(true);
    expect(within(item).getByTestId('task-bucket-size').textContent).toBe(text.size);
    // The tooltip is reachable: it opens on the bar and says what the bar holds.
    fireEvent.mouseEnter(bars[0] as HTMLElement);
    const tip = await screen.findByRole('tooltip');
    expect(tip.textContent).toMatch(text.first);
  });
});
