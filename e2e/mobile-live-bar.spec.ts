import { expect, test, type Locator } from '@playwright/test';
import { MobilePage } from './pages/mobile-page.ts';

/**
 * The phone's live view at 390×844, in both languages: the options dialog names each resolution's
 * group in the page's language, and the bar over the picture keeps its texts apart (ellipsis or
 * wrapping) and every button inside it — with talk and sound on (S1001), also unmuted, when the
 * volume slider joins the bar.
 */
test.describe.configure({ mode: 'serial' });

const box = async (locator: Locator) => {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not on screen');
  return b;
};

for (const language of ['en', 'zh-CN'] as const) {
  test(`live view bar and options dialog (${language})`, async ({ page, context, baseURL }, testInfo) => {
    test.setTimeout(120_000);
    // Each phone its own user of Blue Ocean: a sign-in displaces the same user's other session.
    const iphone = testInfo.project.name === 'mobile-iphone';
    await context.addCookies([{ name: 'language', value: language, url: baseURL ?? '' }]);
    const mobile = new MobilePage(page, language);
    await mobile.openSignIn();
    await mobile.signIn(iphone ? 'demo' : 'duty');
    // demo sees two organisations, duty Blue Ocean and its tankers: both pick Blue Ocean.
    await mobile.pickOrganisation('Blue Ocean Shipping');
    await mobile.pickShip('S1001');
    await mobile.longPress('S1001-C01-1');
    await mobile.choose('live');
    await expect(mobile.liveDialog).toBeVisible();
    // The group of every resolution, in the page's language ("标准" / "Standard").
    const options = mobile.liveDialog.getByRole('group', { name: mobile.texts.mobile.liveOptions.definition });
    await expect(options).toContainText(language === 'en' ? 'Standard' : '标准', { timeout: 15_000 });
    if (language === 'en') await expect(options).not.toContainText('标准');
    await mobile.liveDialog.getByRole('button', { name: mobile.texts.mobile.liveOptions.play, exact: true }).tap();
    await expect(mobile.liveDialog).toBeHidden();
    await mobile.expectPlaying();

    const bar = mobile.videoArea.locator('[data-frame-bar]');
    const unmute = bar.getByRole('button', { name: mobile.texts.playerCell.unmute, exact: true });
    await expect(unmute).toBeVisible({ timeout: 15_000 });
    await expect(bar.getByRole('button', { name: mobile.texts.talk.button, exact: true })).toBeVisible();
    await expectBarInOrder(bar);
    await unmute.tap();
    await expect(bar.getByRole('slider')).toBeVisible();
    await expectBarInOrder(bar);
    if (language === 'en' && iphone) await page.screenshot({ path: 'docs/screenshots/mobile-live-bar-en.png' });
  });
}

/** Every button lies inside the bar (and the screen); title, ship name and reason do not run into each other. */
async function expectBarInOrder(bar: Locator) {
  const barBox = await box(bar);
  expect(barBox.x + barBox.width).toBeLessThanOrEqual(390 + 0.5);
  for (const button of await bar.getByRole('button').all()) {
    const b = await box(button);
    expect(b.x, await button.getAttribute('aria-label') ?? '').toBeGreaterThanOrEqual(barBox.x - 0.5);
    expect(b.x + b.width, await button.getAttribute('aria-label') ?? '').toBeLessThanOrEqual(barBox.x + barBox.width + 0.5);
  }
  const title = await box(bar.locator('[data-frame-title]'));
  const reason = bar.locator('[data-definition-reason]');
  if (await reason.isVisible()) expect(title.x + title.width + 4).toBeLessThanOrEqual((await box(reason)).x);
  // A text that does not fit ends in an ellipsis (or wraps inside its box): none is cut off mid-letter.
  const cut = await bar.locator('[data-frame-text]').evaluateAll((texts) =>
    texts.filter((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).textOverflow !== 'ellipsis').map((el) => el.textContent),
  );
  expect(cut).toEqual([]);
}
