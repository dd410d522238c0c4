import { expect, test, type APIRequestContext } from '@playwright/test';
import { TOKEN_HEADER } from '@ship-cctv/protocol';
import { budgetsZhCN } from '../apps/web/src/features/budgets/locales.ts';
import { PlayGridPage } from './pages/play-grid-page.ts';

/**
 * A data budget on a ship: a tiny live cap (0.3 MB a day, policy `lowest`) set through the API on
 * NJZSZ's 宁江一号 (S3001); the operator watches its bridge, and the ship's badge in the source tree
 * fills, the notice comes (once), and the statistics panel shows the ship over its cap with new
 * views held to the lowest definition. The budget is removed afterwards.
 */
const SHIP = 'S3001';
const texts = budgetsZhCN;

async function api(request: APIRequestContext, path: string, data: object): Promise<void> {
  const logon = await request.post('/api/v1/sys/logon', { data: { username: 'njzsz', password: 'demo-pass' } });
  const token = ((await logon.json()) as { data: { token: string } }).data.token;
  const res = await request.post(`/api/v1/cctv${path}`, { headers: { [TOKEN_HEADER]: token }, data });
  expect(res.ok(), await res.text()).toBe(true);
}

test.afterEach(async ({ request }) => api(request, '/databudget/delete', { orgId: 'njzsz', shipId: SHIP }));

test('a tiny live budget: the ship’s badge fills as it is watched, the operator is told, new views get the lowest definition', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await api(page.request, '/databudget/update', { orgId: 'njzsz', shipId: SHIP, policy: 'lowest', caps: { live: { dayMb: 0.3 }, playback: {}, pictures: {} } });
  const grid = new PlayGridPage(page, 'zh-CN');
  await grid.signIn(baseURL ?? '', 'njzsz');
  await grid.open();

  const badge = grid.ship(SHIP).locator('[data-budget-ship]');
  await expect(badge).toBeVisible({ timeout: 20_000 });
  await expect(badge).toHaveAttribute('data-budget-level', '0');

  await grid.expandShip(SHIP, `${SHIP}-C01`);
  await grid.playChannel(`${SHIP}-C01`);
  await grid.expectPlaying(`${SHIP}-C01-1`);

  // The server writes the links' bytes every 5 s; the notice comes on STOMP as the cap is crossed.
  const notices = page.getByTestId('budget-notice');
  await expect(notices.filter({ hasText: '宁江一号' }).first()).toBeVisible({ timeout: 60_000 });
  await expect(badge).toHaveAttribute('data-budget-level', '100', { timeout: 30_000 });
  await expect(badge).toContainText(/日 \d{3,}% · 月 —/);

  await page.getByRole('button', { name: grid.texts.shell.statistics }).click();
  const table = page.getByTestId('budget-table');
  await expect(table).toBeVisible();
  const row = table.locator('tr', { has: page.locator(`[data-budget-row="${SHIP}"]`) });
  await expect(row.locator('[data-budget-state="lowest"]')).toHaveText(texts.state.lowest);
  await expect(row.locator('[data-budget-figure="live-day"]')).toContainText('/ 300 kB');
  await page.getByRole('button', { name: grid.texts.shell.statistics }).click();

  // A new view of the ship starts at the lowest definition, and the cell says why.
  await grid.close(`${SHIP}-C01-1`);
  await grid.playChannel(`${SHIP}-C01`);
  await expect(grid.cell(`${SHIP}-C01-1`).getByText(grid.texts.playerCell.budgetLowest, { exact: true })).toBeVisible({ timeout: 30_000 });
  // Each level is told once: one notice per level crossed, however long the ship is watched.
  expect(await notices.filter({ hasText: '80%' }).count()).toBeLessThanOrEqual(1);
});
