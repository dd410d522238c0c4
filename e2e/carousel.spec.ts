import { expect, test } from '@playwright/test';
import { CarouselPage } from './pages/carousel-page.ts';

/**
 * A carousel task against the demo stack (spec §2 /carouselConfig, §7 carousel calls): made in the
 * editor from two ships' channels, started on shore, watched page by page — the next page's cells
 * pre-warm hidden and are the ones shown at the switch —, followed across a reload (shore's page,
 * not the browser's), in both languages, then stopped and deleted. The server runs with
 * CAROUSEL_SECONDS=1 (a 20-second page instead of minutes) and S1001, S1002 on steady links
 * (playwright.config.ts). Signing in as demo displaces the previous demo session: specs run in order.
 */
test.describe.configure({ mode: 'serial' });

const SCREENSHOTS = 'docs/screenshots';
const PAGE_1 = ['S1001-C01', 'S1001-C02', 'S1001-C03', 'S1001-C04'];
const PAGE_2 = ['S1002-C01', 'S1002-C03'];
/** Satellite-emulated links: first frames take seconds; a page lasts 20 s and comes back every 40 s. */
const PAGE_TIMEOUT = 120_000;

test('a carousel task: made, started, watched page by page across a reload, in both languages, stopped', async ({ page, baseURL }) => {
  test.setTimeout(300_000);
  let carousel = new CarouselPage(page, 'zh-CN');
  await carousel.signIn(baseURL ?? '');
  await carousel.open();
  await carousel.chooseOrganisation('Blue Ocean Shipping');
  await carousel.openTab('task');

  // ── the editor: 6 channels of two ships, 4 cells a page, 20 s a page ──
  let c = carousel.carouselTexts;
  const name = `E2E 轮播 ${Date.now()}`;
  await carousel.openEditor();
  const editor = carousel.editor;
  await expect(editor.getByRole('radio', { name: c.kinds.task })).toBeChecked();
  await editor.getByLabel(c.editor.name, { exact: true }).fill(name);
  await expect(editor.getByRole('radio', { name: c.modes.channels })).toBeChecked();
  // A ship's right-click adds its visible channels (S1001's fifth is hidden from operators).
  await carousel.expandShip('S1001', 'S1001-C01');
  await carousel.addShip('S1001');
  await expect.poll(() => carousel.chosenChannels()).toEqual(PAGE_1);
  await carousel.expandShip('S1002', 'S1002-C01');
  // Added in the wrong order, then put right by drag and drop; the keyboard users' arrows move too.
  await carousel.addChannel('S1002-C03');
  await carousel.addChannel('S1002-C01');
  await expect.poll(() => carousel.chosenChannels()).toEqual([...PAGE_1, 'S1002-C03', 'S1002-C01']);
  await carousel.chosen('S1002-C01').dragTo(carousel.chosen('S1002-C03'));
  await expect.poll(() => carousel.chosenChannels()).toEqual([...PAGE_1, ...PAGE_2]);
  await carousel.chosen('S1002-C03').getByRole('button', { name: new RegExp(`^${c.editor.moveUp}`) }).click();
  await expect.poll(() => carousel.chosenChannels()).toEqual([...PAGE_1, 'S1002-C03', 'S1002-C01']);
  await carousel.chosen('S1002-C03').getByRole('button', { name: new RegExp(`^${c.editor.moveDown}`) }).click();
  await expect.poll(() => carousel.chosenChannels()).toEqual([...PAGE_1, ...PAGE_2]);
  await editor.getByRole('radio', { name: c.layoutOption_other.replace('{{count}}', '4'), exact: true }).check();
  await editor.getByLabel(c.editor.time, { exact: true }).fill('1');
  await editor.getByLabel(c.editor.seconds, { exact: true }).fill('20');
  // The uplink estimate: 6 channels on 2 pages, per hour against always on.
  const estimate = editor.getByTestId('carousel-estimate');
  await expect(estimate.getByText(/\/小时/).first()).toBeVisible({ timeout: 15_000 });
  await expect(estimate).toContainText('6 个通道，共 2 页');
  await page.screenshot({ path: `${SCREENSHOTS}/carousel-editor-zh-CN.png` });
  await editor.getByRole('button', { name: c.editor.save }).click();
  await expect(editor).toBeHidden();
  await expect(carousel.row(name)).toBeVisible();
  await expect(carousel.rowState(name)).toHaveAttribute('data-task-state', 'stopped');
  await expect(carousel.row(name)).toContainText(c.dwellSeconds.replace('{{count}}', '20'));

  // ── started on shore ──
  await carousel.rowButton(name, c.list.start).click();
  await expect(carousel.rowState(name)).toHaveAttribute('data-task-state', 'running', { timeout: 15_000 });
  const id = await carousel.row(name).getAttribute('data-carousel-id');
  expect(id).toBeTruthy();

  // ── the player: page 1, four cells with video ──
  let statusRequests = 0;
  page.on('request', (request) => {
    if (request.url().includes(`/cctv/carousel/task/status/${id}`)) statusRequests++;
  });
  await carousel.rowButton(name, c.list.play).click();
  await expect(page).toHaveURL(new RegExp(`/monitor/carouselConfig\\?play=${id}&kind=task$`));
  await expect(carousel.player).toBeVisible();
  await expect(carousel.player.getByTestId('carousel-name')).toHaveText(name);
  await expect(carousel.pageTag).toHaveAttribute('data-page-count', '2', { timeout: 15_000 });
  expect(await carousel.expectPagePlaying(1, 4, PAGE_TIMEOUT)).toEqual(PAGE_1);
  // Pause, next and previous are shore's for a task.
  await expect(carousel.player.getByRole('button', { name: c.player.next })).toBeDisabled();

  // Before the switch the next page's cells mount hidden; marked here, they are the ones shown after it.
  await expect(carousel.hiddenCells()).toHaveCount(2, { timeout: 30_000 });
  await carousel.hiddenCells().evaluateAll((els) => els.forEach((el) => el.setAttribute('data-e2e-prewarmed', '')));
  const warmed = await carousel.hiddenCells().evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.channelId));
  expect(warmed).toEqual(PAGE_2);

  // ── page 2 replaces page 1, told by shore over STOMP (no status asked again) ──
  const statusAsked = statusRequests;
  await expect(carousel.pageTag).toHaveAttribute('data-page', '2', { timeout: 30_000 });
  expect(statusRequests).toBe(statusAsked);
  const switched = Date.now();
  expect(await carousel.visibleChannelIds()).toEqual(PAGE_2);
  await expect(carousel.visibleCells().and(page.locator('[data-e2e-prewarmed]'))).toHaveCount(2);
  await expect(carousel.hiddenCells()).toHaveCount(0);
  expect(await carousel.expectPagePlaying(2, 2, 15_000)).toEqual(PAGE_2);
  console.log(`[carousel] page 2 playing ${Date.now() - switched} ms after the switch (pre-warmed)`);
  await page.screenshot({ path: `${SCREENSHOTS}/carousel-zh-CN.png` });

  // ── a reload lands on shore's page: the same page, the same channels ──
  // Right after a switch, so the page cannot turn during the reload.
  const before = await carousel.pageNumber();
  await expect(carousel.pageTag).not.toHaveAttribute('data-page', String(before.page), { timeout: 30_000 });
  const shown = await carousel.pageNumber();
  const shownIds = await carousel.visibleChannelIds();
  await page.reload();
  await expect(carousel.player).toBeVisible({ timeout: 15_000 });
  await expect(carousel.pageTag).toHaveAttribute('data-page', String(shown.page), { timeout: 15_000 });
  expect(await carousel.visibleChannelIds()).toEqual(shownIds);
  expect(shownIds).toEqual(shown.page === 1 ? PAGE_1 : PAGE_2);

  // ── in English: the header is under the player, so out, switch, and back in ──
  await carousel.player.getByRole('button', { name: c.player.exit }).click();
  await expect(carousel.player).toBeHidden();
  carousel = await carousel.switchLanguage('en');
  c = carousel.carouselTexts;
  await carousel.rowButton(name, c.list.play).click();
  await expect(carousel.player.getByRole('button', { name: c.player.stop })).toBeVisible();
  const now = await carousel.pageNumber();
  await carousel.expectPagePlaying(now.page, now.page === 1 ? 4 : 2, PAGE_TIMEOUT);
  await expect(carousel.player.getByTestId('carousel-countdown')).toHaveText(/^Next page in 0:\d\d$/);
  await page.screenshot({ path: `${SCREENSHOTS}/carousel-en.png` });

  // ── stopped ──
  await carousel.player.getByRole('button', { name: c.player.stop }).click();
  await expect(carousel.player.getByTestId('carousel-task-state')).toHaveAttribute('data-task-state', 'stopped', { timeout: 15_000 });
  await expect(carousel.player.getByText(c.player.stopped)).toBeVisible();
  await expect(carousel.player.locator('[data-channel-id]')).toHaveCount(0);
  await carousel.player.getByRole('button', { name: c.player.exit }).click();
  await expect(carousel.rowState(name)).toHaveAttribute('data-task-state', 'stopped', { timeout: 15_000 });

  // ── deleted, with confirmation ──
  await carousel.rowButton(name, c.list.delete).click();
  await page.getByRole('tooltip').getByRole('button', { name: /OK|确 ?定/ }).click();
  await expect(carousel.row(name)).toHaveCount(0, { timeout: 15_000 });
});
