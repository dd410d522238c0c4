import { expect, test, type Page } from '@playwright/test';
import { captureCodeLayout } from '@ship-cctv/protocol';
import { PlayGridPage } from './pages/play-grid-page.ts';

/**
 * PTZ on the demo's S1001 Bridge, a synthetic PTZ camera (its picture is a window onto a larger
 * drawn scene): holding a direction moves the picture (video pixels compared in the page, away
 * from the burned-in name, clock and capture code and from the pad), "moved by" names the
 * operator, and a preset is set, gone to after moving away, and deleted, with the spec's messages.
 */
test.describe.configure({ mode: 'serial' });

const CAMERA = 'S1001-C01-1';

const COLUMNS = 160;
/** How long a direction is held. */
const HOLD_MS = 600;

/**
 * The cell's current video frame: luma of a 160×90 copy, rows 30–97 % (27–86: below the name and
 * clock, with the scene's lower landmarks in it), and its size.
 */
interface Frame {
  luma: number[][];
  width: number;
  height: number;
}
const TOP = 27;
const ROWS = 60;
/** The widest shift looked for: two frames always share 100 of their 160 columns. */
const MAX_SHIFT = 60;
/** A pixel differs when its luma differs by more than this (compression noise stays below it). */
const DIFFERS = 18;

async function profile(page: Page): Promise<Frame> {
  return page.locator(`[data-camera-id="${CAMERA}"] video`).evaluate(
    (v: HTMLVideoElement, { columns, top, rows }) => {
      const canvas = document.createElement('canvas');
      canvas.width = columns;
      canvas.height = 90;
      const ctx = canvas.getContext('2d', { willReadFrequently: true });
      if (!ctx) return { luma: [], width: 0, height: 0 };
      ctx.drawImage(v, 0, 0, columns, 90);
      const data = ctx.getImageData(0, top, columns, rows).data;
      const luma: number[][] = [];
      for (let y = 0; y < rows; y++) {
        const row: number[] = [];
        for (let x = 0; x < columns; x++) {
          const i = (y * columns + x) * 4;
          row.push(0.299 * (data[i] ?? 0) + 0.587 * (data[i + 1] ?? 0) + 0.114 * (data[i + 2] ?? 0));
        }
        luma.push(row);
      }
      return { luma, width: v.videoWidth, height: v.videoHeight };
    },
    { columns: COLUMNS, top: TOP, rows: ROWS },
  );
}

/**
 * Where a frame's capture code lies (it stays put while the scene moves), in the band's cells, with
 * a cell's margin: the link may switch the stream to 320×180 between two frames, where the code is
 * larger and reaches into the band.
 */
function codeMask(f: Frame): (x: number, y: number) => boolean {
  const layout = captureCodeLayout(f.width, f.height);
  if (!layout) return () => false;
  const sx = COLUMNS / f.width;
  const sy = 90 / f.height;
  const x0 = (layout.x - layout.cell) * sx;
  const x1 = (layout.x + (layout.cols + 1) * layout.cell) * sx;
  const y0 = (layout.y - layout.cell) * sy - TOP;
  const y1 = (layout.y + (layout.rows + 1) * layout.cell) * sy - TOP;
  return (x, y) => x >= x0 - 1 && x <= x1 + 1 && y >= y0 - 1 && y <= y1 + 1;
}

/**
 * How far the picture moved sideways from `a` to `b`, in columns (negative: to the left, as when
 * the camera pans right): the shift under which the fewest pixels differ, leaving out where either
 * frame's capture code is. Counting differing pixels (not summing differences) keeps the small
 * moving square and compression noise from deciding, and the shared 100 columns always hold some
 * of the scene's landmarks, so the featureless background cannot line up on its own.
 */
function sideways(a: Frame, b: Frame): number {
  const inA = codeMask(a);
  const inB = codeMask(b);
  const differing = (shift: number) => {
    let count = 0;
    let n = 0;
    for (let y = 0; y < ROWS; y++) {
      for (let x = Math.max(0, -shift); x < Math.min(COLUMNS, COLUMNS - shift); x++) {
        if (inA(x, y) || inB(x + shift, y)) continue;
        if (Math.abs((a.luma[y]?.[x] ?? 0) - (b.luma[y]?.[x + shift] ?? 0)) > DIFFERS) count++;
        n++;
      }
    }
    return n === 0 ? Infinity : count / n;
  };
  let best = 0;
  let bestScore = differing(0);
  for (let shift = -MAX_SHIFT; shift <= MAX_SHIFT; shift++) {
    const d = differing(shift);
    if (d < bestScore) [best, bestScore] = [shift, d];
  }
  return best;
}

/** How much a frame's band varies (a frame still loading, or black, varies next to nothing). */
function contrast(f: Frame): number {
  const values = f.luma.flat();
  const mean = values.reduce((s, v) => s + v, 0) / Math.max(1, values.length);
  return Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / Math.max(1, values.length));
}

