import { expect, test } from '@playwright/test';
import { DEFAULT_CAMERA_EVENT_SETTINGS, DEFAULT_ORG_EVENT_SETTINGS, type EventInfo, type OrgEventSettings } from '@ship-cctv/protocol';
import { EventSettingsDialog, EventsApi, EventsScreen } from './pages/events-page.ts';
import { PlayGridPage } from './pages/play-grid-page.ts';
import { ShipPlaybackPage } from './pages/ship-playback-page.ts';

/**
 * Events on the desktop (issue 35): the demo fleet's analysis finds people and boats and sends each
 * event with its picture to shore; the operator sees them on the Events screen (list and timeline,
 * filters, pictures), plays the moment in ship playback, acknowledges and deletes them, sees the
 * unacknowledged count on the ship in the source tree and a toast for new ones; a manager draws a
 * camera's zones and masks on its picture and sets which events notify the organisation.
 */
test.describe.configure({ mode: 'serial' });

const ORG = 'blueocean';
const ORG_NAME = 'Blue Ocean Shipping';
const SCREENSHOTS = 'docs/screenshots';
const CAMERA = 'S1001-C01-1';

/** Puts an organisation's notify rule back as it was (only the fields the API takes). */
async function restoreOrgRule(api: EventsApi, before: OrgEventSettings): Promise<void> {
  const { notifyClasses, notifyFrom, notifyTo, timeZone, fetchVideoClasses } = before.notifyClasses ? before : DEFAULT_ORG_EVENT_SETTINGS;
  await api.putOrgSettings(ORG, { notifyClasses, fetchVideoClasses: fetchVideoClasses ?? [], ...(notifyFrom && notifyTo ? { notifyFrom, notifyTo } : {}), ...(timeZone ? { timeZone } : {}) });
}

const classText = (texts: EventsScreen['texts'], e: EventInfo) => {
  const best = [...e.classes].sort((a, b) => Number(a.class === 'motion') - Number(b.class === 'motion') || b.score - a.score)[0];
  return best ? texts.classScore.replace('{{class}}', texts.class[best.class]).replace('{{score}}', String(Math.round(best.score * 100))) : '';
};

test('events of the demo fleet: list with pictures, badge, timeline, acknowledge, delete and play this moment (zh-CN)', async ({ page, baseURL }) => {
  test.setTimeout(240_000);
  const grid = new PlayGridPage(page, 'zh-CN');
  await grid.signIn(baseURL ?? '');
  const api = new EventsApi(page.request, page);
  // The demo's walkers and boats: the analysis on the ships finds them and sends the events.
  await expect.poll(async () => (await api.list()).total, { timeout: 150_000, intervals: [2_000], message: 'events from the demo fleet' }).toBeGreaterThanOrEqual(2);
  const [newest] = (await api.list()).events;
  if (!newest) throw new Error('no event');
  const shipId = newest.shipId;

  // The badge on the ship in the source tree: its unacknowledged events.
  await grid.open();
  await grid.chooseOrganisation(ORG_NAME);
  const badge = page.locator(`[data-event-badge="${shipId}"]`);
  await expect(badge).toBeVisible({ timeout: 30_000 });
  await expect
    .poll(async () => Number(await badge.getAttribute('data-event-count')) === ((await api.unacknowledged()).ships.find((s) => s.shipId === shipId)?.count ?? 0), { timeout: 30_000 })
    .toBe(true);

  const events = new EventsScreen(page, 'zh-CN');
  await events.openFromMenu();
  await events.filter('ship', newest.shipName);
  const shown = (await api.list({ shipId })).events[0] as EventInfo;
  const row = events.row(shown.id);
  await expect(row).toBeVisible({ timeout: 15_000 });
  await events.expectPicture(shown.id);
  await expect(row).toContainText(classText(events.texts, shown));
  await expect(row).toContainText(shown.cameraName);
  await page.screenshot({ path: `${SCREENSHOTS}/events-zh-CN.png`, animations: 'disabled' });

  // Acknowledge: the row says who, and shore keeps it.
  await row.getByRole('button', { name: events.texts.acknowledge }).click();
  await expect(row.locator('[data-event-ack="true"]')).toContainText('demo');
  expect((await api.one(shown.id)).acknowledgedBy).toBe('demo');
  await events.filter('acknowledged', events.texts.filter.unacknowledged);
  await expect(row).toHaveCount(0);
  await events.filter('acknowledged', events.texts.filter.any);

  // The timeline: a row per camera, a mark per event.
  await page.getByText(events.texts.view.timeline, { exact: true }).click();
  const timeline = page.getByTestId('event-timeline');
  await expect(timeline.locator(`[data-timeline-row="${shown.cameraId}"] [data-timeline-event="${shown.id}"]`)).toBeVisible();
  await page.getByText(events.texts.view.list, { exact: true }).click();

  // Delete another event after a confirmation: gone from shore too.
  const other = (await api.list({ shipId })).events.find((e) => e.id !== shown.id);
  if (other) {
    await events.row(other.id).getByRole('button', { name: events.texts.delete }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: /删\s*除/ }).click();
    await expect(events.row(other.id)).toHaveCount(0);
    expect(await api.status(other.id)).toBe(404);
  }

  // Play this moment: ship playback of the camera from the event's start − 5 s, at 1×. An event of
  // S1001 (the ship whose recorder the playback specs read; its analysed camera has walkers too).
  const recorded = (await api.waitForEvents('S1001', 1, 120_000))[0] as EventInfo;
  await events.filter('ship', '蓝海之星');
  await events.row(recorded.id).getByRole('button', { name: events.texts.play }).click();
  await expect(page).toHaveURL(/\/monitor\/live\/recordlivevideo$/);
  const playback = new ShipPlaybackPage(page, 'zh-CN');
  await expect(playback.player).toBeVisible({ timeout: 15_000 });
  await expect(playback.player).toContainText(recorded.cameraName);
  await playback.expectFramesAdvance(60_000);
  // The burned-in capture time of the first frames: from 5 s before the event's start (a key frame a few seconds earlier at most).
  const shownAt = await playback.readRecordedTime(30_000);
  expect(shownAt).toBeGreaterThanOrEqual(recorded.start - 5_000 - 10_000);
  expect(shownAt).toBeLessThan(recorded.start + 30_000);
});

