import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { BackfillOrgSetting, RecordConfig, RecordingSummary } from '@ship-cctv/protocol';
import { AppProviders } from '../../../app/providers.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import { createI18n } from '../../../i18n/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../../lib/runtime-config.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { timelineRows } from '../timeline.ts';
import { BackfillSwitches } from './BackfillSwitches.tsx';
import { RecordingTimeline } from './RecordingTimeline.tsx';

const H = 3_600_000;
const T0 = Date.UTC(2026, 10, 29, 0, 0, 0);
const rec = (id: string, start: number, end: number, backfilled = false, definition: RecordingSummary['definition'] = null): RecordingSummary => ({
  id, orgId: 'blueocean', shipId: 'S1001', cameraId: 'S1001-C01-1', recordConfigId: 'rc', templateId: 6, start, end, bytes: 1, segments: 1, backfilled, definition,
});
const LOW = { width: 320, height: 180, frameRate: 5, bitrateKbps: 140, codec: 'avc1.42c01e', transcoded: true };

afterEach(() => vi.restoreAllMocks());

function timeline(language: 'en' | 'zh-CN') {
  const rows = timelineRows([rec('live-1', T0, T0 + H), rec('refilled', T0 + H, T0 + 2 * H, true), rec('live-2', T0 + 5 * H, T0 + 6 * H, false), rec('low', T0 + 6 * H, T0 + 7 * H, true, LOW)]);
  const pending = new Map([
    [
      'S1001-C01-1',
      [
        { start: T0 + 2 * H, end: T0 + 3 * H, state: 'running' as const },
        { start: T0 + 3 * H, end: T0 + 5 * H, state: 'pending' as const, waitingFor: 'budget' as const },
      ],
    ],
  ]);
  return render(
    <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)} queryClient={createQueryClient()}>
      <RecordingTimeline rows={rows} window={{ start: T0, end: T0 + 24 * H }} onWindow={() => undefined} current={undefined} onSeek={() => undefined} cameraLabel={(id) => id} pending={pending} />
    </AppProviders>,
  );
}

describe('backfill on the shore playback page', { timeout: 30_000 }, () => {
  it('shows refilled recordings and the spans being refilled or waiting, in English', () => {
    timeline('en');
    expect(screen.getByTestId('span-refilled').getAttribute('title')).toBe('Recording refilled from the ship');
    expect(screen.getByTestId('span-live-1').getAttribute('title')).toBeNull();
    expect(screen.getByTestId('span-low').getAttribute('title')).toBe('Recording refilled from the ship · 320×180, 5 fps, 140 kbit/s · transcoded on the ship');
    expect(screen.getByTestId('backfill-S1001-C01-1-running').getAttribute('title')).toBe('Being refilled from the ship');
    expect(screen.getByTestId('backfill-S1001-C01-1-budget').getAttribute('title')).toBe("Waiting to be refilled from the ship (today's backfill data is used up)");
    expect(screen.getByTestId('timeline-backfill-legend').textContent).toContain('Being refilled from the ship');
  });

  it('says the same in Chinese', () => {
    timeline('zh-CN');
    expect(screen.getByTestId('span-refilled').getAttribute('title')).toBe('从船端补录的录像');
    expect(screen.getByTestId('span-low').getAttribute('title')).toBe('从船端补录的录像 · 320×180，5 帧/秒，140 kbit/s · 船端转码');
    expect(screen.getByTestId('backfill-S1001-C01-1-running').getAttribute('title')).toBe('正在从船端补录');
    expect(screen.getByTestId('backfill-S1001-C01-1-budget').getAttribute('title')).toBe('等待从船端补录（今日补录流量已用完）');
  });

  it('turns a channel’s backfill off through its recording configuration, and shows the organisation’s switch it may not change', async () => {
    const config: RecordConfig = { id: 'rc-1', cameraId: 'S1001-C01-1', mode: 'continuous', schedule: [], timeZone: 'UTC', enabled: true, backfill: true, backfillDefinition: null };
    const org: BackfillOrgSetting = { orgId: 'blueocean', enabled: true, fromOrgId: 'root', definition: 'lowest', definitionFromOrgId: 'root', canEdit: false };
    vi.spyOn(apiClient, 'get').mockImplementation(async (url: string) => (url.includes('/config/list') ? [config] : org) as never);
    const put = vi.spyOn(apiClient, 'request').mockImplementation(async () => ({ ...config, backfill: false }) as never);
    render(
      <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n('en')} queryClient={createQueryClient()}>
        <BackfillSwitches cameraId="S1001-C01-1" orgId="blueocean" orgName={(id) => (id === 'root' ? 'Fleet HQ' : id)} />
      </AppProviders>,
    );
    const camera = screen.getByTestId('backfill-camera');
    await waitFor(() => expect(camera.getAttribute('aria-checked')).toBe('true'));
    await act(() => fireEvent.click(camera));
    await waitFor(() => expect(put).toHaveBeenCalledWith('PUT', '/cctv/record/config/rc-1', { body: { cameraId: 'S1001-C01-1', mode: 'continuous', schedule: [], timeZone: 'UTC', enabled: true, backfill: false, backfillDefinition: null } }));
    const orgSwitch = screen.getByTestId('backfill-org');
    await waitFor(() => expect(orgSwitch.getAttribute('aria-checked')).toBe('true'));
    expect(orgSwitch.hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('backfill-switches').textContent).toContain('Follows Fleet HQ above');
    // The definitions: the organisation's (inherited, not this user's to change) and the channel's (the organisation's).
    expect(screen.getByTestId('backfill-org-definition').textContent).toContain('Low');
    expect(screen.getByTestId('backfill-org-definition').className).toContain('disabled');
    expect(screen.getByTestId('backfill-camera-definition').textContent).toContain('The organisation’s');
  });
});