/**
 * The picture once it holds still after a move: the video is a link's delay behind the commands,
 * and under load later still, so frames are taken half a second apart, first until one shows the
 * scene shifted from `before` (else two still frames taken before the move reached the screen would
 * pass for the end of it), then until two in a row show the scene where it was (the same size, with
 * contrast, not shifted). Without `before`, only the second. Gives up after 20 s with the last frame.
 */
async function settled(page: Page, before?: Frame): Promise<Frame> {
  let previous = await profile(page);
  const until = Date.now() + 20_000;
  let moved = !before || sideways(before, previous) !== 0;
  for (;;) {
    await page.waitForTimeout(500);
    const current = await profile(page);
    if (!moved) moved = !!before && sideways(before, current) !== 0;
    const still = moved && current.width === previous.width && contrast(current) > 8 && sideways(previous, current) === 0;
    if (still || Date.now() > until) return current;
    previous = current;
  }
}

async function hold(page: Page, button: ReturnType<Page['getByRole']>, ms: number): Promise<void> {
  const box = await button.boundingBox();
  if (!box) throw new Error('the control is not on screen');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.waitForTimeout(ms);
  await page.mouse.up();
}

test('hold a direction: the Bridge picture pans; presets are set, gone to and deleted with their messages', async ({ page, baseURL }) => {
  test.setTimeout(150_000);
  const grid = new PlayGridPage(page, 'zh-CN');
  await grid.signIn(baseURL ?? '');
  await grid.open();
  await grid.chooseOrganisation('Blue Ocean Shipping');
  await grid.expandShip('S1001', 'S1001-C01');
  await grid.playChannel('S1001-C01');
  await grid.expectPlaying(CAMERA);
  const texts = grid.texts.ptz;
  const cell = grid.cell(CAMERA);
  const pad = cell.getByRole('group', { name: texts.pad, exact: true });
  await expect(pad).toBeVisible();
  // Only the PTZ camera's cell has a pad.
  await expect(page.getByRole('group', { name: texts.pad, exact: true })).toHaveCount(1);

  // Standing still, the picture does not move sideways (only the small square moves).
  const still1 = await settled(page);
  await page.waitForTimeout(1_000);
  const still2 = await profile(page);
  expect(sideways(still1, still2)).toBe(0);

  await hold(page, pad.getByRole('button', { name: texts.control.right, exact: true }), HOLD_MS);
  await expect(cell.getByTestId('ptz-moved-by')).toHaveText(texts.movedBy.replace('{{name}}', 'Demo Operator'));
  const moved = await settled(page, still2);
  const panned = sideways(still2, moved);
  console.log(`[ptz] holding right for ${HOLD_MS} ms moved the picture ${panned} of ${COLUMNS} columns`);
  // At full speed 0.2 of the scene a second, 0.4 of the picture: 38 columns to the left in 0.6 s, give or take the link's timing.
  expect(panned).toBeLessThan(-12);

  // A preset here.
  await pad.getByRole('button', { name: texts.presets.open, exact: true }).click();
  const presets = page.getByTestId('ptz-presets');
  await presets.getByRole('textbox', { name: texts.presets.name, exact: true }).fill('舷梯 Gangway');
  await presets.getByRole('button', { name: texts.presets.set, exact: true }).click();
  await expect(page.getByText(texts.presets.setOk, { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(presets.getByText('舷梯 Gangway', { exact: true })).toBeVisible();
  const atPreset = await settled(page);

  // Away (left), then back to the preset.
  await pad.getByRole('button', { name: texts.presets.open, exact: true }).click();
  await expect(presets).toBeHidden();
  await hold(page, pad.getByRole('button', { name: texts.control.left, exact: true }), HOLD_MS);
  const away = await settled(page, atPreset);
  expect(sideways(atPreset, away)).toBeGreaterThan(12);
  await pad.getByRole('button', { name: texts.presets.open, exact: true }).click();
  await presets.getByRole('button', { name: texts.presets.goto, exact: true }).click();
  // Who steers it stays readable beside the open presets, not under them.
  const label = cell.getByTestId('ptz-moved-by');
  await expect(label).toBeVisible();
  const [labelBox, presetsBox] = [await label.boundingBox(), await page.locator('.ant-popover-container', { has: presets }).boundingBox()];
  expect(labelBox && presetsBox).toBeTruthy();
  if (labelBox && presetsBox) expect(labelBox.y >= presetsBox.y + presetsBox.height || labelBox.x + labelBox.width <= presetsBox.x || labelBox.x >= presetsBox.x + presetsBox.width).toBe(true);
  await page.waitForTimeout(1_000);
  const back = await settled(page, away);
  console.log(`[ptz] preset: away ${sideways(atPreset, away)} columns, back ${sideways(atPreset, back)}`);
  expect(Math.abs(sideways(atPreset, back))).toBeLessThanOrEqual(1);

  // Delete it, confirmed.
  await presets.getByRole('button', { name: texts.presets.delete, exact: true }).click();
  await page.getByRole('button', { name: /^(确\s?定|OK)$/ }).click();
  await expect(page.getByText(texts.presets.deleteOk, { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(presets.getByText(texts.presets.empty, { exact: true })).toBeVisible();
  await page.screenshot({ path: 'docs/screenshots/ptz-zh-CN.png' });
});
