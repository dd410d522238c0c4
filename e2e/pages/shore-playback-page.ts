import { expect, type Locator, type Page } from '@playwright/test';
import { type Language, TEXTS } from './monitor-page.ts';
import { chooseLanguageInHeader } from './shell-page.ts';

/**
 * The shore video playback screen (/monitor/record/video, apps/web features/shore-playback):
 * filters, the list of recordings, the player, the timeline and clip export. Reached through the
 * header's shore playback submenu, as an operator would.
 */
export class ShorePlaybackPage {
  readonly texts: (typeof TEXTS)[Language];
  readonly title: Locator;
  readonly list: Locator;
  readonly search: Locator;
  readonly video: Locator;
  readonly player: Locator;
  readonly recordedTime: Locator;
  readonly track: Locator;
  readonly zoomIn: Locator;
  readonly timelineWindow: Locator;
  readonly exportButton: Locator;
  readonly download: Locator;
  readonly progress: Locator;

  constructor(
    readonly page: Page,
    readonly language: Language = 'zh-CN',
  ) {
    this.texts = TEXTS[language];
    this.title = page.getByTestId('page-title');
    this.list = page.getByTestId('recording-list');
    this.search = page.getByTestId('filter-search');
    this.video = page.getByTestId('shore-video');
    this.player = page.getByTestId('shore-player');
    this.recordedTime = page.getByTestId('recorded-time');
    this.track = page.getByTestId('timeline-track');
    this.zoomIn = page.getByTestId('timeline-zoom-in');
    this.timelineWindow = page.getByTestId('timeline-window');
    this.exportButton = page.getByTestId('clip-export-button');
    this.download = page.getByTestId('clip-download');
    this.progress = page.getByTestId('clip-progress');
  }

  /** Header → shore playback (or near-end playback) → video playback. */
  async openFromMenu(menuLabel: string): Promise<void> {
    await this.page.getByRole('menuitem', { name: menuLabel, exact: true }).hover();
    await this.page.getByRole('menuitem', { name: this.texts.shorePlayback.menu.video, exact: true }).click();
    await expect(this.page).toHaveURL(/\/monitor\/record\/video$/);
    await expect(this.title).toBeVisible();
  }

  /** Header → settings → another language: the screen stays as it is (the player plays on), in the new texts. */
  async switchLanguage(language: Language): Promise<ShorePlaybackPage> {
    await chooseLanguageInHeader(this.page, this.language, language);
    const next = new ShorePlaybackPage(this.page, language);
    await expect(next.title).toHaveText(next.texts.shorePlayback.page.title.replace('{{name}}', next.texts.shell.menu.shorePlayback));
    return next;
  }

  /** The list's rows of one camera (the row text names the channel). */
  rows(): Locator {
    return this.list.locator('tr[data-recording-id]');
  }

  /** Searches until a recording appears (the recorder indexes it when the stream stops). */
  async waitForRecording(timeout = 60_000): Promise<string> {
    await expect(async () => {
      await this.search.click();
      await expect(this.rows().first()).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout });
    return (await this.rows().first().getAttribute('data-recording-id')) ?? '';
  }

  span(recordingId: string): Locator {
    return this.page.getByTestId(`span-${recordingId}`);
  }

  async videoState(): Promise<{ currentTime: number; videoWidth: number; playbackRate: number; frames: number }> {
    return this.video.evaluate((v: HTMLVideoElement) => ({
      currentTime: v.currentTime,
      videoWidth: v.videoWidth,
      playbackRate: v.playbackRate,
      frames: v.getVideoPlaybackQuality().totalVideoFrames,
    }));
  }

  /** Waits until frames are shown and the play head moves on. */
  async expectPlaying(timeout = 30_000): Promise<void> {
    await expect.poll(async () => (await this.videoState()).videoWidth, { timeout }).toBeGreaterThan(0);
    const first = await this.videoState();
    await expect.poll(async () => (await this.videoState()).currentTime, { timeout }).toBeGreaterThan(first.currentTime + 0.5);
    await expect.poll(async () => (await this.videoState()).frames, { timeout }).toBeGreaterThan(first.frames);
  }

  /** The recorded time the player shows (epoch ms). */
  async shownTime(): Promise<number> {
    return Number(await this.recordedTime.getAttribute('data-time'));
  }

  /**
   * Clicks the timeline at `fraction` of a span and answers the milliseconds from the click to the
   * first frame shown at the new time (measured in the page: pointer up → seeked → next frame).
   */
  async clickSpan(recordingId: string, fraction: number): Promise<number> {
    const box = await this.span(recordingId).boundingBox();
    if (!box) throw new Error(`span ${recordingId} is not shown`);
    // The listener goes in first; the click comes after it is in place.
    await this.page.evaluate(() => {
      const w = window as unknown as { seekTiming?: Promise<number> };
      w.seekTiming = new Promise<number>((resolve, reject) => {
        const video = document.querySelector('[data-testid="shore-video"]') as HTMLVideoElement & { requestVideoFrameCallback(cb: () => void): number };
        const track = document.querySelector('[data-testid="timeline-track"]') as HTMLElement;
        const timer = setTimeout(() => reject(new Error('no frame within 20 s of the timeline click')), 20_000);
        track.addEventListener(
          'pointerup',
          () => {
            const clicked = performance.now();
            video.addEventListener(
              'seeked',
              () =>
                video.requestVideoFrameCallback(() => {
                  clearTimeout(timer);
                  resolve(performance.now() - clicked);
                }),
              { once: true },
            );
          },
          { once: true },
        );
      });
    });
    await this.page.mouse.click(box.x + box.width * fraction, box.y + box.height / 2);
    return this.page.evaluate(() => (window as unknown as { seekTiming: Promise<number> }).seekTiming);
  }

  async chooseSpeed(speed: number): Promise<void> {
    await this.page.getByTestId('speed').getByText(this.texts.shorePlayback.player.speedOption.replace('{{speed}}', String(speed)), { exact: true }).click();
  }
}
