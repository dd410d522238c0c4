import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { AppProviders } from '../../../app/providers.tsx';
import { createI18n, type Language } from '../../../i18n/index.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../../lib/runtime-config.ts';
import { PtzPresets } from './PtzPresets.tsx';

/** Shore answers the presets call with this failure envelope (through the app's one API client). */
function shoreFails(status: number, envelope: { message: string; reason?: string }) {
  const fetch = vi.fn<typeof globalThis.fetch>(() => Promise.resolve(new Response(JSON.stringify({ code: status, data: null, ...envelope }), { status, headers: { 'content-type': 'application/json' } })));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderPresets(language: Language) {
  render(
    <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)} queryClient={createQueryClient()}>
      <PtzPresets target={{ shipId: 'S1001', cameraId: 'S1001-C01-1' }} getPopupContainer={() => document.body} />
    </AppProviders>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the presets list says why the ship could not be asked, from the answer’s reason', { timeout: 30_000 }, () => {
  it.each<[Language, string]>([
    ['en', 'The ship is offline: the camera cannot be steered'],
    ['zh-CN', '船舶离线，无法控制云台'],
  ])('an offline ship (%s)', async (language, text) => {
    const fetch = shoreFails(503, { message: 'the ship is offline: ship S1001 is not connected', reason: 'offline' });
    renderPresets(language);
    expect((await screen.findByRole('alert')).textContent).toBe(text);
    expect(String(fetch.mock.calls[0]?.[0])).toBe('/api/v1/cctv/ptz/S1001/S1001-C01-1/presets');
  });

  it.each<[Language, string]>([
    ['en', 'PTZ control failed: the ship did not answer'],
    ['zh-CN', '云台控制失败：船舶未响应'],
  ])('a ship that does not answer in time (%s)', async (language, text) => {
    shoreFails(503, { message: 'the ship did not answer within 15 s', reason: 'timeout' });
    renderPresets(language);
    expect((await screen.findByRole('alert')).textContent).toBe(text);
  });

  it('takes nothing from the message: one that starts as the old prefixes did, without a reason, is shown as a message', async () => {
    shoreFails(409, { message: 'notPtz: camera Bridge is not a PTZ camera' });
    renderPresets('en');
    expect((await screen.findByRole('alert')).textContent).toBe('PTZ control failed: notPtz: camera Bridge is not a PTZ camera');
  });
});
