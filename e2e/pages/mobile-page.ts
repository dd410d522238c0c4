import { expect, type Locator, type Page } from '@playwright/test';
import { type Language, PAGE_LOAD_MS, TEXTS } from './monitor-page.ts';

export { type Language, TEXTS };

/**
 * The mobile app (apps/web/src/mobile) on a phone: sign-in, the screen of /index and /remoteLive
 * (title bar, video area, source list, bottom tabs), the long-press sheet and the options dialogs.
 * Locators use the app's texts and roles; channel rows carry `data-camera`, ships `data-ship`.
 */
export class MobilePage {
  readonly texts: (typeof TEXTS)[Language];
  readonly title: Locator;
  readonly tabs: Locator;
  readonly liveTab: Locator;
  readonly playbackTab: Locator;
  readonly videoArea: Locator;
  readonly video: Locator;
  readonly fullscreenButton: Locator;
  readonly personButton: Locator;
  readonly settingsButton: Locator;
  readonly orgPicker: Locator;
  readonly shipPicker: Locator;
  readonly channelList: Locator;

  constructor(
    readonly page: Page,
    readonly language: Language = 'zh-CN',
  ) {
    this.texts = TEXTS[language];
    const m = this.texts.mobile;
    this.title = page.getByRole('heading', { level: 1 });
    this.tabs = page.getByRole('navigation', { name: m.tabs.label });
    this.liveTab = this.tabs.getByRole('link', { name: m.tabs.live });
    this.playbackTab = this.tabs.getByRole('link', { name: m.tabs.playback });
    this.videoArea = page.getByTestId('video-area');
    this.video = this.videoArea.locator('video');
    this.fullscreenButton = page.getByRole('button', { name: m.titleBar.fullscreen, exact: true });
    this.personButton = page.getByRole('button', { name: m.titleBar.user, exact: true });
    this.settingsButton = page.getByRole('button', { name: m.titleBar.settings, exact: true });
    this.orgPicker = page.getByTestId('org-picker');
    this.shipPicker = page.getByTestId('ship-picker');
    this.channelList = page.getByRole('region', { name: m.source.channels });
  }

  // ── sign-in ───────────────────────────────────────────────────────────────────────────────────

  async openSignIn(): Promise<void> {
    await this.page.goto('/monitor/login');
    // A cold page load parses the app's code first: seconds on a busy machine.
    await expect(this.page.getByRole('button', { name: this.texts.signIn.submit, exact: true })).toBeVisible({ timeout: PAGE_LOAD_MS });
  }

  async signIn(username = 'demo', password = 'demo-pass'): Promise<void> {
    await this.page.getByLabel(this.texts.signIn.username, { exact: true }).fill(username);
    await this.page.getByLabel(this.texts.signIn.password, { exact: true }).fill(password);
    await this.page.getByRole('button', { name: this.texts.signIn.submit, exact: true }).tap();
    await this.waitForScreen();
  }

  async waitForScreen(): Promise<void> {
    await expect(this.page).toHaveURL(/\/monitor\/(index|remoteLive)$/);
    await expect(this.videoArea).toBeVisible({ timeout: 15_000 });
    await expect(this.title).toHaveText(this.texts.app.title);
  }

  // ── source list ──────────────────────────────────────────────────────────────────────────────

  private sheet(title: string): Locator {
    return this.page.getByRole('dialog', { name: title });
  }

  async pickOrganisation(displayName: string): Promise<void> {
    await this.orgPicker.tap();
    const sheet = this.sheet(this.texts.mobile.source.organisation);
    await sheet.getByText(displayName, { exact: true }).tap();
    await expect(sheet).toBeHidden();
    await expect(this.orgPicker).toContainText(displayName);
  }

  async pickShip(shipId: string): Promise<void> {
    await this.shipPicker.tap();
    const sheet = this.sheet(this.texts.mobile.source.ship);
    await sheet.locator(`[data-ship="${shipId}"]`).tap();
    await expect(sheet).toBeHidden();
    await expect(this.shipPicker.locator(`[data-ship="${shipId}"]`)).toBeVisible();
  }

