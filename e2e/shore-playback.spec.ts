import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { PlayGridPage } from './pages/play-grid-page.ts';
import { ShorePlaybackPage } from './pages/shore-playback-page.ts';

/**
 * Shore playback (spec §2 /record/video) against the demo stack: S1001's cameras have an active
 * continuous recording configuration, so watching one live in the main preview records it on
 * shore (the recorder only records what somebody watches); the recording is then listed, played
 * from the timeline and exported as a 30 s clip.
 */
test('a watched channel is recorded on shore, plays from the timeline and exports a 30 s clip', async ({ page, baseURL }) => {
  test.setTimeout(300_000);
  const grid = new PlayGridPage(page);
  await grid.signIn(baseURL ?? '');
  await grid.open();
  await grid.chooseOrganisation('Blue Ocean Shipping');
  await grid.expandShip('S1001', 'S1001-C01');
  await grid.playChannel('S1001-C01');
  await grid.expectPlaying('S1001-C01-1');
  // Watch for a while (what the clip needs), then stop: the stream ends after its linger, and the
  // recording's last segment is indexed. Watched until the recorder's first 60 s segment is whole
  // (a recording is listed from its first indexed segment): 62 seconds in which the cell showed
  // new frames. Not a count of frames: a loaded machine's cell showed 453 in 90 s, half the rate
  // of a quiet one; not the player's media time, which the live player may skip ahead.
  const frames = () => grid.cell('S1001-C01-1').locator('video').evaluate((v: HTMLVideoElement) => v.getVideoPlaybackQuality().totalVideoFrames);
  let lastFrames = await frames();
  let secondsPlaying = 0;
  const playing = async () => {
    const now = await frames();
    if (now > lastFrames) secondsPlaying += 1;
    lastFrames = now;
    return secondsPlaying;
  };
  await expect.poll(playing, { timeout: 150_000, intervals: [1_000] }).toBeGreaterThanOrEqual(62);
  await grid.close('S1001-C01-1');

  const shore = new ShorePlaybackPage(page);
  await shore.openFromMenu(shore.texts.shell.menu.shorePlayback);
  await expect(shore.title).toHaveText(shore.texts.shorePlayback.page.title.replace('{{name}}', shore.texts.shell.menu.shorePlayback));
  const recordingId = await shore.waitForRecording();
  await expect(shore.rows().first()).toContainText('Bridge');

  // Open it from the list (cold: the segment is fetched), then zoom the timeline to minutes.
  const listClicked = Date.now();
  await shore.rows().first().click();
  await shore.expectPlaying();
  const coldStartMs = Date.now() - listClicked;
  for (let i = 0; i < 8; i++) await shore.zoomIn.click();
  await expect(shore.timelineWindow).toContainText(shore.texts.shorePlayback.timeline.minutes.replace('{{count}}', '2'));
  const span = await shore.span(recordingId).boundingBox();
  expect(span?.width ?? 0).toBeGreaterThan(150);

  // Click 70 % into the span: the player jumps there and plays on. Where that is on the axis: the
  // span as drawn (clipped to the window, which ends where the search did — a recording still
  // growing then is drawn to there).
  const track = page.getByTestId('timeline-track');
  const [trackBox, windowStart, windowEnd] = await Promise.all([
    track.boundingBox(),
    track.getAttribute('data-window-start').then(Number),
    track.getAttribute('data-window-end').then(Number),
  ]);
  if (!trackBox || !span) throw new Error('the timeline or the span is not shown');
  const clickedAt = windowStart + ((span.x + 0.7 * span.width - trackBox.x) / trackBox.width) * (windowEnd - windowStart);
  const seekMs = await shore.clickSpan(recordingId, 0.7);
  const shown = await shore.shownTime();
  const rec = await page.request.post('/api/v1/cctv/record/complexQuery/1/10', { data: { cameraId: 'S1001-C01-1' } });
  const summary = ((await rec.json()) as { data: { records: { id: string; start: number; end: number }[] } }).data.records.find((r) => r.id === recordingId);
  expect(summary).toBeDefined();
  console.log(`[shore-playback] recording of ${((summary!.end - summary!.start) / 1000).toFixed(1)} s listed`);
  expect(clickedAt).toBeGreaterThan(summary!.start);
  expect(clickedAt).toBeLessThan(summary!.end);
  expect(Math.abs(shown - clickedAt)).toBeLessThan(3_000);
  await shore.expectPlaying();
  console.log(`[shore-playback] timeline click to frame (seek): ${Math.round(seekMs)} ms; list click to playing (cold open): ${coldStartMs} ms`);

  await shore.chooseSpeed(16);
  expect((await shore.videoState()).playbackRate).toBe(16);

  // Back to 1× before opening the recording again: the speed chosen stays, and at 16× the
  // minute-long recording reaches its end within seconds — on a loaded machine before the check
  // that it plays, which then sees the time stand at the end.
  await shore.chooseSpeed(1);
  expect((await shore.videoState()).playbackRate).toBe(1);
  // Export: a new recording offers 30 s from its start; the clip is cut on shore with progress.
  await shore.rows().first().click();
  await shore.expectPlaying();
  expect((await shore.videoState()).playbackRate).toBe(1);
  await shore.exportButton.click();
  await expect(shore.progress).toBeVisible();
  await expect(shore.download).toBeVisible({ timeout: 60_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), shore.download.click()]);
  const dir = mkdtempSync(join(tmpdir(), 'shore-clip-'));
  try {
    const file = join(dir, download.suggestedFilename());
    await download.saveAs(file);
    expect(download.suggestedFilename()).toMatch(/^S1001-C01-1_.*\.mp4$/);
    const probe = JSON.parse(
      execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name:format=duration,format_name', '-of', 'json', file]).toString(),
    ) as { streams: { codec_name: string }[]; format: { duration: string; format_name: string } };
    expect(probe.streams[0]?.codec_name).toBe('h264');
    expect(probe.format.format_name).toContain('mp4');
    expect(Math.abs(Number(probe.format.duration) - 30)).toBeLessThanOrEqual(1);
    console.log(`[shore-playback] clip: ${probe.format.duration} s of h264`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await page.screenshot({ path: 'docs/screenshots/shore-playback-zh-CN.png' });

  // The same screen in English (header → settings): the texts change in place, the player plays on.
  const english = await shore.switchLanguage('en');
  await expect(english.exportButton).toHaveText(english.texts.shorePlayback.clip.export);
  await english.expectPlaying();
  // The list's headers keep to one line in English too ("Duration" wrapped as "Durati / on").
  const headers = page.locator('.ant-table-thead th');
  for (const name of [english.texts.shorePlayback.list.duration, english.texts.shorePlayback.list.size, english.texts.shorePlayback.list.start]) {
    const th = headers.filter({ hasText: name });
    await expect(th).toHaveCSS('white-space', 'nowrap');
    // On one line and whole: the text fits the column.
    expect(await th.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  }
  await page.screenshot({ path: 'docs/screenshots/shore-playback-en.png' });
});
