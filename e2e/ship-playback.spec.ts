import { expect, test, type Page } from '@playwright/test';
import { demoGaps } from '../packages/simulator/src/camera/demo-gaps.ts';
import { ShipPlaybackPage, type Language } from './pages/ship-playback-page.ts';

/**
 * Ship-end playback (spec §2 /live/recordlivevideo, §3 playback options, §5) against the demo
 * stack: the ship agent's recorder plays a range back over the emulated satellite link, the shore
 * relays it on the media socket, the browser plays it through MSE. The synthetic cameras burn their
 * capture time into every frame as a machine-readable code, so the test reads which recorded
 * moment is on screen. Signing in as demo displaces the previous demo session: specs run in order.
 */
test.describe.configure({ mode: 'serial' });

const SCREENSHOTS = 'docs/screenshots';
const HOUR = 3_600_000;
const CAMERA = 'S1001-C01-1';

/** "YYYY-MM-DD HH:mm:ss" in China Standard Time, the dialog's default zone (UTC+8, no summer time). */
function inChina(epoch: number): string {
  return new Date(epoch + 8 * HOUR).toISOString().replace('T', ' ').slice(0, 19);
}

/** Whole seconds: the pickers work to the second. */
const wholeSecond = (t: number) => Math.floor(t / 1000) * 1000;

async function openScreen(page: Page, baseURL: string | undefined, language: Language = 'zh-CN') {
  const playback = new ShipPlaybackPage(page, language);
  await playback.signIn(baseURL ?? '');
  await playback.openFromMenu();
  await playback.chooseOrganisation('Blue Ocean Shipping');
  await playback.expandShip('S1001', 'S1001-C01');
  return playback;
}

/** Opens the options for the Bridge of S1001 and fills in [start, end] at `speed`. */
async function fillOptions(playback: ShipPlaybackPage, start: number, end: number, speed?: number) {
  await playback.chooseChannel('S1001-C01');
  await playback.typeTime('start', inChina(start));
  await playback.typeTime('end', inChina(end));
  if (speed !== undefined) await playback.chooseSpeed(speed);
}

/** Opens the options for the Bridge of S1001 and plays [start, end] at `speed`. */
async function play(playback: ShipPlaybackPage, start: number, end: number, speed?: number) {
  await fillOptions(playback, start, end, speed);
  await playback.startPlayback();
}