  /** A channel's row (a single-camera channel, or one camera of a multi-camera channel). */
  channel(cameraId: string): Locator {
    return this.channelList.locator(`[data-camera="${cameraId}"]`);
  }

  /**
   * A finger held on the row until the action sheet shows, then lifted: a real touch sequence
   * (CDP touch events), so the app sees the pointer events a phone sends.
   */
  async longPress(cameraId: string): Promise<void> {
    const row = this.channel(cameraId);
    await row.scrollIntoViewIfNeeded();
    const box = await row.boundingBox();
    if (!box) throw new Error(`channel ${cameraId} is not on screen`);
    const point = { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
    // A sheet that just closed still fades its mask out over the list: wait until the finger would land on the row.
    await expect
      .poll(() => row.evaluate((el, p) => el.contains(document.elementFromPoint(p.x, p.y)), point), { message: `channel ${cameraId} under the finger` })
      .toBe(true);
    const cdp = await this.page.context().newCDPSession(this.page);
    // Chromium may acknowledge the touch start only once the touch ends: do not wait for it alone.
    const started = cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
    try {
      await expect(this.actionSheet).toBeVisible({ timeout: 5_000 });
    } finally {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await started;
      await cdp.detach();
    }
  }

  /** Waits until something that slides in (a sheet) has come to rest: its place is the same on two reads in a row. */
  async expectSettled(target: Locator): Promise<void> {
    let last: string | undefined;
    await expect
      .poll(
        async () => {
          const box = JSON.stringify(await target.boundingBox());
          const still = box === last;
          last = box;
          return still;
        },
        { intervals: [100], message: 'the sheet comes to rest' },
      )
      .toBe(true);
  }

  get actionSheet(): Locator {
    return this.page.getByRole('option', { name: this.texts.mobile.actions.live, exact: true });
  }

  async choose(action: 'live' | 'playback'): Promise<void> {
    const name = action === 'live' ? this.texts.mobile.actions.live : this.texts.mobile.actions.playback;
    await this.page.getByRole('option', { name, exact: true }).tap();
  }

  get liveDialog(): Locator {
    return this.page.getByRole('dialog', { name: this.texts.mobile.liveOptions.title });
  }

  get playbackDialog(): Locator {
    return this.page.getByRole('dialog', { name: this.texts.mobile.playbackOptions.title });
  }

  /** After a long-press, in the action sheet: Live video → Play (the ship's default definition). */
  async startLive(): Promise<void> {
    await this.choose('live');
    await expect(this.liveDialog).toBeVisible();
    const play = this.liveDialog.getByRole('button', { name: this.texts.mobile.liveOptions.play, exact: true });
    await expect(play).toBeEnabled({ timeout: 15_000 });
    await play.tap();
    await expect(this.liveDialog).toBeHidden();
  }

  // ── video ────────────────────────────────────────────────────────────────────────────────────

  async videoProgress(): Promise<{ currentTime: number; videoWidth: number }> {
    return this.video.evaluate((v: HTMLVideoElement) => ({ currentTime: v.currentTime, videoWidth: v.videoWidth }));
  }

  /** Frames that advance: a picture, and its time moving on. */
  async expectPlaying(timeout = 45_000): Promise<void> {
    await expect.poll(async () => (await this.videoProgress()).videoWidth, { timeout }).toBeGreaterThan(0);
    const first = (await this.videoProgress()).currentTime;
    await expect.poll(async () => (await this.videoProgress()).currentTime, { timeout }).toBeGreaterThan(first + 0.5);
  }

  async videoAreaBox(): Promise<{ x: number; y: number; width: number; height: number }> {
    const box = await this.videoArea.boundingBox();
    if (!box) throw new Error('the video area is not on screen');
    return box;
  }

  /** Turns the phone: the viewport's sides swap, as a rotation does. */
  async rotate(orientation: 'portrait' | 'landscape'): Promise<void> {
    const { width, height } = this.page.viewportSize() ?? { width: 390, height: 844 };
    const [short, long] = width < height ? [width, height] : [height, width];
    await this.page.setViewportSize(orientation === 'portrait' ? { width: short, height: long } : { width: long, height: short });
    await expect(this.page.locator(`[data-orientation="${orientation}"]`)).toBeVisible();
  }
}
