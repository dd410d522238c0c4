import { expect, type Locator, type Page } from '@playwright/test';
import { carouselEn, carouselZhCN } from '../../apps/web/src/features/carousel/locales.ts';
import { type Language, TEXTS } from './monitor-page.ts';
import { chooseLanguageInHeader, signInThroughApi } from './shell-page.ts';

export type { Language };

/**
 * The carousel screen (/monitor/carouselConfig, features/carousel): the organisation's carousels on
 * two tabs, the editor drawer (with its own source tree), and the player over the whole window.
 * Locators use the app's texts; rows carry `data-carousel-id`, the player's cells `data-channel-id`
 * and `data-visible` (false while pre-warming), and inside each the player cell's `data-state`.
 */
export class CarouselPage {
  readonly texts: (typeof TEXTS)[Language];
  readonly root: Locator;
  readonly editor: Locator;
  readonly player: Locator;
  /** The player's "page k / n" tag (data-page, data-page-count). */
  readonly pageTag: Locator;

  constructor(
    readonly page: Page,
    readonly language: Language = 'zh-CN',
  ) {
    this.texts = TEXTS[language];
    this.root = page.getByTestId('carousel-page');
    this.editor = page.getByRole('dialog').filter({ has: page.getByTestId('carousel-editor-org') });
    this.player = page.getByTestId('carousel-player');
    this.pageTag = this.player.getByTestId('carousel-page');
  }

  /** The carousel screen's texts (they load with the screen, not with the first screen's). */
  get carouselTexts() {
    return this.language === 'en' ? carouselEn : carouselZhCN;
  }

  private get c() {
    return this.carouselTexts;
  }

  /** Signs in through the API and leaves the token and language cookies in the browser. */
  async signIn(baseURL: string, username = 'demo', password = 'demo-pass'): Promise<void> {
    await signInThroughApi(this.page, baseURL, this.language, username, password);
  }

  /** From the main preview, through the top menu's Carousel item. */
  async open(): Promise<void> {
    await this.page.goto('/monitor/live/index');
    await this.page.getByRole('menuitem', { name: this.texts.carousel.menu, exact: true }).click();
    await expect(this.page).toHaveURL(/\/monitor\/carouselConfig$/);
    await expect(this.root).toBeVisible({ timeout: 15_000 });
  }

  async switchLanguage(language: Language): Promise<CarouselPage> {
    await chooseLanguageInHeader(this.page, this.language, language);
    return new CarouselPage(this.page, language);
  }

  /** The screen's organisation picker (searchable: typing the name and Enter picks it). */
  async chooseOrganisation(displayName: string): Promise<void> {
    const picker = this.root.getByRole('combobox', { name: this.c.organisation, exact: true });
    await picker.fill(displayName);
    await picker.press('Enter');
    await expect(this.root.getByRole('tab', { name: this.c.tabs.task })).toBeVisible();
  }

  async openTab(kind: 'simple' | 'task'): Promise<void> {
    await this.root.getByRole('tab', { name: this.c.tabs[kind], exact: true }).click();
    await expect(this.root.getByRole('tab', { name: this.c.tabs[kind], exact: true })).toHaveAttribute('aria-selected', 'true');
  }

  row(name: string): Locator {
    return this.root.locator('tr[data-carousel-id]').filter({ hasText: name });
  }

  /** The state tag of a task's row (data-task-state: stopped, running, waiting). */
  rowState(name: string): Locator {
    return this.row(name).locator('[data-task-state]');
  }

  rowButton(name: string, label: string): Locator {
    return this.row(name).getByRole('button', { name: label });
  }

  // ── editor ─────────────────────────────────────────────────────────────────────────────────────

  async openEditor(): Promise<void> {
    await this.root.getByRole('button', { name: this.c.list.create }).click();
    await expect(this.editor).toBeVisible();
  }

  /** The editor tree's row (role treeitem) of a ship (`has` is relative to the row, hence from the page). */
  private shipRow(shipId: string): Locator {
    return this.editor.getByRole('treeitem').filter({ has: this.page.locator(`[data-ship="${shipId}"]`) });
  }

  editorShip(shipId: string): Locator {
    return this.editor.locator(`[data-ship="${shipId}"]`);
  }

  editorChannel(channelId: string): Locator {
    return this.editor.locator(`[data-channel="${channelId}"]`);
  }

  /** Opens a ship in the editor's tree (its channels load on expand). */
  async expandShip(shipId: string, firstChannelId: string): Promise<void> {
    const row = this.shipRow(shipId);
    await expect(async () => {
      if ((await row.getAttribute('aria-expanded')) !== 'true') await row.locator('.ant-tree-switcher').click();
      await expect(this.editorChannel(firstChannelId)).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
  }

  /** Right-click on a ship: adds its visible channels. */
  async addShip(shipId: string): Promise<void> {
    await this.editorShip(shipId).click({ button: 'right' });
  }

  async addChannel(channelId: string): Promise<void> {
    await this.editorChannel(channelId).click();
  }

  /** A chosen channel's row in the editor's list (draggable, with its arrows). */
  chosen(channelId: string): Locator {
    return this.editor.locator(`[data-chosen-channel="${channelId}"]`);
  }

  /** The chosen channels' ids, in order. */
  async chosenChannels(): Promise<string[]> {
    return this.editor.locator('[data-chosen-channel]').evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.chosenChannel ?? ''));
  }

  // ── player ─────────────────────────────────────────────────────────────────────────────────────

  /** The cells on screen (data-visible true), in page order. */
  visibleCells(): Locator {
    return this.player.locator('[data-channel-id][data-visible="true"]');
  }

  /** The next page's cells while they pre-warm (mounted, hidden). */
  hiddenCells(): Locator {
    return this.player.locator('[data-channel-id][data-visible="false"]');
  }

  async visibleChannelIds(): Promise<string[]> {
    return this.visibleCells().evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.channelId ?? ''));
  }

  /** The player's page (1-based) and page count, as the bar shows them. */
  async pageNumber(): Promise<{ page: number; count: number }> {
    return { page: Number(await this.pageTag.getAttribute('data-page')), count: Number(await this.pageTag.getAttribute('data-page-count')) };
  }

  /** How many cells on screen play video (the player cell's data-state, set once frames show). */
  async playingVisible(): Promise<number> {
    return this.visibleCells().locator('[data-state="playing"]').count();
  }

  /** Waits until the player shows page `page` with `cells` cells, every one playing video. */
  async expectPagePlaying(page: number, cells: number, timeout: number): Promise<string[]> {
    await expect(async () => {
      expect((await this.pageNumber()).page).toBe(page);
      await expect(this.visibleCells()).toHaveCount(cells, { timeout: 1_000 });
      expect(await this.playingVisible()).toBe(cells);
    }).toPass({ timeout, intervals: [250] });
    return this.visibleChannelIds();
  }
}
