import { expect, test, type TestInfo } from '@playwright/test';
import { MobilePage, TEXTS } from './pages/mobile-page.ts';

/**
 * The mobile app on phones (projects mobile-iphone and mobile-android: 390×844, touch, their user
 * agents) against the demo stack: real ships streaming over emulated satellite links into the
 * same MSE player as the desktop. A sign-in displaces the same user's previous session, so the
 * tests of this file run one after another; the two phones sign in as different users.
 */
test.describe.configure({ mode: 'serial' });

const SCREENSHOTS = 'docs/screenshots';

/** Each phone its own demo user, organisation and channel, so they can run side by side. */
function phone(testInfo: TestInfo) {
  return testInfo.project.name === 'mobile-android'
    ? { user: 'njzsz', org: 'NJZSZ Shipping', orgCount: 1, ship: 'S3002', camera: 'S3002-C01-1', ios: false }
    : { user: 'demo', org: 'Blue Ocean Shipping', orgCount: 2, ship: 'S1001', camera: 'S1001-C01-1', ios: true };
}

/** Screenshots come from one phone only, so the two projects do not overwrite each other's. */
const takesScreenshots = (testInfo: TestInfo) => testInfo.project.name === 'mobile-iphone';

async function signInAndPickShip(mobile: MobilePage, testInfo: TestInfo) {
  const p = phone(testInfo);
  await mobile.openSignIn();
  await mobile.signIn(p.user);
  if (p.orgCount > 1) await mobile.pickOrganisation(p.org);
  // Spec §2: a single organisation is selected by itself.
  else await expect(mobile.orgPicker).toContainText(p.org);
  await mobile.pickShip(p.ship);
  await expect(mobile.channel(p.camera)).toBeVisible({ timeout: 15_000 });
  return p;
}

