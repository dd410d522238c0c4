import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { PATHS, TOKEN_HEADER, type PlayCommand } from '@ship-cctv/protocol';
import { stillsEn, stillsZhCN } from '../apps/web/src/features/stills/locales.ts';
import { PlayGridPage } from './pages/play-grid-page.ts';

/**
 * Stills mode (issue 19 item 3), against the demo stack: S1003 stays on FleetBroadband for the run
 * (FLEET_STEADY_SHIPS); Blue Ocean's FBB policy is set to stills every 10 s through the API (its
 * managers' call) and put back afterwards. Its cell shows pictures taken over the ship's link —
 * with the mode, the picture's age and the cost an hour — and starts no live stream until the
 * operator switches it to video; a title-bar button switches it back.
 */
test.describe.configure({ mode: 'serial' });

const ORG = 'blueocean';
const SHIP = 'S1003';
const CHANNEL = 'S1003-C01';
const CAMERA = 'S1003-C01-1';

async function token(request: APIRequestContext): Promise<string> {
  const logon = await request.post('/api/v1/sys/logon', { data: { username: 'demo', password: 'demo-pass' } });
  return ((await logon.json()) as { data: { token: string } }).data.token;
}

async function fbbStills(request: APIRequestContext, on: boolean): Promise<void> {
  const headers = { [TOKEN_HEADER]: await token(request) };
  const res = on
    ? await request.put(`/api/v1/cctv/linkPolicy/${ORG}/FBB`, { headers, data: { manyCells: 'lowest', fewCells: 'lowest', fullScreen: 'standard', stills: true, stillsEverySeconds: 10 } })
    : await request.delete(`/api/v1/cctv/linkPolicy/${ORG}/FBB`, { headers });
  expect(res.ok(), await res.text()).toBe(true);
}

/** The live play commands the page sends for the camera. */
function recordPlays(page: Page): PlayCommand[] {
  const plays: PlayCommand[] = [];
  page.on('websocket', (ws) => {
    if (!ws.url().includes(PATHS.media)) return;
    ws.on('framesent', ({ payload }) => {
      if (typeof payload !== 'string') return;
      const msg = JSON.parse(payload) as PlayCommand;
      if (msg.type === 'play' && msg.mode === 'live' && msg.cameraId === CAMERA) plays.push(msg);
    });
  });
  return plays;
}

test.beforeAll(async ({ request }) => fbbStills(request, true));
test.afterAll(async ({ request }) => fbbStills(request, false));

test("an FBB ship's cell shows stills with its cost, refreshed; switched to video it plays, and back", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const plays = recordPlays(page);
  const grid = new PlayGridPage(page, 'zh-CN');
  await grid.signIn(baseURL ?? '');
  await grid.open();
  await grid.chooseOrganisation('Blue Ocean Shipping');
  await expect(page.locator(`[data-ship="${SHIP}"] [data-link]`)).toHaveAttribute('data-link', 'FBB', { timeout: 30_000 });
  await grid.setGridSize(4);
  await grid.expandShip(SHIP, CHANNEL);
  await grid.playChannel(CHANNEL);

  const cell = grid.cell(CAMERA);
  const surface = cell.locator('[data-stills-mode="policy"]');
  await expect(surface).toBeVisible({ timeout: 20_000 });
  await expect(surface.locator('[data-still-mode-text]')).toHaveText('每 10 秒一张图片');
  // The first picture crosses the FBB link through the ship's outbox; the full picture follows its thumbnail.
  const picture = surface.locator('img[data-picture-id]');
  await expect(picture).toBeVisible({ timeout: 30_000 });
  await expect(picture).toHaveAttribute('data-still-size', 'full', { timeout: 15_000 });
  // The cell shows the camera's newest picture: one taken at the camera's own size (1280 wide)
  // during the test stays newest until the next still, 10 s after it and the FBB link's time on.
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 30_000 }).toBe(320);
  await expect(surface.locator('[data-still-age]')).toHaveText(/^\d+ 秒前$/);
  const cost = surface.locator('[data-still-cost]');
  await expect(cost).toHaveText(/^≈ [\d.]+ (kB|MB)\/小时$/);
  // 360 pictures an hour of a few kB each: between 0.3 and 20 MB an hour.
  const perHour = Number(await cost.getAttribute('data-still-cost'));
  expect(perHour).toBeGreaterThan(300_000);
  expect(perHour).toBeLessThan(20_000_000);

  // Refreshed: another picture within a couple of periods.
  const first = await picture.getAttribute('data-picture-id');
  await expect.poll(() => picture.getAttribute('data-picture-id'), { timeout: 40_000 }).not.toBe(first);
  await page.screenshot({ path: 'docs/screenshots/stills-zh-CN.png', animations: 'disabled' });
  // No live stream for the cell all this time.
  expect(plays).toEqual([]);

  // Switch to video: the cell plays live (the policy's lowest definition for a 4-cell FBB grid).
  await surface.getByRole('button', { name: stillsZhCN.toVideo, exact: true }).click();
  await expect(surface).toBeHidden();
  await grid.expectPlaying(CAMERA);
  expect(plays).toHaveLength(1);

  // Back to stills from the title bar: the video stops, the picture is there again.
  await cell.getByRole('button', { name: stillsZhCN.toStills, exact: true }).click();
  await expect(surface).toBeVisible();
  await expect(surface.locator('img[data-picture-id]')).toBeVisible({ timeout: 20_000 });
  await expect(cell).toHaveAttribute('data-state', 'idle');
});

test('the same in English', async ({ page, baseURL }) => {
  const grid = new PlayGridPage(page, 'en');
  await grid.signIn(baseURL ?? '');
  await grid.open();
  await grid.chooseOrganisation('Blue Ocean Shipping');
  await grid.setGridSize(9);
  await grid.expandShip(SHIP, CHANNEL);
  await grid.playChannel(CHANNEL);
  const surface = grid.cell(CAMERA).locator('[data-stills-mode="policy"]');
  await expect(surface.locator('[data-still-mode-text]')).toHaveText('Stills every 10 s', { timeout: 20_000 });
  await expect(surface.locator('[data-still-cost]')).toHaveText(/^≈ [\d.]+ (kB|MB)\/h$/, { timeout: 30_000 });
  await expect(surface.getByRole('button', { name: stillsEn.toVideo, exact: true })).toBeVisible();
});
