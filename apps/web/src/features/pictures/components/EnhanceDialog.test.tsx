import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import type { EnhanceJob, PictureInfo } from '@ship-cctv/protocol';
import { AppProviders } from '../../../app/providers.tsx';
import { createI18n } from '../../../i18n/index.ts';
import { ApiError, apiClient } from '../../../lib/api-client.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../../lib/runtime-config.ts';
import { picturesEn, picturesZhCN } from '../locales.ts';
import { EnhanceDialog } from './EnhanceDialog.tsx';

const PICTURE: PictureInfo = {
  id: 'pic00000001',
  orgId: 'blueocean',
  shipId: 'S1001',
  shipName: 'S1001',
  channelId: 'S1001-C01',
  cameraId: 'S1001-C01-1',
  takenAt: Date.parse('2026-11-28T08:00:00Z'),
  origin: 'manual',
  taskId: null,
  bytes: 30_000,
  width: 1280,
  height: 720,
  storedAt: Date.parse('2026-11-28T08:00:02Z'),
};
const QUEUED: EnhanceJob = { jobId: 'job1', pictureId: PICTURE.id, scale: 2, state: 'queued', progress: 0, message: null, width: null, height: null, bytes: null };

function renderDialog(language: 'en' | 'zh-CN') {
  return render(
    <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)} queryClient={createQueryClient()}>
      <EnhanceDialog picture={PICTURE} onClose={() => undefined} />
    </AppProviders>,
  );
}

afterEach(() => vi.restoreAllMocks());

/** A button by its text (antd puts the icon's name before it). */
const button = (text: string) => screen.getByRole('button', { name: (name) => name.endsWith(text) });

describe('EnhanceDialog', () => {
  it('shows the queued enhancement as soon as it is committed, before its first progress read answers', async () => {
    vi.spyOn(apiClient, 'post').mockResolvedValue(QUEUED as never);
    // The progress read never answers (a slow server): the dialog still says the job is queued.
    const get = vi.spyOn(apiClient, 'get').mockReturnValue(new Promise(() => undefined) as never);
    renderDialog('en');
    fireEvent.click(button(picturesEn.enhance.x2));
    expect((await screen.findByTestId('enhance-progress')).textContent).toContain(picturesEn.enhance.queued);
    expect(button(picturesEn.enhance.cancel)).toHaveProperty('disabled', false);
    // The scale buttons wait while the job is open.
    expect(button(picturesEn.enhance.x2)).toHaveProperty('disabled', true);
    expect(get).toHaveBeenCalledWith(expect.stringContaining('/progress/job1'));
  });

  it('says when the progress cannot be read, in both languages', async () => {
    for (const [language, texts] of [['en', picturesEn], ['zh-CN', picturesZhCN]] as const) {
      vi.spyOn(apiClient, 'post').mockResolvedValue(QUEUED as never);
      vi.spyOn(apiClient, 'get').mockRejectedValue(new ApiError('http', 500, 'the database is away', 500));
      const view = renderDialog(language);
      fireEvent.click(button(texts.enhance.x2));
      // After the one retry of the query client.
      await screen.findByText(texts.enhance.progressFailed.replace('{{message}}', 'the database is away'), undefined, { timeout: 5_000 });
      view.unmount();
      vi.restoreAllMocks();
    }
  });
});
