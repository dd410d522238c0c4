import { expect, type Locator, type Page, type Response } from '@playwright/test';
import { COOKIES } from '@ship-cctv/protocol';
import { type Language, MonitorPage, PAGE_LOAD_MS, TEXTS } from './monitor-page.ts';

export { type Language, TEXTS };

/**
 * The header's settings menu → a language (any signed-in desktop screen): the texts change in
 * place, nothing reloads, and the language cookie remembers the choice.
 */
export async function chooseLanguageInHeader(page: Page, from: Language, to: Language): Promise<void> {
  const texts = TEXTS[from];
  await page.getByRole('button', { name: texts.shell.settings }).click();
  const item = page.getByRole('menuitem', { name: to === 'en' ? texts.language.en : texts.language.zhCN });
  await item.click();
  await expect(page.locator('html')).toHaveAttribute('lang', to);
  await expect(item).toBeHidden();
}

/**
 * Signs in through the API (the sign-in screen is another spec's subject) and leaves the token and
 * language cookies in the browser, so the next page load is signed in, in `language`.
 */
export async function signInThroughApi(page: Page, baseURL: string, language: Language, username = 'demo', password = 'demo-pass'): Promise<void> {
  const res = await page.request.post('/api/v1/sys/logon', { data: { username, password } });
  expect(res.ok(), `logon ${username}: HTTP ${res.status()}`).toBe(true);
  const { data } = (await res.json()) as { data: { token: string } };
  await page.context().addCookies([
    { name: COOKIES.token, value: data.token, url: baseURL },
    { name: COOKIES.language, value: language, url: baseURL },
  ]);
}

/** Sign-in screen (/login) of the desktop app: the same controls as MonitorPage, opened at /login. */
export class SignInScreen extends MonitorPage {
  override async open(path = '/monitor/login'): Promise<Response | null> {
    const response = await this.page.goto(path);
    // A cold page load parses the app's code first: seconds on a busy machine.
    await expect(this.submit).toBeVisible({ timeout: PAGE_LOAD_MS });
    return response;
  }

  override async signIn(username: string, password = 'demo-pass'): Promise<ShellScreen> {
    await super.signIn(username, password);
    const shell = new ShellScreen(this.page, this.language);
    await shell.waitUntilShown();
    return shell;
  }
}

/** The signed-in desktop shell on /live/index: header, source tree, play grid. */
export class ShellScreen {
  readonly texts: (typeof TEXTS)[Language];
  readonly brand: Locator;
  readonly role: Locator;
  readonly mainPreview: Locator;
  readonly settings: Locator;
  readonly userMenu: Locator;
  readonly orgPicker: Locator;
  readonly search: Locator;
  readonly sidebar: Locator;
  readonly emptyCells: Locator;
  /** The header's button that opens and closes the statistics panel. */
  readonly statisticsButton: Locator;
  readonly statisticsPanel: Locator;
  /** The panel's part about the ship links of the open cells (its data-uplink-total is the byte total). */
  readonly linkUsage: Locator;

  constructor(
    readonly page: Page,
    readonly language: Language = 'zh-CN',
  ) {
    this.texts = TEXTS[language];
    this.brand = page.getByTestId('brand');
    this.role = page.getByTestId('role');
    this.mainPreview = page.getByRole('menuitem', { name: this.texts.shell.menu.mainPreview });
    this.settings = page.getByRole('button', { name: this.texts.shell.settings });
    this.userMenu = page.getByTestId('user-menu');
    this.orgPicker = page.getByRole('combobox', { name: this.texts.sourceTree.organisation });
    this.search = page.getByRole('searchbox', { name: this.texts.sourceTree.searchPrompt }).or(page.getByPlaceholder(this.texts.sourceTree.searchPrompt));
    this.sidebar = page.getByTestId('sidebar');
    this.emptyCells = page.locator('[data-empty-cell]');
    this.statisticsButton = page.getByRole('button', { name: this.texts.shell.statistics });
    this.statisticsPanel = page.getByLabel(this.texts.fleet.stats.title, { exact: true });
    this.linkUsage = page.getByRole('group', { name: this.texts.fleet.stats.links, exact: true });
  }

  async waitUntilShown(): Promise<void> {
    await expect(this.page).toHaveURL(/\/monitor\/live\/index$/);
    // The shell's code loads after the sign-in's.
    await expect(this.mainPreview).toBeVisible({ timeout: PAGE_LOAD_MS });
  }

  /** Picks an organisation by its display name in the sidebar's picker. */
  async pickOrganisation(displayName: string): Promise<void> {
    await this.orgPicker.click();
    await this.orgOptions.and(this.page.locator(`[title="${displayName}"]`)).click();
    await expect(this.brand).toHaveText(displayName);
    await expect(this.orgOptions).toHaveCount(0);
  }

  /** Options of the open organisation picker. */
  get orgOptions(): Locator {
    return this.page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  }

  ship(shipId: string): Locator {
    return this.sidebar.locator(`[data-ship="${shipId}"]`);
  }

  /** Every ship row the tree shows. */
  get ships(): Locator {
    return this.sidebar.locator('[data-ship]');
  }

  linkIcon(shipId: string): Locator {
    return this.ship(shipId).locator('[data-link]');
  }

  signal(shipId: string): Locator {
    return this.ship(shipId).locator('[data-signal]');
  }

  channel(channelId: string): Locator {
    return this.sidebar.locator(`[data-channel="${channelId}"]`);
  }

  /** Opens a ship's channels with the tree's expander. */
  async expandShip(shipId: string): Promise<void> {
    // `has` is relative to the tree node, so the ship is looked up from there, not from the sidebar.
    const node = this.sidebar.locator('.ant-tree-treenode', { has: this.page.locator(`[data-ship="${shipId}"]`) });
    await node.locator('.ant-tree-switcher').click();
  }

  /** The link usage row of a ship with open cells; its data-bytes is the ship's uplink video bytes. */
  uplinkOf(shipId: string): Locator {
    return this.linkUsage.locator(`[data-uplink-ship="${shipId}"]`);
  }

  /** A top menu item by its text (e.g. the shore playback item's wording). */
  menuItem(label: string): Locator {
    return this.page.getByRole('menuitem', { name: label, exact: true });
  }

  async switchLanguage(language: Language): Promise<ShellScreen> {
    await chooseLanguageInHeader(this.page, this.language, language);
    const next = new ShellScreen(this.page, language);
    await expect(next.mainPreview).toBeVisible();
    return next;
  }

  async logout(): Promise<SignInScreen> {
    await this.userMenu.click();
    await this.page.getByRole('menuitem', { name: this.texts.shell.logout }).click();
    const signIn = new SignInScreen(this.page, this.language);
    await expect(this.page).toHaveURL(/\/monitor\/login$/);
    await expect(signIn.submit).toBeVisible();
    return signIn;
  }
}
