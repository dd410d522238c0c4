import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ShipConfig } from '@ship-cctv/protocol';
import { AppProviders } from '../../../app/providers.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import { createI18n, type Language } from '../../../i18n/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../../lib/runtime-config.ts';
import { shipConfigQuery } from '../../../shared/player-cell/index.ts';
import { DEFAULT_WINDOW_MS, type PlaybackOptions } from '../options.ts';
import { PlaybackOptionsDialog, type PlaybackTarget } from './PlaybackOptionsDialog.tsx';

/** 2025-05-01 12:00:00 in China (UTC+8). */
const NOW = Date.UTC(2025, 4, 1, 4, 0, 0);
const TARGET: PlaybackTarget = { cameraId: 'S1001-C01-1', title: 'Bridge', orgId: 'blueocean', shipId: 'S1001' };

const model = (id: number, displayName: string) => ({ id, displayName, width: 640, height: 360, frameRate: 10, bitrateKbps: 400, codec: 'h264' });
const CONFIG: ShipConfig = {
  groupAliasResDTOS: [{ id: 2, displayName: '标准', defaultModelId: 6, models: [model(5, '流畅'), model(6, '标清')] }],
  defaultGroupId: 2,
  talk: false,
  audio: false,
};

function renderDialog(options: { config?: ShipConfig; initial?: PlaybackOptions; language?: Language } = {}) {
  const queryClient = createQueryClient();
  queryClient.setQueryData(shipConfigQuery(TARGET.orgId, TARGET.shipId).queryKey, options.config ?? CONFIG);
  const onSubmit = vi.fn<(o: PlaybackOptions) => void>();
  const onCancel = vi.fn();
  render(
    <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(options.language ?? 'zh-CN')} queryClient={queryClient}>
      <PlaybackOptionsDialog target={TARGET} initial={options.initial} onSubmit={onSubmit} onCancel={onCancel} now={() => NOW} />
    </AppProviders>,
  );
  return { onSubmit, onCancel };
}

const inputValue = (label: string) => (screen.getByLabelText(label) as HTMLInputElement).value;
const submit = (label = '开始回放') => act(() => fireEvent.click(screen.getByRole('button', { name: label })));

