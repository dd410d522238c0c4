import { expect, type Locator, type Page } from '@playwright/test';
import { type Language, TEXTS } from './monitor-page.ts';

export type { Language };
import { chooseLanguageInHeader, signInThroughApi } from './shell-page.ts';

/**
 * The picture screens (features/pictures): snapshot now in a live cell, ship photo playback
 * (/monitor/recordlivephoto) and shore photo playback (/monitor/record/photo). Locators use the
 * app's texts; picture cards carry `data-picture-id`.
 */
export class PicturesPage {
  readonly texts: (typeof TEXTS)[Language];

  constructor(
    readonly page: Page,
    readonly language: Language = 'zh-CN',
  ) {
    this.texts = TEXTS[language];
  }

  async signIn(baseURL: string, username = 'demo', password = 'demo-pass'): Promise<void> {
    await signInThroughApi(this.page, baseURL, this.language, username, password);
  }

  async switchLanguage(language: Language): Promise<PicturesPage> {
    await chooseLanguageInHeader(this.page, this.language, language);
    return new PicturesPage(this.page, language);
  }

  async chooseOrganisation(displayName: string): Promise<void> {
    const picker = this.page.getByRole('combobox', { name: this.texts.sourceTree.organisation, exact: true });
    await picker.fill(displayName);
    await picker.press('Enter');
    await expect(this.page.getByRole('tree')).toBeVisible();
  }

  async expandShip(shipId: string, firstChannelId: string): Promise<void> {
    const row = this.page.getByRole('treeitem').filter({ has: this.page.locator(`[data-ship="${shipId}"]`) });
    await expect(async () => {
      if ((await this.page.locator(`[data-channel="${firstChannelId}"]`).count()) === 0) await row.locator('.ant-tree-switcher').click();
      await expect(this.page.locator(`[data-channel="${firstChannelId}"]`)).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
  }

  channel(channelId: string): Locator {
    return this.page.locator(`[data-channel="${channelId}"]`);
  }

  /** The cards of the ship or shore grid. */
  cards(): Locator {
    return this.page.locator('[data-picture-id]');
  }

  async openShipPhotos(): Promise<void> {
    await this.page.getByRole('menuitem', { name: this.texts.pictures.menu.shipPhoto, exact: true }).click();
    await expect(this.page).toHaveURL(/\/monitor\/recordlivephoto$/);
    await expect(this.page.getByText(this.texts.pictures.ship.chooseCamera)).toBeVisible({ timeout: 15_000 });
  }

  async openShorePhotos(): Promise<void> {
    const shore = this.page.getByRole('menuitem', { name: this.texts.shell.menu.shorePlayback });
    await shore.hover();
    await this.page.getByRole('menuitem', { name: this.texts.pictures.menu.shorePhoto, exact: true }).click();
    await expect(this.page).toHaveURL(/\/monitor\/record\/photo$/);
    await expect(this.page.getByTestId('shore-photo-page')).toBeVisible({ timeout: 15_000 });
  }

  /** Waits until an <img> has decoded (naturalWidth > 0) and answers its natural size. */
  async decoded(img: Locator, timeout = 30_000): Promise<{ width: number; height: number }> {
    await expect.poll(async () => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth), { timeout }).toBeGreaterThan(0);
    return img.evaluate((el: HTMLImageElement) => ({ width: el.naturalWidth, height: el.naturalHeight }));
  }
}
