import { expect, type Locator, type Page } from '@playwright/test';
import { decodeCaptureCode } from '@ship-cctv/protocol';
import { type Language, TEXTS } from './monitor-page.ts';
import { chooseLanguageInHeader, signInThroughApi } from './shell-page.ts';

export type { Language };

/** A frame of the player's <video> as luma, read in the page (canvas at the video's own size). */
interface FrameLuma {
  width: number;
  height: number;
  /** base64 of width × height bytes. */
  luma: string;
  currentTime: number;
}

/**
 * The desktop ship-end playback screen (/monitor/live/recordlivevideo): the source tree on the
 * left, the playback options dialog, and the player with its clocks, controls and seek bar.
 * Locators use the app's texts; tree rows carry `data-ship` / `data-channel` (features/fleet).
 */
export class ShipPlaybackPage {
  readonly texts: (typeof TEXTS)[Language];
  readonly dialog: Locator;
  readonly player: Locator;
  readonly video: Locator;
  readonly screen: Locator;

  constructor(
    readonly page: Page,
    readonly language: Language = 'zh-CN',
  ) {
    this.texts = TEXTS[language];
    this.dialog = page.getByRole('dialog');
    this.player = page.getByRole('region', { name: this.texts.playback.player.label, exact: true });
    this.video = this.player.locator('video');
    this.screen = page.getByTestId('playback-screen');
  }

  /** Signs in through the API and leaves the token (and language) cookie in the browser. */
  async signIn(baseURL: string, username = 'demo', password = 'demo-pass'): Promise<void> {
    await signInThroughApi(this.page, baseURL, this.language, username, password);
  }

  async open(): Promise<void> {
    await this.page.goto('/monitor/live/recordlivevideo');
    await expect(this.page.getByText(this.texts.playback.page.empty)).toBeVisible({ timeout: 15_000 });
  }

  /** Through the top menu, as an operator gets there from the main preview. */
  async openFromMenu(): Promise<void> {
    await this.page.goto('/monitor/live/index');
    await this.page.getByRole('menuitem', { name: this.texts.playback.menu, exact: true }).click();
    await expect(this.page).toHaveURL(/\/monitor\/live\/recordlivevideo$/);
    await expect(this.page.getByText(this.texts.playback.page.empty)).toBeVisible({ timeout: 15_000 });
  }

