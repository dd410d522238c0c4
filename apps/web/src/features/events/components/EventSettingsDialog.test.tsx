import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CameraEventSettings, UserInfo } from '@ship-cctv/protocol';
import { sessionStore } from '../../../lib/session-store.ts';
import { AppProviders } from '../../../app/providers.tsx';
import { createI18n, type Language } from '../../../i18n/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../../lib/runtime-config.ts';
import { EVENTS_TREE, eventOf, serveEvents } from '../../../test/events-server.ts';
import { EventSettingsDialog } from './EventSettingsDialog.tsx';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const ORG = { id: 'blueocean', displayName: 'Blue Ocean', node: EVENTS_TREE.orgShipTreeNodes[0] as (typeof EVENTS_TREE.orgShipTreeNodes)[number] };

function renderDialog(language: Language) {
  return render(
    <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)}>
      <EventSettingsDialog org={ORG} open onClose={() => undefined} />
    </AppProviders>,
  );
}

/** The drawing area is 200 × 100 px on screen; a click at (x, y) is at x/200, y/100 of the picture. */
function clickCanvas(canvas: HTMLElement, x: number, y: number) {
  fireEvent.click(canvas, { clientX: x, clientY: y });
}

describe('event detection settings', { timeout: 30_000 }, () => {
  for (const [language, zoneName, save, take] of [
    ['en', 'Zone 1', 'Save', 'Take a picture'],
    ['zh-CN', '区域 1', '保存', '抓拍一张'],
  ] as const) {
    it(`draws a zone and a mask on the camera's picture and saves them as relative polygons (${language})`, async () => {
      const server = serveEvents([eventOf(1)]);
      renderDialog(language);
      const form = await screen.findByTestId('camera-event-settings', {}, { timeout: 10_000 });
      // The ship's first camera is chosen by itself; its analysis status shows.
      expect(form.getAttribute('data-camera')).toBe('C1-1');
      expect(form.querySelector('[data-event-status="running"]')).not.toBeNull();

      const canvas = screen.getByTestId('zone-canvas');
      // No picture of the camera on shore: its latest event's picture; then one taken now.
      await waitFor(() => expect(canvas.querySelector('img')?.getAttribute('src')).toBe(`/api/v1/cctv/events/${eventOf(1).id}/picture`));
      const takeButton = screen.getByTestId('zone-take-picture');
      expect(takeButton.textContent?.replace(/\s/g, '')).toBe(take.replace(/\s/g, ''));
      fireEvent.click(takeButton);
      await waitFor(() => expect(canvas.querySelector('img')?.getAttribute('src')).toBe('/cctvv3-server/v3/th/getById/P1'), { timeout: 10_000 });
      expect(server.callsTo('POST', '/cctvv3-server/v3/snapshot/requestPro/S1/C1/C1-1/*')).toHaveLength(1);

      vi.spyOn(canvas, 'getBoundingClientRect').mockReturnValue({ left: 0, top: 0, width: 200, height: 100, right: 200, bottom: 100, x: 0, y: 0, toJSON: () => ({}) });
      fireEvent.click(screen.getByTestId('zone-add'));
      clickCanvas(canvas, 20, 10);
      clickCanvas(canvas, 180, 10);
      // Two points do not make a polygon yet.
      expect((screen.getByTestId('zone-finish') as HTMLButtonElement).disabled).toBe(true);
      clickCanvas(canvas, 250, 90); // outside the picture: kept at its edge
      fireEvent.click(screen.getByTestId('zone-finish'));
      await waitFor(() => expect(canvas.querySelector(`polygon[data-zone="${zoneName}"]`)).not.toBeNull());

      fireEvent.click(screen.getByTestId('mask-add'));
      for (const [x, y] of [
        [0, 0],
        [50, 0],
        [50, 50],
        [0, 50],
      ] as const)
        clickCanvas(canvas, x, y);
      fireEvent.click(screen.getByTestId('zone-finish'));
      await waitFor(() => expect(canvas.querySelector('polygon[data-mask="0"]')).not.toBeNull());

      const saveButton = within(form).getByTestId('camera-event-save');
      expect(saveButton.textContent?.replace(/\s/g, '')).toBe(save);
      fireEvent.click(saveButton);
      await waitFor(() => expect(server.callsTo('PUT', '/api/v1/cctv/events/settings/camera/C1-1')).toHaveLength(1));
      const body = server.callsTo('PUT', '/api/v1/cctv/events/settings/camera/C1-1')[0]?.body as CameraEventSettings;
      expect(body.zones).toEqual([
        {
          name: zoneName,
          polygon: [
            [0.1, 0.1],
            [0.9, 0.1],
            [1, 0.9],
          ],
        },
      ]);
      expect(body.masks).toEqual([
        [
          [0, 0],
          [0.25, 0],
          [0.25, 0.5],
          [0, 0.5],
        ],
      ]);
      expect(body).toMatchObject({ enabled: true, classes: ['person', 'boat'], minScore: 0.5, sensitivity: 50, schedule: { kind: 'always' } });
    });
  }

  it('keeps a schedule with a bad time from being saved, and saves nights only in the ship’s zone', async () => {
    const server = serveEvents([]);
    renderDialog('en');
    const form = await screen.findByTestId('camera-event-settings', {}, { timeout: 10_000 });
    fireEvent.click(within(form).getByLabelText('Daily between'));
    const fromInput = within(form).getByLabelText('From') as HTMLInputElement;
    expect(fromInput.value).toBe('18:00');
    fireEvent.change(fromInput, { target: { value: '25:00' } });
    const saveButton = within(form).getByTestId('camera-event-save') as HTMLButtonElement;
    expect(saveButton.disabled).toBe(true);
    fireEvent.change(fromInput, { target: { value: '19:30' } });
    expect(saveButton.disabled).toBe(false);
    fireEvent.click(saveButton);
    await waitFor(() => expect(server.cameraSettings.get('C1-1')?.schedule).toEqual({ kind: 'daily', timeZone: 'Asia/Shanghai', from: '19:30', to: '06:00' }));
  });

  it('shows an operator the settings read-only', async () => {
    sessionStore.signedIn({ id: `u-operator-${Math.random()}`, role: 'operator' } as UserInfo);
    try {
      serveEvents([]);
      renderDialog('zh-CN');
      const form = await screen.findByTestId('camera-event-settings', {}, { timeout: 10_000 });
      expect(screen.getByText('只有管理员可以修改。')).toBeTruthy();
      expect((within(form).getByTestId('camera-event-save') as HTMLButtonElement).disabled).toBe(true);
    } finally {
      sessionStore.clear();
    }
  });

  it("saves the organisation's rule: which classes and hours make a toast, and of which classes the video is fetched", async () => {
    const server = serveEvents([]);
    renderDialog('zh-CN');
    fireEvent.click(await screen.findByRole('tab', { name: '通知规则' }));
    const form = await screen.findByTestId('org-notify-rules', {}, { timeout: 10_000 });
    // From the server: people and boats, all day; no video fetched.
    const notify = within(within(form).getByTestId('notify-classes'));
    expect((notify.getByLabelText('人员') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(notify.getByLabelText('船只'));
    fireEvent.click(notify.getByLabelText('车辆'));
    const fetch = within(within(form).getByTestId('fetch-video-classes'));
    expect(within(form).getByText('自动取回录像的类别')).toBeTruthy();
    expect((fetch.getByLabelText('人员') as HTMLInputElement).checked).toBe(false);
    fireEvent.click(fetch.getByLabelText('人员'));
    fireEvent.click(within(form).getByLabelText('指定时段'));
    fireEvent.change(form.querySelector('[data-event-field="notifyFrom"]') as HTMLElement, { target: { value: '20:00' } });
    // Who sees them: everyone by default; managers only.
    const seenBy = within(within(form).getByTestId('events-seen-by'));
    expect((seenBy.getByLabelText('能看到船舶的所有用户') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(seenBy.getByLabelText('仅管理员'));
    fireEvent.click(screen.getByTestId('org-notify-save'));
    await waitFor(() => expect(server.callsTo('PUT', '/api/v1/cctv/events/settings/org/blueocean')).toHaveLength(1));
    expect(server.orgSettings()).toMatchObject({ notifyClasses: ['person', 'vehicle'], notifyFrom: '20:00', notifyTo: '06:00', fetchVideoClasses: ['person'], seenBy: 'managers' });
    // All day again keeps who sees them and the classes.
    fireEvent.click(within(form).getByLabelText('全天'));
    fireEvent.click(screen.getByTestId('org-notify-save'));
    await waitFor(() => expect(server.callsTo('PUT', '/api/v1/cctv/events/settings/org/blueocean')).toHaveLength(2));
    expect(server.orgSettings()).toEqual({ notifyClasses: ['person', 'vehicle'], fetchVideoClasses: ['person'], seenBy: 'managers' });
  });
});
