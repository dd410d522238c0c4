import { expect, test } from '@playwright/test';
import { ShellScreen, SignInScreen } from './pages/shell-page.ts';
import { describeJavaScript, kb, recordJavaScript } from './js-transfer.ts';

/** What a desktop browser may download to sign in and reach the main preview (README "What a browser downloads"). */
const DESKTOP_BUDGET_BYTES = 350 * 1024;

test.describe('JavaScript a desktop browser downloads', () => {
  // A first visit on a busy machine: the server compresses nothing on the fly, but the page waits for it.
  test.setTimeout(120_000);

  test('sign-in page, then the main preview: at most 350 KB over the wire', async ({ page }) => {
    const js = recordJavaScript(page);
    const signIn = new SignInScreen(page, 'zh-CN');
    await page.goto('/monitor/login');
    await expect(signIn.submit).toBeVisible({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    await js.settled();
    const atSignIn = [...js.files];

    await signIn.username.fill('demo');
    await signIn.password.fill('demo-pass');
    await signIn.submit.click();
    const shell = new ShellScreen(page, 'zh-CN');
    await expect(page).toHaveURL(/\/monitor\/live\/index$/, { timeout: 30_000 });
    await expect(shell.mainPreview).toBeVisible({ timeout: 30_000 });
    await expect(shell.emptyCells.first()).toBeVisible({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    await js.settled();

    console.log(describeJavaScript('sign-in page', atSignIn));
    console.log(describeJavaScript('sign-in page, then the main preview', js.files));
    expect(js.totalBytes(), `${kb(js.totalBytes())} over the wire`).toBeLessThanOrEqual(DESKTOP_BUDGET_BYTES);
  });
});
