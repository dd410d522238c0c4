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
  // Each level is told once: one notice per level crossed.
  expect(await notices.filter({ hasText: '80%' }).count()).toBeLessThanOrEqual(1);

  // The notices are toasts over the header for 10 s (a mouse over one holds it): let them go.
  await page.mouse.move(10, 800);
  await expect(notices).toHaveCount(0, { timeout: 30_000 });
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
  // However long the ship is watched, a level already told is not told again.
  expect(await notices.filter({ hasText: '80%' }).count()).toBe(0);
});

test('a used-up `block` budget refuses a new view until the operator overrides with a reason, which the log shows', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await api(page.request, '/databudget/update', { orgId: 'njzsz', shipId: SHIP, policy: 'block', caps: { live: { dayMb: 0.05 }, playback: {}, pictures: {} } });
  const grid = new PlayGridPage(page, 'zh-CN');
  await grid.signIn(baseURL ?? '', 'njzsz');
  await grid.open();
  const badge = grid.ship(SHIP).locator('[data-budget-ship]');
  await expect(badge).toBeVisible({ timeout: 20_000 });

  // Use it up (a view already playing when the cap is crossed goes on).
  await grid.expandShip(SHIP, `${SHIP}-C01`);
  await grid.playChannel(`${SHIP}-C01`);
  await expect(badge).toHaveAttribute('data-budget-level', '100', { timeout: 60_000 });
  await grid.close(`${SHIP}-C01-1`);

  // A new view is refused, with the way out.
  await grid.playChannel(`${SHIP}-C01`);
  const cell = grid.cell(`${SHIP}-C01-1`);
  await expect(cell.getByText(grid.texts.playerCell.budgetBlocked, { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(cell.getByText(grid.texts.playerCell.budgetOverrideHint, { exact: true })).toBeVisible();

  // The budget's notices are toasts over the header for 10 s (a mouse over one holds it): let them go.
  await page.mouse.move(10, 800);
  await expect(page.getByTestId('budget-notice')).toHaveCount(0, { timeout: 30_000 });
  await page.getByRole('button', { name: grid.texts.shell.statistics }).click();
  const row = page.getByTestId('budget-table').locator('tr', { has: page.locator(`[data-budget-row="${SHIP}"]`) });
  await expect(row.locator('[data-budget-state="block"]')).toHaveText(texts.state.block);
  await row.getByRole('button', { name: texts.override }).click();
  const dialog = page.getByRole('dialog', { name: texts.overrideDialog.title.replace('{{ship}}', '宁江一号') });
  const confirm = dialog.getByRole('button', { name: texts.overrideDialog.confirm });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(texts.overrideDialog.reason).fill('机舱火警，需要查看');
  await confirm.click();
  await expect(dialog).toBeHidden();
  await expect(row.locator('[data-budget-state="override"]')).toBeVisible();

  await page.getByRole('button', { name: texts.log.open }).click();
  const log = page.getByRole('dialog', { name: texts.log.title.replace('{{org}}', 'NJZSZ Shipping') });
  await expect(log.getByRole('row', { name: /宁江一号.*njzsz.*机舱火警，需要查看/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: grid.texts.shell.statistics }).click();

  await cell.getByRole('button', { name: grid.texts.playerCell.replay, exact: true }).click();
  await grid.expectPlaying(`${SHIP}-C01-1`);
});
