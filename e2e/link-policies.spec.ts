import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { COOKIES, TOKEN_HEADER, type LinkPolicyList } from '@ship-cctv/protocol';
import { LinkPoliciesDialog } from './pages/link-policies-page.ts';
import { PlayGridPage } from './pages/play-grid-page.ts';

/**
 * The link-policy screen (issue 19 item 4): Blue Ocean Shipping's manager changes what a cell asks
 * for over FleetBroadband, and a live cell of S1003 — a ship at sea on FBB in the demo fleet —
 * follows it at once and says why. The policy is put back afterwards.
 */
test.describe.configure({ mode: 'serial' });

const ORG = 'blueocean';
const ORG_NAME = 'Blue Ocean Shipping';
const SHIP = 'S1003';
const CAMERA = 'S1003-C01-1';

/** The policies through the API, as `demo` — with the page's own session when there is one (a new sign-in would end it). */
async function policies(request: APIRequestContext, method: 'GET' | 'DELETE', path = '', page?: Page): Promise<LinkPolicyList> {
  let token = (await page?.context().cookies())?.find((c) => c.name === COOKIES.token)?.value;
  if (!token) {
    const logon = await request.post('/api/v1/sys/logon', { data: { username: 'demo', password: 'demo-pass' } });
    token = ((await logon.json()) as { data: { token: string } }).data.token;
  }
  const res = await request.fetch(`/api/v1/cctv/linkPolicy/${ORG}${path}`, { method, headers: { [TOKEN_HEADER]: token } });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { data: LinkPolicyList }).data;
}

test.afterEach(async ({ request }) => {
  await policies(request, 'DELETE', '/FBB');
});

test('a manager asks for the standard definition in small grids over FBB; a cell on an FBB ship follows and says why', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const grid = new PlayGridPage(page, 'zh-CN');
  await grid.signIn(baseURL ?? '');
  await grid.open();
  await grid.chooseOrganisation(ORG_NAME);
  // S1003 spends most of the demo's cycle at sea on FBB (a 45 s outage every ~10 minutes).
  await expect(grid.ship(SHIP).locator('[data-link]')).toHaveAttribute('data-link', 'FBB', { timeout: 60_000 });

  await grid.setGridSize(1);
  await grid.expandShip(SHIP, `${SHIP}-C01`);
  await grid.playChannel(`${SHIP}-C01`);
  const reason = grid.cell(CAMERA).locator('[data-definition-reason]');
  // The defaults: over FBB the satellite tier even in a 1-cell grid.
  await expect(reason).toHaveAttribute('data-definition-reason', '卫星清晰度：FBB 链路，1 分屏', { timeout: 15_000 });

  const screen = new LinkPoliciesDialog(page, 'zh-CN', ORG_NAME);
  await screen.open();
  await expect(screen.source('FBB')).toHaveAttribute('data-policy-source', 'default');
  await expect(screen.source('FBB')).toHaveText(screen.texts.source.default);
  await expect(screen.level('FBB', 'fewCells')).toHaveText(screen.texts.level.satellite);
  // Iridium's defaults carry stills every 30 s.
  await expect(screen.stills('IRIDIUM')).toHaveAttribute('aria-checked', 'true');
  await expect(screen.seconds('IRIDIUM')).toHaveValue('30');
  // A used-up live budget on FBB: pictures only, for ships whose budget follows the link.
  await expect(screen.row('FBB').locator('[data-policy-field="budgetPolicy"]')).toHaveText(screen.texts.budgetPolicy.stills);

  // A smaller view asking for more than a bigger one is refused before anything is sent.
  await screen.setLevel('FBB', 'manyCells', 'best');
  await expect(screen.dialog.locator('[data-policy-alert="FBB"]')).toBeVisible();
  await expect(screen.button('FBB', screen.texts.save)).toBeDisabled();
  await screen.setLevel('FBB', 'manyCells', 'satellite');
  await expect(screen.row('FBB').locator('[data-policy-unsaved]')).toHaveCount(0);
  await screen.setLevel('FBB', 'fewCells', 'standard');
  await expect(screen.dialog.locator('[data-policy-alert="FBB"]')).toHaveCount(0);
  await expect(screen.row('FBB').locator('[data-policy-unsaved]')).toBeVisible();
  await screen.save('FBB');
  await expect(screen.source('FBB')).toHaveText(screen.texts.source.own);
  await page.screenshot({ path: 'docs/screenshots/link-policies-zh-CN.png', animations: 'disabled' });

  // Saved on the server.
  const saved = (await policies(page.request, 'GET', '', page)).policies.find((p) => p.linkType === 'FBB');
  expect(saved).toMatchObject({ manyCells: 'satellite', fewCells: 'standard', fullScreen: 'standard', source: 'own' });

  // The open cell follows at once, and says why.
  await screen.close();
  await expect(reason).toHaveAttribute('data-definition-reason', '标准清晰度：FBB 链路，1 分屏', { timeout: 15_000 });

  // Still there after a reload; then back to the defaults from the screen.
  await page.reload();
  await screen.open();
  await expect(screen.level('FBB', 'fewCells')).toHaveText(screen.texts.level.standard);
  await screen.restore('FBB');
  await expect(screen.level('FBB', 'fewCells')).toHaveText(screen.texts.level.satellite);
  expect((await policies(page.request, 'GET', '', page)).policies.find((p) => p.linkType === 'FBB')?.source).toBe('default');
});

test('the same screen in English: FBB shows stills every 20 s', async ({ page, baseURL }) => {
  test.setTimeout(60_000);
  const grid = new PlayGridPage(page, 'en');
  await grid.signIn(baseURL ?? '');
  await grid.open();
  await grid.chooseOrganisation(ORG_NAME);
  const screen = new LinkPoliciesDialog(page, 'en', ORG_NAME);
  await screen.open();
  await expect(screen.source('FBB')).toHaveText('Default');
  await expect(screen.seconds('FBB')).toBeDisabled();
  await screen.stills('FBB').click();
  await screen.seconds('FBB').fill('20');
  await screen.save('FBB');
  await expect(screen.source('FBB')).toHaveText('Custom');
  await page.screenshot({ path: 'docs/screenshots/link-policies-en.png', animations: 'disabled' });
  expect((await policies(page.request, 'GET', '', page)).policies.find((p) => p.linkType === 'FBB')).toMatchObject({ stills: true, stillsEverySeconds: 20, source: 'own' });
});
