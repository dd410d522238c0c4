import { expect, type Locator, type Page, type Response } from '@playwright/test';
import { en } from '../../apps/web/src/i18n/locales/en.ts';
import { zhCN } from '../../apps/web/src/i18n/locales/zh-CN.ts';

/**
 * How long a page's first screen may take to appear after a navigation: the browser loads and
 * parses the app's code first, seconds when the machine is busy (the browser tests run several
 * demo stacks and browsers side by side). What a page then shows is checked with the usual waits.
 */
export const PAGE_LOAD_MS = 15_000;

export const TEXTS = { 'zh-CN': zhCN, en } as const;
export type Language = keyof typeof TEXTS;

/**
 * The sign-in screen of apps/web (title, version, language choice, sign-in form). Locators use the
 * app's own texts, so a test states the language it expects and finds the controls in it.
 */
export class MonitorPage {
  readonly texts: (typeof TEXTS)[Language];
  readonly heading: Locator;
  readonly version: Locator;
  readonly username: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly error: Locator;

  constructor(
    readonly page: Page,
    readonly language: Language = 'zh-CN',
  ) {
    this.texts = TEXTS[language];
    this.heading = page.getByRole('heading', { level: 1 });
    this.version = page.getByTestId('app-version');
    this.username = page.getByLabel(this.texts.signIn.username, { exact: true });
    this.password = page.getByLabel(this.texts.signIn.password, { exact: true });
    this.submit = page.getByRole('button', { name: this.texts.signIn.submit, exact: true });
    this.error = page.getByRole('alert');
  }

  /** Opens a path under /monitor/ and waits until the app has rendered (it reads its config first). */
  async open(path = '/monitor/'): Promise<Response | null> {
    const response = await this.page.goto(path);
    // A cold page load parses the app's code first: seconds on a busy machine.
    await expect(this.heading).toBeVisible({ timeout: PAGE_LOAD_MS });
    return response;
  }

  /** Submits the form; a subclass answers the screen it lands on (see SignInScreen). */
  async signIn(username: string, password: string): Promise<unknown> {
    await this.username.fill(username);
    await this.password.fill(password);
    await this.submit.click();
    return undefined;
  }

  signedInAs(displayName: string): Locator {
    return this.page.getByText(this.texts.signIn.signedInAs.replace('{{name}}', displayName), { exact: true });
  }

  /** Clicks the language choice and answers a page object for the new language. */
  async switchTo(language: Language): Promise<MonitorPage> {
    const label = language === 'en' ? this.texts.language.en : this.texts.language.zhCN;
    await this.page.getByText(label, { exact: true }).click();
    const next = new MonitorPage(this.page, language);
    await expect(next.heading).toHaveText(next.texts.app.title);
    return next;
  }
}
