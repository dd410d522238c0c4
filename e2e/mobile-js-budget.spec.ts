import { expect, test } from '@playwright/test';
import { MobilePage } from './pages/mobile-page.ts';
import { describeJavaScript, kb, recordJavaScript } from './js-transfer.ts';

/** What a phone may download to sign in and reach its main screen (README "What a browser downloads"). */
const PHONE_BUDGET_BYTES = 250 * 1024;

test('a phone signs in and reaches its main screen with at most 250 KB of JavaScript over the wire', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const js = recordJavaScript(page);
  const mobile = new MobilePage(page);
  await page.goto('/monitor/login');
  await expect(page.getByRole('button', { name: mobile.texts.signIn.submit, exact: true })).toBeVisible({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  await js.settled();
  const atSignIn = [...js.files];
  // Each phone its own user: a sign-in displaces the same user's other session.
  await mobile.signIn(testInfo.project.name === 'mobile-android' ? 'njzsz' : 'demo');
  await expect(mobile.orgPicker).toBeVisible();
  await page.waitForLoadState('networkidle');
  await js.settled();

  console.log(describeJavaScript(`${testInfo.project.name} sign-in page`, atSignIn));
  console.log(describeJavaScript(`${testInfo.project.name} sign-in page, then the main screen`, js.files));
  expect(js.totalBytes(), `${kb(js.totalBytes())} over the wire`).toBeLessThanOrEqual(PHONE_BUDGET_BYTES);
});
