import { expect, test, type Page } from '@playwright/test';
import { PlayGridPage, type Language } from './pages/play-grid-page.ts';

/**
 * Live sound (issue 15): S1001 has `audio` on, so its synthetic Bridge camera streams an engine
 * hum with a tick each second in the same fMP4 as its picture. The cell plays muted (picture only:
 * the player strips the sound track), shows a mute button (only because the stream has sound), and
 * once unmuted the browser decodes the sound while the picture keeps moving at the live edge.
 */
test.describe.configure({ mode: 'serial' });

const SCREENSHOTS = 'docs/screenshots';
const CAMERA = 'S1001-C01-1';

interface MediaFacts {
  muted: boolean;
  paused: boolean;
  currentTime: number;
  audioBytes: number;
  volume: number;
}

async function openBridge(page: Page, baseURL: string | undefined, language: Language) {
  const grid = new PlayGridPage(page, language);
  await grid.signIn(baseURL ?? '');
  await grid.open();
  await grid.chooseOrganisation('Blue Ocean Shipping');
  await grid.expandShip('S1001', 'S1001-C01');
  await grid.playChannel('S1001-C01');
  await grid.expectPlaying(CAMERA);
  return grid;
}

test('S1001 Bridge: sound in the stream, muted until unmuted, then decoded while the picture plays on', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const grid = await openBridge(page, baseURL, 'en');
  const cell = grid.cell(CAMERA);
  const video = cell.locator('video');
  const facts = () =>
    video.evaluate(
      (v: HTMLVideoElement & { webkitAudioDecodedByteCount?: number }): MediaFacts => ({
        muted: v.muted,
        paused: v.paused,
        currentTime: v.currentTime,
        audioBytes: v.webkitAudioDecodedByteCount ?? -1,
        volume: v.volume,
      }),
    );
  // The unmute button is there only because the codec event named a sound codec (mp4a.40.2).
  const unmute = cell.getByRole('button', { name: grid.texts.playerCell.unmute, exact: true });
  await expect(unmute).toBeVisible();
  // Muted, the cell plays the picture alone: no sound decoded (its track is not given to the element).
  const muted = await facts();
  expect(muted.muted).toBe(true);
  expect(muted.audioBytes).toBe(0);
  await expect(cell.getByRole('slider')).toHaveCount(0);

  await unmute.click();
  await expect(cell.getByRole('button', { name: grid.texts.playerCell.mute, exact: true })).toBeVisible();
  await expect(cell.getByRole('slider')).toBeVisible();
  expect((await facts()).muted).toBe(false);
  // Unmuted, the stream starts again with its sound: Chromium decodes it, more and more …
  await expect.poll(async () => (await facts()).audioBytes, { timeout: 15_000 }).toBeGreaterThan(2_000);
  const before = await facts();
  expect(before.paused).toBe(false);
  await expect.poll(async () => (await facts()).audioBytes, { timeout: 15_000 }).toBeGreaterThan(before.audioBytes + 2_000);
  // … and the picture is still live (a buffer with both tracks plays only where both are: no stall).
  await expect.poll(async () => (await facts()).currentTime, { timeout: 15_000 }).toBeGreaterThan(before.currentTime + 2);
  const stats = await grid.stats(CAMERA);
  console.log(`[live-audio] cell stats with sound: ${stats}`);
  // The stats panel tells what the sound costs (its samples' kbit/s, about 20).
  await expect(cell.locator('dl')).toContainText(/Sound\s*(1\d|2\d)(\.\d)? kbit\/s/);

  await cell.getByRole('button', { name: grid.texts.playerCell.mute, exact: true }).click();
  expect((await facts()).muted).toBe(true);
  // Muted again: picture-only once more, and it plays on.
  await grid.expectPlaying(CAMERA);
  expect((await facts()).audioBytes).toBe(0);
});

for (const language of ['zh-CN', 'en'] as const) {
  test(`screenshot of a cell with its sound controls (${language})`, async ({ page, baseURL }) => {
    test.setTimeout(60_000);
    const grid = await openBridge(page, baseURL, language);
    const cell = grid.cell(CAMERA);
    await cell.getByRole('button', { name: grid.texts.playerCell.unmute, exact: true }).click();
    await expect(cell.getByRole('slider')).toBeVisible();
    await cell.hover();
    await cell.screenshot({ path: `${SCREENSHOTS}/live-audio-${language}.png` });
  });
}