  /** Header → settings → another language: the screen stays as it is (playback goes on), in the new texts. */
  async switchLanguage(language: Language): Promise<ShipPlaybackPage> {
    await chooseLanguageInHeader(this.page, this.language, language);
    const next = new ShipPlaybackPage(this.page, language);
    await expect(this.page.getByRole('menuitem', { name: next.texts.playback.menu, exact: true })).toBeVisible();
    return next;
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
      if ((await row.getAttribute('aria-expanded')) !== 'true') await row.locator('.ant-tree-switcher').click();
      await expect(row).toHaveAttribute('aria-expanded', 'true', { timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
    await expect(this.page.locator(`[data-channel="${firstChannelId}"]`)).toBeVisible({ timeout: 15_000 });
  }

  /** Double-click on a channel: the playback options open for it. */
  async chooseChannel(channelId: string): Promise<void> {
    await this.page.locator(`[data-channel="${channelId}"]`).dblclick();
    await expect(this.dialog).toBeVisible();
  }

  /**
   * Opens the dialog's time-zone list filtered by `query` and answers the offsets of the zones it
   * shows, in minutes, top to bottom; the list stays open (for a screenshot) until `closeZones`.
   */
  async zoneOffsets(query: string): Promise<number[]> {
    const zone = this.dialog.getByLabel(this.texts.playback.options.timeZone, { exact: true });
    await zone.click();
    await zone.fill(query);
    // The list that is open (other selects keep theirs in the page, hidden).
    const options = this.page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option-content');
    await expect(options.first()).toBeVisible();
    const labels = await options.allTextContents();
    return labels.map((label) => {
      const m = /^\(UTC([+-])(\d{2}):(\d{2})\)/.exec(label);
      return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : Number.NaN;
    });
  }

  async closeZones(): Promise<void> {
    // A click beside the list closes it (Escape would close the dialog too).
    await this.dialog.locator('.ant-modal-title').click();
    await expect(this.page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')).toHaveCount(0);
  }

  /** Types a time into a picker of the dialog ("YYYY-MM-DD HH:mm:ss", in the dialog's zone). */
  async typeTime(which: 'start' | 'end', text: string): Promise<void> {
    const input = this.dialog.getByLabel(this.texts.playback.options[which], { exact: true });
    await input.click();
    await input.fill(text);
    await input.press('Enter');
    await expect(input).toHaveValue(text);
  }

  /** Waits until the date pickers' pop-ups have faded out (they close on Enter, with an animation). */
  async expectPickersClosed(): Promise<void> {
    await expect(this.page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)')).toHaveCount(0);
  }

  async chooseSpeed(speed: number): Promise<void> {
    await this.dialog.getByText(this.texts.playback.options.speedOption.replace('{{speed}}', String(speed)), { exact: true }).click();
  }

  async startPlayback(): Promise<void> {
    await this.dialog.getByRole('button', { name: this.texts.playback.options.ok, exact: true }).click();
    await expect(this.dialog).toBeHidden();
    await expect(this.player).toBeVisible();
  }

  fieldError(text: string): Locator {
    return this.dialog.locator('.ant-form-item-explain-error', { hasText: text });
  }

  async videoProgress(): Promise<{ currentTime: number; videoWidth: number; paused: boolean }> {
    return this.video.evaluate((v: HTMLVideoElement) => ({ currentTime: v.currentTime, videoWidth: v.videoWidth, paused: v.paused }));
  }

  /** Waits for a picture whose time moves on. */
  async expectFramesAdvance(timeout = 45_000): Promise<void> {
    await expect.poll(async () => (await this.videoProgress()).videoWidth, { timeout }).toBeGreaterThan(0);
    const first = (await this.videoProgress()).currentTime;
    await expect.poll(async () => (await this.videoProgress()).currentTime, { timeout }).toBeGreaterThan(first + 0.5);
  }

  /**
   * The recorded time burned into the frame on screen: the synthetic camera draws the capture time
   * as a machine-readable code (packages/protocol/src/capture-code.ts). Undefined when the frame
   * on screen carries no readable code.
   */
  async recordedTimeOnScreen(): Promise<{ time: number | undefined; currentTime: number }> {
    const frame: FrameLuma | undefined = await this.video.evaluate((v: HTMLVideoElement) => {
      const width = v.videoWidth;
      const height = v.videoHeight;
      if (!width || !height) return undefined;
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const ctx = canvas.getContext('2d', { willReadFrequently: true });
      if (!ctx) return undefined;
      ctx.drawImage(v, 0, 0, width, height);
      const rgba = ctx.getImageData(0, 0, width, height).data;
      const luma = new Uint8Array(width * height);
      for (let i = 0; i < luma.length; i++) luma[i] = Math.round(0.299 * rgba[i * 4]! + 0.587 * rgba[i * 4 + 1]! + 0.114 * rgba[i * 4 + 2]!);
      let binary = '';
      for (let i = 0; i < luma.length; i += 0x8000) binary += String.fromCharCode(...luma.subarray(i, i + 0x8000));
      return { width, height, luma: btoa(binary), currentTime: v.currentTime };
    });
    if (!frame) return { time: undefined, currentTime: 0 };
    const pixels = new Uint8Array(Buffer.from(frame.luma, 'base64'));
    return { time: decodeCaptureCode(pixels, frame.width, frame.height, { channels: 1 }), currentTime: frame.currentTime };
  }

  /** Polls until a frame with a readable code is on screen, and answers its recorded time. */
  async readRecordedTime(timeout = 20_000): Promise<number> {
    let found: number | undefined;
    await expect
      .poll(
        async () => {
          found = (await this.recordedTimeOnScreen()).time;
          return found !== undefined;
        },
        { timeout, message: 'a frame with a readable capture code' },
      )
      .toBe(true);
    return found as number;
  }

  /** The recorded time the player shows (epoch ms in data-epoch). */
  async shownRecordedTime(): Promise<number | undefined> {
    const epoch = await this.page.getByTestId('recorded-time').getAttribute('data-epoch');
    return epoch ? Number(epoch) : undefined;
  }

  async pause(): Promise<void> {
    await this.player.getByRole('button', { name: this.texts.playback.player.pause, exact: true }).click();
  }

  async resume(): Promise<void> {
    await this.player.getByRole('button', { name: this.texts.playback.player.resume, exact: true }).click();
  }

  async setSpeed(speed: number): Promise<void> {
    await this.player
      .getByRole('radiogroup', { name: this.texts.playback.player.speed })
      .getByText(this.texts.playback.options.speedOption.replace('{{speed}}', String(speed)), { exact: true })
      .click();
  }

  /** Clicks the seek bar at a fraction of the range. */
  async seekTo(fraction: number): Promise<void> {
    const rail = this.player.locator('.ant-slider');
    const box = await rail.boundingBox();
    if (!box) throw new Error('seek bar not visible');
    await rail.click({ position: { x: box.width * fraction, y: box.height / 2 } });
  }
}
