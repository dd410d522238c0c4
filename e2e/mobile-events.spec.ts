import { expect, test } from '@playwright/test';
import { EVENT_TEXTS, EventsApi } from './pages/events-page.ts';
import { MobilePage, type Language } from './pages/mobile-page.ts';

/**
 * Events on a phone (issue 35): the Events tab lists what the demo fleet's analysis found, with
 * pictures and pages; an event is acknowledged, and "play this moment" opens ship playback of its
 * camera on the playback tab. In both languages, on the iPhone and Android projects.
 */
test.describe.configure({ mode: 'serial' });

for (const language of ['zh-CN', 'en'] as const satisfies readonly Language[]) {
  test(`the events tab: pictures, acknowledge, play this moment (${language})`, async ({ page, context, baseURL }) => {
    test.setTimeout(240_000);
    await context.addCookies([{ name: 'language', value: language, url: baseURL ?? '' }]);
    const mobile = new MobilePage(page, language);
    const texts = EVENT_TEXTS[language];
    await mobile.openSignIn();
    await mobile.signIn();
    const api = new EventsApi(page.request, page);
    // S1001: the demo ship whose analysed camera has walkers, and whose recorder plays back.
    await expect
      .poll(async () => (await api.list({ shipId: 'S1001', acknowledged: false })).total, { timeout: 150_000, intervals: [2_000], message: 'unacknowledged events of S1001' })
      .toBeGreaterThanOrEqual(1);

    await mobile.tabs.getByRole('link', { name: mobile.texts.mobile.tabs.events }).tap();
    await expect(page).toHaveURL(/\/monitor\/events$/);
    const screen = page.getByTestId('mobile-events');
    await expect(screen).toBeVisible({ timeout: 15_000 });
    await screen.getByTestId('events-org-picker').tap();
    await page.getByRole('dialog', { name: mobile.texts.mobile.source.organisation }).getByText('Blue Ocean Shipping', { exact: true }).tap();
    await expect(screen.getByTestId('events-org-picker')).toContainText('Blue Ocean Shipping');
    await screen.getByTestId('events-ship-picker').tap();
    await page.getByRole('dialog', { name: texts.filter.ship }).getByText('BLUE OCEAN STAR 蓝海之星', { exact: true }).tap();
    await expect(screen.getByTestId('events-ship-picker')).toContainText('BLUE OCEAN STAR');
    await screen.locator('[data-event-filter="acknowledged"]').getByText(texts.filter.unacknowledged, { exact: true }).tap();
    const first = (await api.list({ shipId: 'S1001', acknowledged: false, size: 10 })).events[0];
    if (!first) throw new Error('no unacknowledged event');
    const item = screen.locator(`[data-event-id="${first.id}"]`);
    await expect(item).toBeVisible({ timeout: 15_000 });
    const img = item.locator('img');
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth), { timeout: 15_000 }).toBeGreaterThan(0);
    await expect(item).toContainText(first.cameraName);
    await page.screenshot({ path: `docs/screenshots/mobile-events-${language}.png`, animations: 'disabled' });

    await item.getByRole('button', { name: texts.acknowledge, exact: true }).tap();
    await expect.poll(async () => (await api.one(first.id)).acknowledgedBy).toBe('demo');
    // Filtered to unacknowledged: it leaves the list.
    await expect(item).toHaveCount(0);

    await screen.locator('[data-event-filter="acknowledged"]').getByText(texts.filter.any, { exact: true }).tap();
    await expect(item).toBeVisible();
    await item.getByRole('button', { name: texts.play, exact: true }).tap();
    await expect(page).toHaveURL(/\/monitor\/remoteLive$/);
    await expect(mobile.videoArea.locator('[data-camera-id]')).toHaveAttribute('data-camera-id', first.cameraId, { timeout: 15_000 });
    await mobile.expectPlaying(60_000);
  });
}
