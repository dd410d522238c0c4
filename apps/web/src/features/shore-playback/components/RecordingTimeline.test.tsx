import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { CameraGaps, RecordingSummary } from '@ship-cctv/protocol';
import { AppProviders } from '../../../app/providers.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import { createI18n } from '../../../i18n/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../../lib/runtime-config.ts';
import { timelineRows } from '../timeline.ts';
import { RecordingTimeline } from './RecordingTimeline.tsx';

const T0 = Date.UTC(2026, 10, 29, 0, 0, 0);
const MIN = 60_000;
const rec = (id: string, start: number, end: number): RecordingSummary => ({ id, orgId: 'o', shipId: 'S1', cameraId: 'C1', recordConfigId: 'c', templateId: 6, start, end, bytes: 1, segments: 1, backfilled: false, definition: null });
const records = [rec('a', T0, T0 + 10 * MIN), rec('b', T0 + 40 * MIN, T0 + 50 * MIN)];
const gaps: CameraGaps[] = [
  {
    shipId: 'S1',
    cameraId: 'C1',
    gaps: [
      { start: T0 + 10 * MIN, end: T0 + 20 * MIN, cause: 'linkDown' },
      { start: T0 + 20 * MIN, end: T0 + 30 * MIN, cause: 'budgetHeld' },
      { start: T0 + 30 * MIN, end: T0 + 40 * MIN, cause: 'backfillPending' },
      { start: T0 + 50 * MIN, end: T0 + 60 * MIN, cause: 'nothingOnShip' },
    ],
  },
  // A camera with nothing recorded in the whole span still gets its row, and why.
  { shipId: 'S1', cameraId: 'C2', gaps: [{ start: T0, end: T0 + 60 * MIN, cause: 'cameraSilent' }] },
];

function show(language: 'en' | 'zh-CN') {
  return render(
    <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)} queryClient={createQueryClient()}>
      <RecordingTimeline rows={timelineRows(records, gaps)} window={{ start: T0, end: T0 + 60 * MIN }} onWindow={vi.fn()} current={undefined} onSeek={vi.fn()} cameraLabel={(id) => id} />
    </AppProviders>,
  );
}

describe('the shore recording timeline shows every gap with its cause', { timeout: 30_000 }, () => {
  it('draws the gaps between recordings by cause, rows for cameras with only gaps, and a legend (English)', async () => {
    const view = show('en');
    const row = screen.getByTestId('timeline-row-C1');
    expect([...row.querySelectorAll('[data-testid^="gap-"]')].map((g) => g.getAttribute('data-testid'))).toEqual(['gap-linkDown', 'gap-budgetHeld', 'gap-backfillPending', 'gap-nothingOnShip']);
    expect(screen.getByTestId('span-a')).toBeTruthy();
    const silent = screen.getByTestId('timeline-row-C2').querySelector('[data-testid="gap-cameraSilent"]');
    expect(silent?.getAttribute('aria-label')).toMatch(/^Camera not sending: /);
    expect(screen.getByTestId('gap-linkDown').getAttribute('data-gap-start')).toBe(String(T0 + 10 * MIN));
    const legend = screen.getByTestId('gap-legend');
    expect([...legend.querySelectorAll('[role="listitem"]')].map((i) => i.textContent)).toEqual([
      'Ship link down',
      'Camera not sending',
      'Nothing on the ship either',
      'Held by the data budget',
      'Being fetched from the ship',
    ]);
    await act(() => fireEvent.mouseEnter(screen.getByTestId('legend-nothingOnShip')));
    expect((await screen.findByRole('tooltip')).textContent).toContain('cannot be fetched back');
    view.unmount();
  });

  it('words the causes in Chinese', () => {
    const view = show('zh-CN');
    expect(screen.getByTestId('gap-budgetHeld').getAttribute('aria-label')).toMatch(/^流量预算暂停直播：/);
    expect(screen.getByTestId('gap-legend').textContent).toContain('正在从船端补传');
    view.unmount();
  });
});