test('a phone gets the mobile app: sign-in, tabs, title bar, and none of the desktop code', async ({ page, context, baseURL }, testInfo) => {
  const p = phone(testInfo);
  const scripts: string[] = [];
  page.on('response', (res) => {
    if (res.url().endsWith('.js')) scripts.push(new URL(res.url()).pathname);
  });
  const mobile = new MobilePage(page);
  await page.goto('/monitor/');
  // Spec §2: / goes to /index, whose guard asks for a sign-in.
  await expect(page).toHaveURL(/\/monitor\/login$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(TEXTS['zh-CN'].app.title);
  if (takesScreenshots(testInfo)) await page.screenshot({ path: `${SCREENSHOTS}/mobile-sign-in-zh-CN.png` });

  await page.getByRole('button', { name: '登录', exact: true }).tap();
  await expect(page.getByText('请输入用户名').last()).toBeVisible();
  await mobile.signIn(p.user);
  await expect(page).toHaveURL(/\/monitor\/index$/);
  await expect(mobile.liveTab).toHaveAttribute('aria-current', 'page');
  await expect(mobile.videoArea).toContainText(TEXTS['zh-CN'].mobile.video.empty);
  // Spec §2: no fullscreen button on iOS; the person icon only with isjump=1.
  await expect(mobile.fullscreenButton).toHaveCount(p.ios ? 0 : 1);
  await expect(mobile.personButton).toHaveCount(0);
  // Signed in normally, the language is changed in the settings sheet (no logout offered there).
  await mobile.settingsButton.tap();
  const settings = page.getByRole('dialog', { name: TEXTS['zh-CN'].mobile.titleBar.settings, exact: true });
  await expect(settings.getByRole('button', { name: TEXTS['zh-CN'].mobile.titleBar.logout, exact: true })).toHaveCount(0);
  await settings.getByText(TEXTS.en.language.en, { exact: true }).tap();
  const englishSettings = page.getByRole('dialog', { name: TEXTS.en.mobile.titleBar.settings, exact: true });
  await expect(englishSettings).toBeVisible();
  await englishSettings.getByText(TEXTS['zh-CN'].language.zhCN, { exact: true }).tap();
  await settings.getByRole('button', { name: TEXTS['zh-CN'].mobile.titleBar.close, exact: true }).tap();
  await expect(settings).toBeHidden();
  // Spec §1: at least 350 px wide.
  const minWidth = await page.getByTestId('video-area').evaluate((el) => getComputedStyle(el.parentElement as HTMLElement).minWidth);
  expect(minWidth).toBe('350px');

  // The desktop's chunks (its app, and antd as only it uses it: `antd~App`) never reach the phone.
  expect(scripts.some((path) => /\/assets\/(antd~)?App-/.test(path)), scripts.join(', ')).toBe(false);
  expect(scripts.some((path) => /\/assets\/MobileApp-/.test(path)), scripts.join(', ')).toBe(true);
  await expect(page.locator('[class*="ant-"]')).toHaveCount(0);

  await mobile.playbackTab.tap();
  await expect(page).toHaveURL(/\/monitor\/remoteLive$/);
  await expect(mobile.playbackTab).toHaveAttribute('aria-current', 'page');
  // Unknown paths go to /index.
  await page.goto('/monitor/no-such-page');
  await expect(page).toHaveURL(/\/monitor\/index$/);

  if (takesScreenshots(testInfo)) {
    await context.addCookies([{ name: 'language', value: 'en', url: baseURL ?? '' }]);
    await page.goto('/monitor/login');
    // Signed in: /login goes back to the app; the English sign-in screen is shown after a logout.
    await expect(page).toHaveURL(/\/monitor\/index$/);
    await context.clearCookies({ name: 'newOrgToken' });
    await page.goto('/monitor/login');
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    await page.screenshot({ path: `${SCREENSHOTS}/mobile-sign-in-en.png` });
  }
});

test('pick a ship, long-press a channel, choose live video: it plays, and the layout follows the rotation', async ({ page, context, baseURL }, testInfo) => {
  test.setTimeout(150_000);
  const mobile = new MobilePage(page);
  const p = await signInAndPickShip(mobile, testInfo);
  await expect(mobile.shipPicker.locator('[data-link]')).toBeVisible();
  await expect(mobile.shipPicker.locator('[data-signal]')).toBeVisible();

  await mobile.longPress(p.camera);
  if (takesScreenshots(testInfo)) await page.screenshot({ path: `${SCREENSHOTS}/mobile-actions-zh-CN.png` });
  await mobile.choose('live');
  await expect(mobile.liveDialog).toBeVisible();
  await mobile.liveDialog.getByRole('button', { name: '播放', exact: true }).tap();
  await mobile.expectPlaying();
  await expect(mobile.videoArea.locator('[data-camera-id]')).toHaveAttribute('data-camera-id', p.camera);
  // The desktop's players: frames painted by the page where the browser can (a MediaStream on the
  // <video>; Chromium here, as Android Chrome), the media element's own MediaSource elsewhere.
  const painted = await mobile.video.evaluate((v: HTMLVideoElement) => ({ stream: v.srcObject instanceof MediaStream, can: 'MediaStreamTrackGenerator' in window && 'VideoDecoder' in window }));
  expect(painted.stream).toBe(painted.can);
  // The talk button, on ships with talk on only (S1001 has it, S3002 not).
  const talk = mobile.videoArea.getByRole('button', { name: '对讲', exact: true });
  if (p.ship === 'S1001') await expect(talk).toBeVisible();
  else await expect(talk).toHaveCount(0);

  // Portrait: the video area is the screen's width and three quarters as high (spec §2).
  const portrait = await mobile.videoAreaBox();
  expect(portrait.width).toBeCloseTo(390, 0);
  expect(portrait.height).toBeCloseTo(390 * 0.75, 0);
  await expect(mobile.channel(p.camera)).toHaveAttribute('data-online', 'true');
  if (takesScreenshots(testInfo)) await page.screenshot({ path: `${SCREENSHOTS}/mobile-live-zh-CN.png` });

  // Landscape: the playing video fills the screen, over the title bar, list and tabs.
  await mobile.rotate('landscape');
  await expect(page.locator('[data-layout="fill"]')).toBeVisible();
  const landscape = await mobile.videoAreaBox();
  expect(landscape).toEqual({ x: 0, y: 0, width: 844, height: 390 });
  await mobile.expectPlaying();
  if (takesScreenshots(testInfo)) await page.screenshot({ path: `${SCREENSHOTS}/mobile-landscape-zh-CN.png` });

  await mobile.rotate('portrait');
  await expect(page.locator('[data-layout="portrait"]')).toBeVisible();
  expect((await mobile.videoAreaBox()).height).toBeCloseTo(390 * 0.75, 0);
  await expect(mobile.liveTab).toBeVisible();

  if (takesScreenshots(testInfo)) {
    await context.addCookies([{ name: 'language', value: 'en', url: baseURL ?? '' }]);
    await page.reload();
    const english = new MobilePage(page, 'en');
    await english.waitForScreen();
    await expect(english.liveTab).toBeVisible();
    // The picked ship lives in the page: a reload starts from the pickers again.
    if (p.orgCount > 1) await english.pickOrganisation(p.org);
    await english.pickShip(p.ship);
    await english.longPress(p.camera);
    await page.screenshot({ path: `${SCREENSHOTS}/mobile-actions-en.png` });
    await english.startLive();
    await english.expectPlaying();
    await page.screenshot({ path: `${SCREENSHOTS}/mobile-live-en.png` });
    await english.rotate('landscape');
    await expect(page.locator('[data-layout="fill"]')).toBeVisible();
    await english.expectPlaying();
    await page.screenshot({ path: `${SCREENSHOTS}/mobile-landscape-en.png` });
    await english.rotate('portrait');
  }
});

test('a tap offers this tab’s options; a ship without a default definition refuses to start', async ({ page }) => {
  // Only the demo user sees S2002, the ship without a default definition template.
  const mobile = new MobilePage(page);
  await mobile.openSignIn();
  await mobile.signIn('demo');
  await mobile.pickOrganisation('Blue Ocean Shipping');
  await mobile.pickShip('S2002');
  await mobile.channel('S2002-C01-1').tap();
  await expect(mobile.liveDialog).toBeVisible();
  const play = mobile.liveDialog.getByRole('button', { name: '播放', exact: true });
  await expect(play).toBeEnabled({ timeout: 15_000 });
  await play.tap();
  await expect(mobile.liveDialog.getByRole('alert')).toHaveText('无默认清晰度模板');
  await expect(mobile.video).toHaveCount(0);
  // Choosing a definition lets it start.
  await mobile.liveDialog.getByRole('option').first().tap();
  await play.tap();
  await expect(mobile.liveDialog).toBeHidden();
  await mobile.expectPlaying();
});

test('logout shows only with isjump=1: /jump sets it, the person icon opens the logout sheet', async ({ page, context, request, baseURL }, testInfo) => {
  const p = phone(testInfo);
  const mobile = new MobilePage(page);
  // Signed in here (isjump unset): no person icon.
  await mobile.openSignIn();
  await mobile.signIn(p.user);
  await expect(mobile.personButton).toHaveCount(0);

  // Another portal hands over a token through /jump: isjump=1 and the person icon.
  const res = await request.post('/api/v1/sys/logon', { data: { username: p.user, password: 'demo-pass' } });
  expect(res.ok()).toBe(true);
  const token = ((await res.json()) as { data: { token: string } }).data.token;
  await page.goto(`/monitor/jump?token=${encodeURIComponent(token)}`);
  await mobile.waitForScreen();
  expect((await context.cookies()).find((c) => c.name === 'isjump')?.value).toBe('1');
  await expect(mobile.personButton).toBeVisible();
  await mobile.personButton.tap();
  let logout = page.getByRole('option', { name: TEXTS['zh-CN'].mobile.titleBar.logout, exact: true });
  await expect(logout).toBeVisible();
  if (takesScreenshots(testInfo)) {
    await mobile.expectSettled(logout);
    await page.screenshot({ path: `${SCREENSHOTS}/mobile-logout-zh-CN.png` });
    // The same sheet in English: the session and isjump outlive the reload.
    await context.addCookies([{ name: 'language', value: 'en', url: baseURL ?? '' }]);
    await page.reload();
    const english = new MobilePage(page, 'en');
    await english.waitForScreen();
    await english.personButton.tap();
    logout = page.getByRole('option', { name: TEXTS.en.mobile.titleBar.logout, exact: true });
    await expect(logout).toBeVisible();
    await english.expectSettled(logout);
    await page.screenshot({ path: `${SCREENSHOTS}/mobile-logout-en.png` });
  }
  await logout.tap();
  await expect(page).toHaveURL(/\/monitor\/login$/);
  const cookies = await context.cookies();
  expect(cookies.find((c) => c.name === 'newOrgToken')).toBeUndefined();
  expect(cookies.find((c) => c.name === 'isjump')).toBeUndefined();
});

// Last: it needs the ship and shore playback backends, and a failure here skips nothing after it.
test('long-press, choose ship-end playback: the playback tab opens its options, and it plays', async ({ page, context, baseURL }, testInfo) => {
  test.setTimeout(150_000);
  const mobile = new MobilePage(page);
  const p = await signInAndPickShip(mobile, testInfo);
  await mobile.longPress(p.camera);
  await mobile.choose('playback');
  await expect(page).toHaveURL(/\/monitor\/remoteLive$/);
  await expect(mobile.playbackDialog).toBeVisible();
  if (takesScreenshots(testInfo)) await page.screenshot({ path: `${SCREENSHOTS}/mobile-playback-options-zh-CN.png` });
  await mobile.playbackDialog.getByRole('button', { name: TEXTS['zh-CN'].playback.options.ok, exact: true }).tap();
  await expect(mobile.playbackDialog).toBeHidden();
  await mobile.expectPlaying(90_000);
  await expect(mobile.videoArea.locator('[data-camera-id]')).toHaveAttribute('data-camera-id', p.camera);
  // The recorded time on screen, in the chosen zone (China Standard Time by default).
  await expect(page.getByTestId('recorded-time')).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  if (takesScreenshots(testInfo)) {
    await page.screenshot({ path: `${SCREENSHOTS}/mobile-playback-zh-CN.png` });
    await context.addCookies([{ name: 'language', value: 'en', url: baseURL ?? '' }]);
    await page.reload();
    const english = new MobilePage(page, 'en');
    await english.waitForScreen();
    if (p.orgCount > 1) await english.pickOrganisation(p.org);
    await english.pickShip(p.ship);
    await english.longPress(p.camera);
    await english.choose('playback');
    await expect(english.playbackDialog).toBeVisible();
    await page.screenshot({ path: `${SCREENSHOTS}/mobile-playback-options-en.png` });
    await english.playbackDialog.getByRole('button', { name: TEXTS.en.playback.options.ok, exact: true }).tap();
    await expect(english.playbackDialog).toBeHidden();
    await english.expectPlaying(90_000);
    await expect(page.getByTestId('recorded-time')).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    await page.screenshot({ path: `${SCREENSHOTS}/mobile-playback-en.png` });
  }
});