// antd's first render of the pickers is slow on a busy machine; the default 5 s is too tight.
describe('PlaybackOptionsDialog', { timeout: 30_000 }, () => {
  it('starts from the spec defaults: China Standard Time, the last 24 hours, 16×, the ship’s default template', async () => {
    const { onSubmit } = renderDialog();
    expect(screen.getByText('船端回放：Bridge')).toBeTruthy();
    expect(screen.getByText('(UTC+08:00) 北京，重庆，香港，乌鲁木齐')).toBeTruthy();
    expect(inputValue('开始时间')).toBe('2025-04-30 12:00:00');
    expect(inputValue('结束时间')).toBe('2025-05-01 12:00:00');
    expect(screen.getAllByRole('radio').map((r) => r.closest('label')?.textContent)).toEqual(['16倍', '8倍', '4倍', '2倍', '1倍']);
    expect((screen.getByRole('radio', { name: '16倍' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText('标准 / 标清')).toBeTruthy();
    submit();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce());
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({ timeZoneId: 'China Standard Time', start: NOW - DEFAULT_WINDOW_MS, end: NOW, speed: 16, template: [2, 6] });
  });

  it('shows “无默认清晰度模板” at once and does not start without a default template', () => {
    const { onSubmit } = renderDialog({ config: { ...CONFIG, defaultGroupId: null } });
    expect(screen.getByText('无默认清晰度模板')).toBeTruthy();
    const ok = screen.getByRole('button', { name: '开始回放' });
    expect(ok.hasAttribute('disabled')).toBe(true);
    submit();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('refuses an end before the start, at the end field', async () => {
    const { onSubmit } = renderDialog({ initial: { timeZoneId: 'China Standard Time', start: NOW - 1000, end: NOW - 60_000, speed: 4, template: [2, 5] } });
    expect(screen.queryByText('结束时间不能早于开始时间')).toBeNull(); // not before the operator tries
    submit();
    expect(await screen.findByText('结束时间不能早于开始时间')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('refuses times after now', async () => {
    const { onSubmit } = renderDialog({ initial: { timeZoneId: 'UTC', start: NOW + 60_000, end: NOW + 120_000, speed: 16, template: [2, 6] } });
    submit();
    expect(await screen.findByText('开始时间不能晚于当前时间')).toBeTruthy();
    expect(screen.getByText('结束时间不能晚于当前时间')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('finds a zone by its Chinese name and shows the same instants on its clock', async () => {
    const { onSubmit } = renderDialog();
    const zone = screen.getByLabelText('时区');
    act(() => {
      fireEvent.mouseDown(zone);
      fireEvent.change(zone, { target: { value: '加德满都' } });
    });
    const option = await screen.findByText('(UTC+05:45) 加德满都');
    expect(screen.queryByText('(UTC+08:00) 北京，重庆，香港，乌鲁木齐', { selector: '.ant-select-item-option-content' })).toBeNull();
    act(() => fireEvent.click(option));
    // 12:00 in China is 09:45 in Kathmandu.
    await waitFor(() => expect(inputValue('结束时间')).toBe('2025-05-01 09:45:00'));
    expect(screen.getByText('时间按所选时区填写，当前为 2025-05-01 09:45:00')).toBeTruthy();
    submit();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce());
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ timeZoneId: 'Nepal Standard Time', end: NOW });
  });

  it('“此刻” and the calendar’s today follow the chosen zone’s clock, not the browser’s', async () => {
    // 20:00 UTC on 1 May is already 01:45 on 2 May in Kathmandu (+05:45), whatever the browser's zone.
    const late = Date.UTC(2025, 4, 1, 20, 0, 0);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(late);
    try {
      const queryClient = createQueryClient();
      queryClient.setQueryData(shipConfigQuery(TARGET.orgId, TARGET.shipId).queryKey, CONFIG);
      const onSubmit = vi.fn<(o: PlaybackOptions) => void>();
      const initial: PlaybackOptions = { timeZoneId: 'Nepal Standard Time', start: late - 3_600_000, end: late - 1_800_000, speed: 16, template: [2, 6] };
      render(
        <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n('zh-CN')} queryClient={queryClient}>
          <PlaybackOptionsDialog target={TARGET} initial={initial} onSubmit={onSubmit} onCancel={() => undefined} now={() => late} />
        </AppProviders>,
      );
      const end = screen.getByLabelText('结束时间');
      act(() => {
        fireEvent.mouseDown(end);
        fireEvent.click(end);
      });
      const today = await waitFor(() => {
        const cell = document.querySelector('.ant-picker-cell-today');
        expect(cell).toBeTruthy();
        return cell as HTMLElement;
      });
      expect(today.getAttribute('title')).toBe('2025-05-02');
      const nowButton = await screen.findByText('此刻');
      act(() => fireEvent.click(nowButton));
      await waitFor(() => expect(inputValue('结束时间')).toBe('2025-05-02 01:45:00'));
      submit();
      await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce());
      expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ timeZoneId: 'Nepal Standard Time', end: late });
    } finally {
      vi.useRealTimers();
    }
  });

  it('speaks English', () => {
    renderDialog({ language: 'en' });
    expect(screen.getByText('Ship playback: Bridge')).toBeTruthy();
    expect(screen.getByText('(UTC+08:00) Beijing, Chongqing, Hong Kong, Urumqi')).toBeTruthy();
    expect(screen.getByLabelText('Start time')).toBeTruthy();
    expect(screen.getByRole('radio', { name: '16×' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Start playback' })).toBeTruthy();
  });
});
