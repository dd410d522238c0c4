import { expect, test, type APIRequestContext, type BrowserContext } from '@playwright/test';
import { PlayGridPage } from './pages/play-grid-page.ts';
import { ShellScreen, SignInScreen, TEXTS } from './pages/shell-page.ts';

/**
 * The desktop shell against the demo stack: sign-in, header, source tree with live link status,
 * language, logout, /jump and a displaced session. The tests share the demo users, so they run
 * one after another (a second sign-in of a user ends the first one's session).
 */
test.describe.configure({ mode: 'serial' });

const SCREENSHOTS = 'docs/screenshots';
const KNOWN_LINKS = /^(VSAT|FBB|FOURTHG|OFFLINE|DEFAULT|AUTO|UNKNOWN|IRIDIUM|IRIDIUM1|FX)$/;

async function logon(request: APIRequestContext, username: string): Promise<string> {
  const res = await request.post('/api/v1/sys/logon', { data: { username, password: 'demo-pass' } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

async function cookie(context: BrowserContext, name: string): Promise<string | undefined> {
  return (await context.cookies()).find((c) => c.name === name)?.value;
}

test('signing in as demo shows the shell; the tree shows ships with link icons and live signal colours', async ({ page }) => {
  // The simulated fleet connects over emulated satellite links after the server starts.
  test.setTimeout(120_000);
  const signIn = new SignInScreen(page);
  await signIn.open();
  const shell = await signIn.signIn('demo');
  await expect(page).toHaveTitle(TEXTS['zh-CN'].app.title);
  await expect(shell.role).toHaveText('角色：管理员');
  await expect(shell.userMenu).toHaveText('Demo Operator');
  // Two organisations: nothing is picked for the user, so the brand is the product title.
  await expect(shell.brand).toHaveText(TEXTS['zh-CN'].app.title);

  await shell.pickOrganisation('Blue Ocean Shipping');
  // Only njzsz says near-end playback (see below); every other organisation says shore playback.
  await expect(shell.menuItem(shell.texts.shell.menu.shorePlayback)).toBeVisible();
  await expect(shell.ship('S1001')).toContainText('BLUE OCEAN STAR 蓝海之星');
  // Its three ships and, in Blue Ocean Tankers (sub-organisations start open), two more.
  await expect(shell.ships).toHaveCount(5);
  for (const id of ['S1001', 'S1002', 'S1003']) {
    await expect(shell.linkIcon(id)).toHaveAttribute('data-link', KNOWN_LINKS);
    await expect(shell.signal(id)).toHaveAttribute('data-signal', /^(green|lightGreen|yellow|orange|red|white)$/);
  }
  // Live over STOMP: some ship reports a link other than OFFLINE, with a real signal colour.
  await expect(shell.sidebar.locator('[data-link]:not([data-link="OFFLINE"])').first()).toBeVisible({ timeout: 90_000 });
  await expect(shell.sidebar.locator('[data-signal]:not([data-signal="white"])').first()).toBeVisible({ timeout: 90_000 });

  // Expanding a ship loads its channels (blocked ones hidden, multi-camera ones with sub-items).
  await shell.expandShip('S1002');
  await expect(shell.channel('S1002-C01')).toBeVisible();
  await expect(shell.sidebar.locator('[data-camera]')).toHaveCount(0);
  await expect(shell.channel('S1002-C02')).toBeVisible();

  // Double-click plays a channel in the grid; the search filters ships.
  const emptyBefore = await shell.emptyCells.count();
  await shell.channel('S1002-C01').dblclick();
  await expect(shell.emptyCells).toHaveCount(emptyBefore - 1);
  await shell.search.fill('voyager');
  await expect(shell.ships).toHaveCount(1);
  await expect(shell.ship('S1003')).toBeVisible();
  await shell.search.fill('');

  await page.screenshot({ path: `${SCREENSHOTS}/desktop-main-zh-CN.png` });
});

test('switching to English changes the texts and survives a reload', async ({ page, context }) => {
  const signIn = new SignInScreen(page);
  await signIn.open();
  await page.screenshot({ path: `${SCREENSHOTS}/desktop-sign-in-zh-CN.png` });
  const zh = await signIn.signIn('demo');
  const english = await zh.switchLanguage('en');
  await expect(page).toHaveTitle('Ship Remote CCTV Monitoring');
  await expect(english.role).toHaveText('Role: Manager');
  await expect(english.mainPreview).toHaveText('Main preview');
  expect(await cookie(context, 'language')).toBe('en');

  await page.reload();
  await english.waitUntilShown();
  await expect(english.role).toHaveText('Role: Manager');
  await english.pickOrganisation('Blue Ocean Shipping');
  await expect(english.ship('S1001')).toBeVisible();
  await english.expandShip('S1002');
  await expect(english.sidebar.getByText('Main Deck')).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/desktop-main-en.png` });

  const signInEn = await english.logout();
  await expect(signInEn.heading).toHaveText('Ship Remote CCTV Monitoring');
  await page.screenshot({ path: `${SCREENSHOTS}/desktop-sign-in-en.png` });
});

test('njzsz sees only its organisation, selected automatically', async ({ page }) => {
  const shell = await (async () => {
    const signIn = new SignInScreen(page);
    await signIn.open();
    return signIn.signIn('njzsz');
  })();
  await expect(shell.brand).not.toHaveText(TEXTS['zh-CN'].app.title);
  const brand = (await shell.brand.textContent()) ?? '';
  await expect(shell.orgPicker).toBeVisible();
  await shell.orgPicker.click();
  await expect(shell.orgOptions).toHaveCount(1);
  await expect(shell.orgOptions).toHaveText(brand);
  await page.keyboard.press('Escape');
  await expect(shell.ships).toHaveCount(2);
  await expect(shell.ship('S3001')).toBeVisible();
  await expect(shell.ship('S1001')).toHaveCount(0);
  // Spec §2, §6: for njzsz shore playback is called near-end playback.
  await expect(shell.menuItem(shell.texts.shell.menu.nearEndPlayback)).toBeVisible();
  await expect(shell.menuItem(shell.texts.shell.menu.shorePlayback)).toHaveCount(0);
});

test('the picked organisation is remembered across a reload, per user', async ({ page }) => {
  const signIn = new SignInScreen(page);
  await signIn.open();
  const shell = await signIn.signIn('demo');
  await expect(shell.brand).toHaveText(TEXTS['zh-CN'].app.title);
  await shell.pickOrganisation('NJZSZ Shipping');
  await expect(shell.ship('S3001')).toBeVisible();

  await page.reload();
  await shell.waitUntilShown();
  await expect(shell.brand).toHaveText('NJZSZ Shipping');
  await expect(shell.ship('S3001')).toBeVisible();
  await expect(shell.ship('S1001')).toHaveCount(0);
  // The demo user's other organisation shows its default once more when they pick it.
  await shell.pickOrganisation('Blue Ocean Shipping');
  await page.reload();
  await shell.waitUntilShown();
  await expect(shell.brand).toHaveText('Blue Ocean Shipping');
});

test("search finds a channel of a ship that was not expanded, and keeps that ship's channels loaded", async ({ page }) => {
  const getChannel = (shipId: string) => (url: string) => url.includes(`/api/v1/cctv/monitor/getChannel/${shipId}`);
  const requests: string[] = [];
  page.on('request', (req) => requests.push(req.url()));
  const signIn = new SignInScreen(page);
  await signIn.open();
  const shell = await signIn.signIn('demo');
  await shell.pickOrganisation('Blue Ocean Shipping');
  await expect(shell.ship('S1001')).toBeVisible();
  // S2001 sits in the sub-organisation Blue Ocean Tankers, open from the start so its link shows;
  // its channels are not loaded until it is expanded.
  await expect(shell.ship('S2001')).toBeVisible();
  expect(requests.filter(getChannel('S2001'))).toHaveLength(0);

  await shell.search.fill('pump');
  await expect(shell.channel('S2001-C03')).toBeVisible({ timeout: 15_000 });
  await expect(shell.channel('S2001-C03')).toContainText('Pump Room');
  await expect(shell.ships).toHaveCount(1);
  await expect(shell.ship('S2001')).toBeVisible();
  expect(requests.filter((url) => url.includes('/api/v1/cctv/monitor/searchChannel/blueocean?name=pump'))).toHaveLength(1);
  // Expanding loads the wait time, then the channels; the camera status rows are live.
  await expect(shell.channel('S2001-C03').locator('[data-online]')).toHaveCount(1);

  // A camera's name finds its channel too (S1002 "Main Deck" has a "Main Deck Starboard" camera).
  await shell.search.fill('starboard');
  await expect(shell.channel('S1002-C02')).toBeVisible({ timeout: 15_000 });
  await expect(shell.ship('S2001')).toHaveCount(0);

  // Back to the whole tree and to "pump": S2001's channels are not loaded a second time.
  await shell.search.fill('');
  await expect(shell.ship('S1003')).toBeVisible();
  await shell.search.fill('pump');
  await expect(shell.channel('S2001-C03')).toBeVisible();
  expect(requests.filter(getChannel('S2001'))).toHaveLength(1);
  await shell.search.fill('no such channel anywhere');
  await expect(shell.sidebar.getByText(shell.texts.sourceTree.noMatch)).toBeVisible();
});

test('the statistics panel shows the uplink bytes and rate of the ships of the open cells, polled only while open', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const linkBytes: string[] = [];
  page.on('request', (req) => {
    if (req.url().includes('/api/v1/cctv/statistics/linkBytes/')) linkBytes.push(req.url());
  });
  const signIn = new SignInScreen(page);
  await signIn.open();
  const shell = await signIn.signIn('demo');
  await shell.pickOrganisation('Blue Ocean Shipping');
  const grid = new PlayGridPage(page);
  await grid.expandShip('S1001', 'S1001-C01');
  await grid.playChannel('S1001-C01');
  await grid.expectPlaying('S1001-C01-1', 60_000);

  // Closed by default (spec §3).
  await expect(shell.statisticsPanel).toHaveCount(0);
  expect(linkBytes).toHaveLength(0);
  await shell.statisticsButton.click();
  await expect(shell.statisticsPanel).toBeVisible();
  const row = shell.uplinkOf('S1001');
  await expect(row).toContainText('BLUE OCEAN STAR');
  await expect.poll(async () => Number(await row.getAttribute('data-bytes')), { timeout: 15_000 }).toBeGreaterThan(0);
  await expect(row).toContainText(/\d[\d.,]* (kB|MB|GB)/);
  // The rate comes once the server has two readings a few seconds apart; video is flowing now.
  await expect(row).toContainText(/[1-9][\d.,]* (kbit|Mbit)\/s/, { timeout: 20_000 });
  // Refreshed while open: the figure grows as the video plays.
  const first = Number(await row.getAttribute('data-bytes'));
  await expect.poll(async () => Number(await row.getAttribute('data-bytes')), { timeout: 15_000 }).toBeGreaterThan(first);
  await page.screenshot({ path: `${SCREENSHOTS}/desktop-statistics-zh-CN.png` });

  // Closed, it asks no more.
  await shell.statisticsButton.click();
  await expect(shell.statisticsPanel).toHaveCount(0);
  const asked = linkBytes.length;
  expect(asked).toBeGreaterThanOrEqual(2);
  await page.waitForTimeout(4_000); // longer than the 3 s refresh: a poll would have been sent by now
  expect(linkBytes).toHaveLength(asked);

  // The same panel in English.
  await page.context().addCookies([{ name: 'language', value: 'en', url: baseURL ?? '' }]);
  await page.reload();
  const shellEn = new ShellScreen(page, 'en');
  await shellEn.waitUntilShown();
  await shellEn.statisticsButton.click();
  await expect(shellEn.uplinkOf('S1001')).toContainText(/[1-9][\d.,]* (kbit|Mbit)\/s/, { timeout: 20_000 });
  await expect(shellEn.linkUsage).toContainText('Satellite links of the ships on screen');
  await page.screenshot({ path: `${SCREENSHOTS}/desktop-statistics-en.png` });
});

test('logout returns to /login and deletes the token cookie', async ({ page, context }) => {
  const signIn = new SignInScreen(page);
  await signIn.open();
  const shell = await signIn.signIn('njzsz');
  expect(await cookie(context, 'newOrgToken')).toBeTruthy();
  await shell.logout();
  expect(await cookie(context, 'newOrgToken')).toBeUndefined();
  // The guard now keeps the app closed.
  await page.goto('/monitor/live/index');
  await expect(page).toHaveURL(/\/monitor\/login$/);
});

test('/jump?token=… enters the app with the handed-over token', async ({ page, context, request }) => {
  const token = await logon(request, 'njzsz');
  await page.goto(`/monitor/jump?token=${encodeURIComponent(token)}`);
  const shell = new SignInScreen(page);
  await expect(page).toHaveURL(/\/monitor\/live\/index$/);
  await expect(page.getByTestId('brand')).not.toHaveText(shell.texts.app.title);
  expect(await cookie(context, 'newOrgToken')).toBe(token);
  expect(await cookie(context, 'isjump')).toBe('1');
});

test('/jump with a bad token says so and offers the sign-in', async ({ page }) => {
  await page.goto('/monitor/jump?token=not-a-token');
  await expect(page.getByText(TEXTS['zh-CN'].session.jump.failed)).toBeVisible();
  await page.getByRole('button', { name: TEXTS['zh-CN'].session.jump.toSignIn }).click();
  await expect(page).toHaveURL(/\/monitor\/login$/);
});

test('a second sign-in elsewhere makes the first tab land on /repeatLogin', async ({ page, request, context }) => {
  const signIn = new SignInScreen(page);
  await signIn.open();
  await signIn.signIn('njzsz');
  // The same user signs in from somewhere else.
  await logon(request, 'njzsz');
  await expect(page).toHaveURL(/\/monitor\/repeatLogin$/, { timeout: 15_000 });
  await expect(page.getByText(TEXTS['zh-CN'].session.repeatLogin.title)).toBeVisible();
  expect(await cookie(context, 'newOrgToken')).toBeUndefined();
  await page.getByRole('button', { name: TEXTS['zh-CN'].session.repeatLogin.toSignIn }).click();
  await expect(page).toHaveURL(/\/monitor\/login$/);
});
