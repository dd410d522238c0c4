import { expect, test } from '@playwright/test';
import { PlayGridPage } from './pages/play-grid-page.ts';

/**
 * Live at the satellite tier in the desktop cell: S1003 is at sea on FleetBroadband in the demo
 * fleet, where the link policies' defaults ask for the satellite tier in every grid. Its AV1
 * definition goes up in AV1 because the one viewer, Chromium, says it decodes AV1 (software
 * decoding) and the simulated ship's agent encodes it; the cell says AV1 plays, and the picture
 * moves.
 */
const ORG_NAME = 'Blue Ocean Shipping';
const SHIP = 'S1003';
const CAMERA = 'S1003-C02-1';

test('a cell of an FBB ship plays the satellite tier in AV1 and says so', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const grid = new PlayGridPage(page, 'zh-CN');
  await grid.signIn(baseURL ?? '');
  await grid.open();
  await grid.chooseOrganisation(ORG_NAME);
  await expect(grid.ship(SHIP).locator('[data-link]')).toHaveAttribute('data-link', 'FBB', { timeout: 60_000 });

  await grid.setGridSize(4);
  await grid.expandShip(SHIP, `${SHIP}-C01`);
  await grid.playChannel(`${SHIP}-C02`);
  const cell = grid.cell(CAMERA);
  await expect(cell.locator('[data-definition-reason]')).toHaveAttribute('data-definition-reason', '卫星清晰度：FBB 链路，4 分屏', { timeout: 15_000 });
  await expect(cell.locator('[data-codec]')).toHaveAttribute('data-codec', 'AV1', { timeout: 30_000 });
  await expect(cell.locator('[data-codec]')).toHaveAttribute('title', '视频编码：AV1');
  await grid.expectPlaying(CAMERA, 45_000);
});