test('the last hour at 16×: frames advance and the burned-in clock shows times inside the range', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const playback = await openScreen(page, baseURL);
  const end = wholeSecond(Date.now() - 5_000);
  const start = end - HOUR;
  await fillOptions(playback, start, end); // 16× is the default speed
  await playback.expectPickersClosed();
  await page.screenshot({ path: `${SCREENSHOTS}/ship-playback-options-zh-CN.png` });
  // The zone list: each zone's offset as of the chosen start, sorted by it.
  const offsets = await playback.zoneOffsets('UTC-0');
  expect(offsets.length).toBeGreaterThan(3);
  expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
  await page.screenshot({ path: `${SCREENSHOTS}/ship-playback-zones-zh-CN.png` });
  await playback.closeZones();
  const asked = Date.now();
  await playback.startPlayback();
  await expect(page.getByTestId('playback-range')).toContainText(`${inChina(start)} — ${inChina(end)}`);
  await expect(page.getByTestId('playback-zone')).toHaveText('(UTC+08:00) 北京，重庆，香港，乌鲁木齐');

  await playback.expectFramesAdvance();
  const firstPictureMs = Date.now() - asked;
  const first = await playback.readRecordedTime();
  const firstAt = Date.now();
  expect(first).toBeGreaterThanOrEqual(start);
  expect(first).toBeLessThanOrEqual(end);

  // At 16× a wall-clock second shows 16 recorded seconds: wait until the picture is 30 s further on.
  let later = first;
  await expect
    .poll(
      async () => {
        later = (await playback.recordedTimeOnScreen()).time ?? later;
        return later - first;
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThan(30_000);
  const wallMs = Date.now() - firstAt;
  expect(later).toBeLessThanOrEqual(end);
  const rate = (later - first) / wallMs;
  expect(rate, 'recorded seconds per wall second').toBeGreaterThan(4);

  // The player's own clock agrees with the picture (it estimates from the server's positions).
  const shown = await playback.shownRecordedTime();
  expect(shown).toBeDefined();
  expect(shown!).toBeGreaterThanOrEqual(start);
  expect(shown!).toBeLessThanOrEqual(end);
  const clockError = Math.abs(shown! - later);
  console.log(
    `[ship-playback] ask to moving picture ${firstPictureMs} ms; first recorded frame ${inChina(first)} (${Math.round((first - start) / 1000)} s into the range); ` +
      `${(rate).toFixed(1)} recorded s per wall s at 16×; shown clock vs picture ${Math.round(clockError / 1000)} s`,
  );
  expect(clockError, 'shown recorded time vs the frame on screen').toBeLessThan(120_000);
  await expect(page.getByTestId('ship-time')).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  await expect(page.getByTestId('operator-time')).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  await page.screenshot({ path: `${SCREENSHOTS}/ship-playback-zh-CN.png` });

  // The same screen in English (header → settings): the texts change in place, playback goes on.
  const english = await playback.switchLanguage('en');
  await expect(page.getByTestId('playback-zone')).toHaveText('(UTC+08:00) Beijing, Chongqing, Hong Kong, Urumqi');
  await expect(english.player).toBeVisible();
  await english.expectFramesAdvance();
  await page.screenshot({ path: `${SCREENSHOTS}/ship-playback-en.png` });
});

test('pause holds the picture, resume carries on, a seek jumps, another speed keeps playing', async ({ page, baseURL }) => {
  test.setTimeout(150_000);
  const playback = await openScreen(page, baseURL);
  const end = wholeSecond(Date.now() - 5_000);
  const start = end - HOUR;
  await play(playback, start, end);
  await playback.expectFramesAdvance();
  await playback.readRecordedTime();

  await playback.pause();
  await expect(playback.player.getByText(playback.texts.playback.player.paused, { exact: true })).toBeVisible();
  const held = (await playback.videoProgress()).currentTime;
  const heldCode = await playback.readRecordedTime();
  // Watched for longer than the player's stall bound (4 s): the picture must not move, nor the
  // player take the pause for a stall.
  for (let sampled = 0; sampled < 12; sampled++) {
    await page.waitForTimeout(500);
    expect((await playback.videoProgress()).currentTime).toBeCloseTo(held, 2);
    await expect(playback.screen).toHaveAttribute('data-state', 'playing');
  }
  expect(await playback.readRecordedTime()).toBe(heldCode);

  await playback.resume();
  await expect.poll(async () => (await playback.videoProgress()).currentTime, { timeout: 20_000 }).toBeGreaterThan(held + 0.5);

  // Three quarters into the range: the ship starts a new stream from there.
  await playback.seekTo(0.75);
  const target = start + 0.75 * HOUR;
  await expect
    .poll(async () => (await playback.recordedTimeOnScreen()).time ?? 0, { timeout: 30_000, message: 'a frame from about three quarters in' })
    .toBeGreaterThan(target - 3 * 60_000);
  const afterSeek = await playback.readRecordedTime();
  expect(afterSeek).toBeLessThanOrEqual(end);

  // Half the speed: the picture keeps going, now 8 recorded seconds a second.
  await playback.setSpeed(8);
  await expect(playback.player.getByRole('radio', { name: '8倍' })).toBeChecked();
  await expect.poll(async () => (await playback.recordedTimeOnScreen()).time ?? 0, { timeout: 30_000 }).toBeGreaterThan(afterSeek + 20_000);
});

test('a range without recordings says there is no playback video in it', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  // The demo recorder's history has one 20–40 minute gap a day, but the time this run's fleet has
  // been running counts as recorded: take the most recent gap that was over two hours ago, before
  // the fleet started (a gap that ended during the run would hold its first minutes of video).
  const now = Date.now();
  const gap = demoGaps(CAMERA, now - 3 * 24 * HOUR, now - 2 * HOUR)
    .filter((g) => g.end < now - 2 * HOUR)
    .at(-1);
  expect(gap, 'a past gap in the demo history').toBeDefined();
  const playback = await openScreen(page, baseURL);
  await play(playback, wholeSecond(gap!.start) + 60_000, wholeSecond(gap!.end) - 60_000);
  await expect(playback.screen.getByText(playback.texts.playback.player.noRecording, { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(playback.screen.getByRole('button', { name: playback.texts.playback.player.changeRange })).toBeVisible();
});

test('English: the options refuse an end before the start and a ship without a default template', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const playback = await openScreen(page, baseURL, 'en');
  const { errors } = playback.texts.playback.options;
  await playback.chooseChannel('S1001-C01');
  const end = wholeSecond(Date.now() - 60 * 60_000);
  await playback.typeTime('start', inChina(end));
  await playback.typeTime('end', inChina(end - 60_000));
  await playback.dialog.getByRole('button', { name: playback.texts.playback.options.ok, exact: true }).click();
  await expect(playback.fieldError(errors.endBeforeStart)).toBeVisible();
  await expect(playback.dialog).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/ship-playback-options-en.png` });
  const offsets = await playback.zoneOffsets('UTC+0');
  expect(offsets.length).toBeGreaterThan(3);
  expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
  await page.screenshot({ path: `${SCREENSHOTS}/ship-playback-zones-en.png` });
  await playback.closeZones();
  await playback.dialog.getByRole('button', { name: playback.texts.playback.options.cancel, exact: true }).click();
  await expect(playback.dialog).toBeHidden();

  // S2002 (Blue Ocean Tankers) has no default definition template: no playback (spec §5).
  const tankers = page.getByRole('treeitem').filter({ has: page.getByText('Blue Ocean Tankers', { exact: true }) });
  await expect(async () => {
    if ((await tankers.getAttribute('aria-expanded')) !== 'true') await tankers.locator('.ant-tree-switcher').click();
    await expect(tankers).toHaveAttribute('aria-expanded', 'true', { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  await playback.expandShip('S2002', 'S2002-C01');
  await playback.chooseChannel('S2002-C01');
  await expect(playback.fieldError(errors.noDefaultTemplate)).toBeVisible({ timeout: 15_000 });
  await expect(playback.dialog.getByRole('button', { name: playback.texts.playback.options.ok, exact: true })).toBeDisabled();
});
