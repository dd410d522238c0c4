import { expect, test } from '@playwright/test';
import { MonitorPage } from './pages/monitor-page.ts';

const SCREENSHOTS = 'docs/screenshots';

test.describe('web app smoke', () => {
  test('/monitor/ loads with the product title and the version from the runtime config', async ({ page }) => {
    const monitor = new MonitorPage(page);
    const response = await monitor.open('/monitor/');
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle('船舶远程视频监控');
    await expect(monitor.heading).toHaveText('船舶远程视频监控');
    await expect(monitor.version).toContainText('V3.5.26');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    // The page names its icon, and the server has it (browsers asked for /favicon.ico and got a 404).
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(icon).toBe('/monitor/favicon.svg');
    const answer = await page.request.get(icon ?? '');
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toContain('image/svg+xml');
  });

  test('a deep link answers the app (history fallback), whose guard asks for a sign-in', async ({ page }) => {
    const monitor = new MonitorPage(page);
    const response = await monitor.open('/monitor/live/index');
    expect(response?.status()).toBe(200);
    await expect(monitor.heading).toHaveText('船舶远程视频监控');
    await expect(page).toHaveURL(/\/monitor\/login$/);
  });

  test('signing in as demo shows the user name and stores the token cookie', async ({ page, context }) => {
    const monitor = new MonitorPage(page);
    await monitor.open();
    await monitor.signIn('demo', 'demo-pass');
    // The sign-in screen enters the app, whose header names the user.
    await expect(page.getByTestId('user-menu')).toHaveText('Demo Operator');
    const token = (await context.cookies()).find((c) => c.name === 'newOrgToken');
    expect(token?.value).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  test('a wrong password shows the error text', async ({ page, context }) => {
    const monitor = new MonitorPage(page);
    await monitor.open();
    await monitor.signIn('njzsz', 'not-the-password');
    await expect(monitor.error).toHaveText('用户名或密码错误');
    expect((await context.cookies()).some((c) => c.name === 'newOrgToken')).toBe(false);
  });

  test('the language cookie en shows English', async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: 'language', value: 'en', url: baseURL ?? '' }]);
    const monitor = new MonitorPage(page, 'en');
    await monitor.open();
    await expect(page).toHaveTitle('Ship Remote CCTV Monitoring');
    await expect(monitor.heading).toHaveText('Ship Remote CCTV Monitoring');
    await expect(monitor.version).toHaveText('Version V3.5.26');
    await expect(monitor.submit).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });

  test('choosing English sets the language cookie, which survives a reload', async ({ page, context }) => {
    const monitor = new MonitorPage(page);
    await monitor.open();
    const english = await monitor.switchTo('en');
    await expect.poll(async () => (await context.cookies()).find((c) => c.name === 'language')?.value).toBe('en');
    await page.reload();
    await expect(english.heading).toHaveText('Ship Remote CCTV Monitoring');
  });

  test.describe('with an English browser and no cookie', () => {
    test.use({ locale: 'en-US' });

    test('follows the browser language', async ({ page }) => {
      const monitor = new MonitorPage(page, 'en');
      await monitor.open();
      await expect(monitor.heading).toHaveText('Ship Remote CCTV Monitoring');
    });
  });

  // Written on every run so docs/screenshots always shows the current build.
  test('screenshots in Chinese and English', async ({ page, context, baseURL }) => {
    const zh = new MonitorPage(page);
    await zh.open();
    await zh.signIn('demo', 'wrong-password');
    await expect(zh.error).toBeVisible();
    await page.screenshot({ path: `${SCREENSHOTS}/web-scaffold-zh-CN.png` });

    await context.addCookies([{ name: 'language', value: 'en', url: baseURL ?? '' }]);
    const english = new MonitorPage(page, 'en');
    await english.open();
    await page.screenshot({ path: `${SCREENSHOTS}/web-scaffold-en.png` });
  });
});
