import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ClipJob, RecordingSummary } from '@ship-cctv/protocol';
import { AppProviders } from '../../../app/providers.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import { createI18n } from '../../../i18n/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../../lib/runtime-config.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { ClipExport } from './ClipExport.tsx';

const START = Date.UTC(2025, 4, 1, 4, 0, 0);
const RECORDING = { id: 'rec-1', start: START, end: START + 600_000 } as RecordingSummary;
const job = (state: ClipJob['state'], progress: number): ClipJob => ({ id: 'job-1', recordingId: 'rec-1', start: START, end: START + 30_000, state, progress, downloadUrl: null, message: state === 'cancelled' ? 'cancelled' : null });

afterEach(() => vi.restoreAllMocks());

describe('ClipExport', { timeout: 30_000 }, () => {
  it('stops a running export on request and says so, with no progress bar left', async () => {
    let cancelled = false;
    const post = vi.spyOn(apiClient, 'post').mockImplementation(async (url: string) => {
      if (!url.includes('/clip/cancel/')) return job('running', 10) as never;
      cancelled = true;
      return job('cancelled', 20) as never;
    });
    vi.spyOn(apiClient, 'get').mockImplementation(async () => (cancelled ? job('cancelled', 20) : job('running', 20)) as never);
    render(
      <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n('en')} queryClient={createQueryClient()}>
        <ClipExport recording={RECORDING} at={START} />
      </AppProviders>,
    );
    await act(() => fireEvent.click(screen.getByTestId('clip-export-button')));
    const cancel = await screen.findByRole('button', { name: /Cancel the export/ });
    expect(screen.getByTestId('clip-progress')).toBeTruthy();
    await act(() => fireEvent.click(cancel));
    await waitFor(() => expect(screen.getByTestId('clip-cancelled').textContent).toBe('Export cancelled'));
    expect(post).toHaveBeenCalledWith('/cctv/record/clip/cancel/job-1', {});
    expect(screen.queryByTestId('clip-progress')).toBeNull();
    expect(screen.queryByTestId('clip-cancel')).toBeNull();
  });
});
