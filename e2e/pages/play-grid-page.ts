import { expect, type Locator, type Page } from '@playwright/test';
import { type Language, TEXTS } from './monitor-page.ts';
import { signInThroughApi } from './shell-page.ts';

export type { Language };

/**
 * The desktop live screen (/monitor/live/index): the source tree on the left (features/fleet) and
 * the play grid (features/live). Locators use the app's texts and accessible roles; the tree rows
 * are found by the `data-ship` / `data-channel` attributes its titles carry (the ids, since demo
 * channels of different ships share names such as "Bridge").
 */
export class PlayGridPage {
  readonly texts: (typeof TEXTS)[Language];
  readonly grid: Locator;
  /** One region per playing cell, named "<channel> <ship display name>". */
  readonly cells: Locator;
  readonly emptyCells: Locator;

  constructor(
    readonly page: Page,
    readonly language: Language = 'zh-CN',
  ) {
    this.texts = TEXTS[language];
    this.grid = page.getByRole('region', { name: this.texts.live.grid.label, exact: true });
    this.cells = this.grid.getByRole('region');
    this.emptyCells = this.grid.getByText(this.texts.live.grid.emptyCell, { exact: true });
  }

  /**
   * Signs in through the API and leaves the token cookie in the browser context: the sign-in
   * screen is another spec's subject, and this keeps the grid specs independent of it.
   */
  async signIn(baseURL: string, username = 'demo', password = 'demo-pass'): Promise<void> {
    await signInThroughApi(this.page, baseURL, this.language, username, password);
  }

  async open(): Promise<void> {
    await this.page.goto('/monitor/live/index');
    await expect(this.grid).toBeVisible({ timeout: 15_000 });
  }

  // ── source tree ───────────────────────────────────────────────────────────────────────────────

  ship(shipId: string): Locator {
    return this.page.locator(`[data-ship="${shipId}"]`);
  }

  channel(channelId: string): Locator {
    return this.page.locator(`[data-channel="${channelId}"]`);
  }

  /** The source tree shows one organisation at a time: pick it by its display name. */
  async chooseOrganisation(displayName: string): Promise<void> {
    // The picker is searchable: typing the name and Enter picks it the way a keyboard user would.
    const picker = this.page.getByRole('combobox', { name: this.texts.sourceTree.organisation, exact: true });
    await picker.fill(displayName);
    await picker.press('Enter');
    await expect(this.page.getByRole('tree')).toBeVisible();
  }

  /** A tree row (role treeitem) holding `content`. */
  private row(content: Locator): Locator {
    return this.page.getByRole('treeitem').filter({ has: content });
  }

  /** Expands a row by its toggle (antd's tree expands on the switcher only; there is no accessible name on it). */
  private async expandRow(row: Locator): Promise<void> {
    // A click during the tree's expand animation of a row above can miss: click again until open.
    await expect(async () => {
      if ((await row.getAttribute('aria-expanded')) !== 'true') await row.locator('.ant-tree-switcher').click();
      await expect(row).toHaveAttribute('aria-expanded', 'true', { timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
  }

  /** Opens a sub-organisation's node (its ships are nested under it). */
  async expandOrg(displayName: string): Promise<void> {
    await this.expandRow(this.page.getByRole('treeitem').filter({ has: this.page.getByText(displayName, { exact: true }) }));
  }

  /** Opens a ship's channel list in the tree (its channels load on expand, spec §4). */
  async expandShip(shipId: string, firstChannelId: string): Promise<void> {
    await this.expandRow(this.row(this.ship(shipId)));
    await expect(this.channel(firstChannelId)).toBeVisible({ timeout: 15_000 });
  }

  /** Double-click on a channel: adds it to the playlist (spec §2). */
  async playChannel(channelId: string): Promise<void> {
    await this.channel(channelId).dblclick();
  }

  /** Right-click on a ship: adds its channels, only up to 16 in all (spec §2). */
  async playShip(shipId: string): Promise<void> {
    await this.ship(shipId).click({ button: 'right' });
  }

  // ── grid ──────────────────────────────────────────────────────────────────────────────────────

  cell(cameraId: string): Locator {
    return this.grid.locator(`[data-camera-id="${cameraId}"]`);
  }

  async setGridSize(size: 1 | 4 | 9 | 16): Promise<void> {
    const label = this.texts.live.grid.layoutOption.replace('{{count}}', String(size));
    await this.page.getByRole('radiogroup', { name: this.texts.live.grid.layout }).getByText(label, { exact: true }).click();
  }

  async close(cameraId: string): Promise<void> {
    await this.cell(cameraId).getByRole('button', { name: this.texts.playerCell.close, exact: true }).click();
  }

  /** The camera ids of the cells, in grid order. */
  async cameraIds(): Promise<string[]> {
    return this.grid.locator('[data-camera-id]').evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.cameraId ?? ''));
  }

  warning(text: string): Locator {
    return this.page.getByText(text, { exact: true });
  }

  /** currentTime and videoWidth of a cell's <video>. */
  async videoProgress(cameraId: string): Promise<{ currentTime: number; videoWidth: number }> {
    return this.cell(cameraId)
      .locator('video')
      .evaluate((v: HTMLVideoElement) => ({ currentTime: v.currentTime, videoWidth: v.videoWidth }));
  }

  /** Waits until a cell shows frames that advance: a picture, and time moving on. */
  async expectPlaying(cameraId: string, timeout = 30_000): Promise<void> {
    await expect.poll(async () => (await this.videoProgress(cameraId)).videoWidth, { timeout }).toBeGreaterThan(0);
    const first = (await this.videoProgress(cameraId)).currentTime;
    await expect.poll(async () => (await this.videoProgress(cameraId)).currentTime, { timeout }).toBeGreaterThan(first + 0.5);
  }

  /** Opens a cell's stats overlay and answers its text (latency, bitrate, fps, first frame, link). */
  async stats(cameraId: string): Promise<string> {
    const cell = this.cell(cameraId);
    if (!(await cell.locator('dl').isVisible())) await cell.getByRole('button', { name: this.texts.playerCell.stats, exact: true }).click();
    await expect(cell.getByText(/\d+ fps/)).toBeVisible();
    return (await cell.locator('dl').innerText()).replace(/\s*\n\s*/g, ' ');
  }
}