test('a manager draws a zone and a mask on the camera picture and sets which events notify the organisation (en)', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const grid = new PlayGridPage(page, 'en');
  await grid.signIn(baseURL ?? '');
  const api = new EventsApi(page.request, page);
  await grid.open();
  await grid.chooseOrganisation(ORG_NAME);
  const before = await api.orgSettings(ORG);
  try {
    const settings = new EventSettingsDialog(page, 'en', ORG_NAME);
    await settings.open();
    await settings.chooseShip('BLUE OCEAN STAR');
    const form = settings.form(CAMERA);
    await expect(form).toBeVisible({ timeout: 15_000 });
    await expect(form.locator('[data-event-field="enabled"]')).toHaveAttribute('aria-checked', 'true');
    // The camera's picture to draw on: one taken now, over the ship's link.
    await form.getByTestId('zone-take-picture').click();
    const picture = form.getByTestId('zone-canvas').locator('img');
    await expect.poll(() => picture.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth).catch(() => 0), { timeout: 60_000 }).toBeGreaterThan(0);
    await expect(form.getByTestId('zone-picture-caption')).toContainText('Latest picture of Bridge');
    await settings.drawPolygon('zone', [
      [0.1, 0.2],
      [0.6, 0.2],
      [0.6, 0.9],
      [0.1, 0.9],
    ]);
    await settings.drawPolygon('mask', [
      [0.8, 0.02],
      [0.98, 0.02],
      [0.98, 0.15],
    ]);
    await expect(settings.dialog.locator('[data-zone-item="Zone 1"]')).toBeVisible();
    await expect(form.locator('polygon[data-zone="Zone 1"]')).toHaveCount(1);
    await page.screenshot({ path: `${SCREENSHOTS}/event-settings-en.png`, animations: 'disabled' });
    await settings.dialog.getByTestId('camera-event-save').click();
    await expect(page.getByText(settings.texts.settings.saved, { exact: true }).first()).toBeVisible();
    const saved = await api.cameraSettings(CAMERA);
    expect(saved.zones).toHaveLength(1);
    expect(saved.zones[0]?.name).toBe('Zone 1');
    const [first, second] = saved.zones[0]?.polygon ?? [];
    expect(first?.[0]).toBeCloseTo(0.1, 1);
    expect(first?.[1]).toBeCloseTo(0.2, 1);
    expect(second?.[0]).toBeCloseTo(0.6, 1);
    expect(saved.masks).toHaveLength(1);

    // The organisation's rule: every class notifies, between 00:00 and 23:59 on UTC's clock (the
    // classes whose video shore fetches, a group of the same labels below, are left as they are).
    await settings.dialog.getByRole('tab', { name: settings.texts.settings.tabNotify }).click();
    const rules = settings.dialog.getByTestId('org-notify-rules');
    const notifying = rules.getByTestId('notify-classes');
    for (const c of ['person', 'boat', 'vehicle', 'motion'] as const) await notifying.getByLabel(settings.texts.class[c], { exact: true }).check();
    await rules.getByText(settings.texts.settings.notifyBetween, { exact: true }).click();
    await rules.locator('[data-event-field="notifyFrom"]').fill('00:00');
    await rules.locator('[data-event-field="notifyTo"]').fill('23:59');
    await rules.getByTestId('org-notify-save').click();
    await expect.poll(async () => [...(await api.orgSettings(ORG)).notifyClasses].sort()).toEqual(['boat', 'motion', 'person', 'vehicle']);
    expect(await api.orgSettings(ORG)).toMatchObject({ notifyFrom: '00:00', notifyTo: '23:59' });
  } finally {
    await api.putCameraSettings(CAMERA, DEFAULT_CAMERA_EVENT_SETTINGS);
    await restoreOrgRule(api, before);
  }
});

test('a new event of the organisation toasts and leads to the events screen (en)', async ({ page, baseURL }) => {
  test.setTimeout(240_000);
  const grid = new PlayGridPage(page, 'en');
  await grid.signIn(baseURL ?? '');
  const api = new EventsApi(page.request, page);
  const before = await api.orgSettings(ORG);
  try {
    // Every class notifies, all day.
    await api.putOrgSettings(ORG, { notifyClasses: ['person', 'boat', 'vehicle', 'motion'] });
    await grid.open();
    await grid.chooseOrganisation(ORG_NAME);
    const texts = new EventsScreen(page, 'en').texts;
    const toast = page.getByTestId('event-notice').first();
    await expect(toast).toBeVisible({ timeout: 180_000 });
    await expect(toast).toContainText(/Person|Boat|Vehicle|Motion/);
    const id = await toast.getAttribute('data-event-id');
    await toast.getByRole('button', { name: texts.noticeOpen }).click();
    await expect(page).toHaveURL(/\/monitor\/events$/);
    await expect(page.getByTestId('events-list').locator(`tr[data-event-id="${id}"]`)).toBeVisible({ timeout: 15_000 });
  } finally {
    await restoreOrgRule(api, before);
  }
});
