import { expect, test, type Page } from '@playwright/test';
import { PlayGridPage } from './pages/play-grid-page.ts';

/**
 * PTZ on the demo's S1001 Bridge, a synthetic PTZ camera (its picture is a window onto a larger
 * drawn scene): holding a direction moves the picture (video pixels compared in the page, away
 * from the burned-in name, clock and capture code and from the pad), "moved by" names the
 * operator, and a preset is set, gone to after moving away, and deleted, with the spec's messages.
 */
test.describe.configure({ mode: 'serial' });

const CAMERA = 'S1001-C01-1';

/** The cell's current video frame as a coarse luma grid (48×16) of the middle band, left 60 %. */
async function signature(page: Page): Promise<number[]> {
  return page.locator(`[data-camera-id="${CAMERA}"] video`).evaluate((v: HTMLVideoElement) => {
    const cols = 48;
    const rows = 16;
    const canvas = document.createElement('canvas');
    canvas.width = v.videoWidth;
    canvas.height = v.videoHeight;
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    if (!ctx) return [];
    ctx.drawImage(v, 0, 0);
    const x0 = 0;
    const y0 = Math.round(v.videoHeight * 0.3);
    const w = Math.round(v.videoWidth * 0.6);
    const h = Math.round(v.videoHeight * 0.4);
    const data = ctx.getImageData(x0, y0, w, h).data;
    const out: number[] = [];
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        let sum = 0;
        let n = 0;
        for (let y = Math.floor((r * h) / rows); y < Math.floor(((r + 1) * h) / rows); y += 2) {
          for (let x = Math.floor((c * w) / cols); x < Math.floor(((c + 1) * w) / cols); x += 2) {
            const i = (y * w + x) * 4;
            sum += 0.299 * (data[i] ?? 0) + 0.587 * (data[i + 1] ?? 0) + 0.114 * (data[i + 2] ?? 0);
            n++;
          }
        }
        out.push(n ? sum / n : 0);
      }
    }
    return out;
  });
}

const distance = (a: number[], b: number[]) => a.reduce((s, v, i) => s + Math.abs(v - (b[i] ?? 0)), 0) / Math.max(1, a.length);

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

  // Standing still, the picture changes only where the small square moves.
  const still1 = await signature(page);
  await page.waitForTimeout(1_000);
  const still2 = await signature(page);
  const idle = distance(still1, still2);

  await hold(page, pad.getByRole('button', { name: texts.control.right, exact: true }), 2_500);
  await expect(cell.getByTestId('ptz-moved-by')).toHaveText(texts.movedBy.replace('{{name}}', 'Demo Operator'));
  // The video is a link's delay behind: wait until the picture has stopped changing.
  await page.waitForTimeout(2_500);
  const moved = await signature(page);
  const panned = distance(still2, moved);
  console.log(`[ptz] picture change: idle ${idle.toFixed(1)}, after holding right ${panned.toFixed(1)}`);
  expect(panned).toBeGreaterThan(Math.max(6, idle * 4));

  // A preset here.
  await pad.getByRole('button', { name: texts.presets.open, exact: true }).click();
  const presets = page.getByTestId('ptz-presets');
  await presets.getByRole('textbox', { name: texts.presets.name, exact: true }).fill('舷梯 Gangway');
  await presets.getByRole('button', { name: texts.presets.set, exact: true }).click();
  await expect(page.getByText(texts.presets.setOk, { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(presets.getByText('舷梯 Gangway', { exact: true })).toBeVisible();
  const atPreset = await signature(page);

  // Away (down-left), then back to the preset.
  await pad.getByRole('button', { name: texts.presets.open, exact: true }).click();
  await expect(presets).toBeHidden();
  await hold(page, pad.getByRole('button', { name: texts.control.downLeft, exact: true }), 2_000);
  await page.waitForTimeout(2_500);
  const away = await signature(page);
  expect(distance(atPreset, away)).toBeGreaterThan(Math.max(6, idle * 4));
  await pad.getByRole('button', { name: texts.presets.open, exact: true }).click();
  await presets.getByRole('button', { name: texts.presets.goto, exact: true }).click();
  await page.waitForTimeout(2_500);
  const back = await signature(page);
  console.log(`[ptz] preset: away ${distance(atPreset, away).toFixed(1)}, back ${distance(atPreset, back).toFixed(1)}`);
  expect(distance(atPreset, back)).toBeLessThan(Math.max(3, idle * 2));

  // Delete it, confirmed.
  await presets.getByRole('button', { name: texts.presets.delete, exact: true }).click();
  await page.getByRole('button', { name: /^(确\s?定|OK)$/ }).click();
  await expect(page.getByText(texts.presets.deleteOk, { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(presets.getByText(texts.presets.empty, { exact: true })).toBeVisible();
  await page.screenshot({ path: 'docs/screenshots/ptz-zh-CN.png' });
});
