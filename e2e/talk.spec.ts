import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import config, { laneDataDir } from '../playwright.config.ts';
import { PlayGridPage } from './pages/play-grid-page.ts';

/**
 * Talkback against the demo stack: the operator talks into Chromium's fake microphone (a beep),
 * the voice crosses S1001's emulated link as Opus, and the ship's agent keeps it in a file that
 * ffmpeg reads back with energy; a second operator trying the same ship hears it is occupied, and
 * by whom. Signing in displaces a user's previous session: specs run in order.
 */
test.describe.configure({ mode: 'serial' });

const CAMERA = 'S1001-C01-1';
const base = config.use?.launchOptions ?? {};
test.use({
  launchOptions: { ...base, args: [...(base.args ?? []), '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'] },
  permissions: ['microphone'],
});

/**
 * Where the simulated fleet of this worker's demo stack keeps S1001's talks (scripts/demo.mjs: fleet
 * data under DATA_DIR/fleet-recordings/<ship>; playwright.config.ts: a DATA_DIR per lane).
 */
const talkDir = () => join(laneDataDir(Number(process.env.TEST_PARALLEL_INDEX ?? 0)), 'fleet-recordings', 'S1001', 'talk', CAMERA);
const talkFiles = () => (existsSync(talkDir()) ? readdirSync(talkDir()).filter((f) => f.endsWith('.ogg')).sort() : []);

async function cellOf(page: Page, baseURL: string | undefined, username: string): Promise<{ grid: PlayGridPage; talk: Locator }> {
  const grid = new PlayGridPage(page, 'zh-CN');
  await grid.signIn(baseURL ?? '', username);
  await grid.open();
  await grid.chooseOrganisation('Blue Ocean Shipping');
  await grid.expandShip('S1001', 'S1001-C01');
  await grid.playChannel('S1001-C01');
  const talk = grid.cell(CAMERA).getByRole('button', { name: grid.texts.talk.button, exact: true });
  await expect(talk).toBeVisible({ timeout: 30_000 });
  // The title bar settles once the picture plays (the definition control comes with the cell's
  // definition policy): pressing earlier can land on a button that moved under the mouse.
  await grid.expectPlaying(CAMERA);
  return { grid, talk };
}

/** Holds the mouse on the button (press-to-talk) until `release` is called. */
async function hold(page: Page, button: Locator): Promise<() => Promise<void>> {
  // hover() waits for the button to stand still and puts the mouse on it where it is now.
  await button.hover();
  await page.mouse.down();
  return () => page.mouse.up();
}

function measure(path: string): { seconds: number; codec: string; maxDb: number; meanDb: number } {
  const probe = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name:format=duration', '-of', 'json', path], { encoding: 'utf8' });
  const info = JSON.parse(probe) as { streams: { codec_name: string }[]; format: { duration: string } };
  const { stderr } = spawnSync('ffmpeg', ['-hide_banner', '-nostats', '-i', path, '-af', 'volumedetect', '-f', 'null', '-'], { encoding: 'utf8' });
  const db = (re: RegExp) => Number(re.exec(stderr)?.[1] ?? '-Infinity');
  return { seconds: Number(info.format.duration), codec: info.streams[0]?.codec_name ?? '', maxDb: db(/max_volume: (-?[\d.]+) dB/), meanDb: db(/mean_volume: (-?[\d.]+) dB/) };
}

async function otherOperator(browser: Browser) {
  const context = await browser.newContext({ ...test.info().project.use, permissions: ['microphone'] });
  return { context, page: await context.newPage() };
}

test('press-to-talk for 3 s: Opus with energy arrives on the ship; another operator finds the talkback occupied until the talker leaves the cell', async ({ page, baseURL, browser }) => {
  test.setTimeout(120_000);
  const { grid, talk } = await cellOf(page, baseURL, 'demo');
  const before = talkFiles();

  const release = await hold(page, talk);
  const talking = grid.cell(CAMERA).getByRole('button', { name: grid.texts.talk.talking, exact: true });
  await expect(talking).toBeVisible({ timeout: 15_000 });
  await expect(grid.cell(CAMERA).getByRole('meter', { name: grid.texts.talk.level })).toBeVisible();
  await page.waitForTimeout(3_000);
  await release();
  await expect(talk).toBeVisible();

  // The ship closes the file once shore's talk.close crosses the link.
  await expect.poll(() => talkFiles().length, { timeout: 20_000 }).toBe(before.length + 1);
  const file = join(talkDir(), talkFiles().at(-1) ?? '');
  await expect.poll(() => statSync(file).size, { timeout: 10_000 }).toBeGreaterThan(2_000);
  await expect.poll(() => measure(file).seconds, { timeout: 10_000 }).toBeGreaterThan(2.5);
  const measured = measure(file);
  console.log(`[talk] ${file}: ${measured.seconds.toFixed(2)} s ${measured.codec}, ${statSync(file).size} bytes, mean ${measured.meanDb} dB, max ${measured.maxDb} dB`);
  expect(measured.codec).toBe('opus');
  // Chromium's fake microphone beeps: far above digital silence (−91 dB).
  expect(measured.maxDb).toBeGreaterThan(-30);

  // Latched on with a click; the duty officer, on the same ship, is told who talks.
  await talk.click();
  await expect(talking).toBeVisible({ timeout: 15_000 });
  const other = await otherOperator(browser);
  try {
    const second = await cellOf(other.page, baseURL, 'duty');
    await second.talk.click();
    await expect(other.page.getByText('对讲被占用（Demo Operator 正在对讲）', { exact: true })).toBeVisible({ timeout: 15_000 });
    await other.page.waitForTimeout(500); // the message's entry animation
    await other.page.screenshot({ path: 'docs/screenshots/talk-occupied-zh-CN.png' });

    // Leaving the cell ends the talk: the ship is free for the duty officer.
    await grid.close(CAMERA);
    await expect(async () => {
      await second.talk.click();
      await expect(second.grid.cell(CAMERA).getByRole('button', { name: second.grid.texts.talk.talking, exact: true })).toBeVisible({ timeout: 3_000 });
    }).toPass({ timeout: 20_000 });
    await second.grid.cell(CAMERA).getByRole('button', { name: second.grid.texts.talk.talking, exact: true }).click();
    await expect(second.talk).toBeVisible();
  } finally {
    await other.context.close();
  }
});
