import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { VodQueryResult } from '@ship-cctv/protocol';
import { AppProviders } from '../../../app/providers.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import { createI18n } from '../../../i18n/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../../lib/runtime-config.ts';
import { RecordedStrip } from './RecordedStrip.tsx';

const T0 = Date.UTC(2026, 10, 29, 0, 0, 0);
const MIN = 60_000;
const range = { start: T0, end: T0 + 60 * MIN };
const clock = (epoch: number) => new Date(epoch).toISOString().slice(11, 16);

const result = (gaps: VodQueryResult['gaps'] | undefined): VodQueryResult =>
  ({ shipId: 'S1', cameraId: 'C1', ...range, spans: [{ start: T0, end: T0 + 20 * MIN }, { start: T0 + 30 * MIN, end: T0 + 40 * MIN }], cached: false, ...(gaps ? { gaps } : {}) }) as VodQueryResult;

function show(r: VodQueryResult, language: 'en' | 'zh-CN') {
  return render(
    <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)} queryClient={createQueryClient()}>
      <RecordedStrip result={r} failed={false} range={range} formatTime={clock} />
    </AppProviders>,
  );
}

describe('the ship-end playback strip shows the ship’s gaps with their cause', { timeout: 30_000 }, () => {
  const gaps: VodQueryResult['gaps'] = [
    { start: T0 + 20 * MIN, end: T0 + 30 * MIN, cause: 'agentStopped' },
    { start: T0 + 40 * MIN, end: T0 + 45 * MIN, cause: 'cameraSilent' },
    { start: T0 + 45 * MIN, end: T0 + 60 * MIN, cause: 'diskFull' },
  ];

  it('places each gap where it lies, says its cause and time, and explains the causes in a legend (English)', async () => {
    const view = show(result(gaps), 'en');
    const stopped = screen.getByTestId('gap-agentStopped');
    expect(stopped.style.left).toBe(`${(20 / 60) * 100}%`);
    expect(stopped.getAttribute('aria-label')).toBe('Ship agent not running: 00:20 — 00:30');
    expect(screen.getByTestId('gap-cameraSilent').getAttribute('aria-label')).toBe('Camera not sending: 00:40 — 00:45');
    expect(screen.getByTestId('gap-diskFull').style.width).toBe(`${(15 / 60) * 100}%`);
    const legend = screen.getByTestId('gap-legend');
    expect([...legend.querySelectorAll('[role="listitem"]')].map((i) => i.textContent)).toEqual(['Camera not sending', 'Ship disk full', 'Ship agent not running']);
    // Hovering a gap tells what its cause means.
    await act(() => fireEvent.mouseEnter(screen.getByTestId('gap-diskFull')));
    expect((await screen.findByRole('tooltip')).textContent).toContain('The ship’s disk was full');
    view.unmount();
  });

  it('says the same in Chinese', () => {
    const view = show(result(gaps), 'zh-CN');
    expect(screen.getByTestId('gap-agentStopped').getAttribute('aria-label')).toBe('船端程序未运行：00:20 — 00:30');
    expect(screen.getByTestId('gap-legend').textContent).toContain('船端磁盘已满');
    view.unmount();
  });

  it('shows the spans alone, and no legend, for a shore that answers without gaps', () => {
    const view = show(result(undefined), 'en');
    expect(screen.queryByTestId('gap-legend')).toBeNull();
    expect(screen.getByTestId('recorded-spans').children).toHaveLength(2);
    view.unmount();
  });
});
