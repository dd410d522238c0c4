import { expect, test } from '@playwright/test';
import { PlayerPage } from './player-page.ts';

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function summary(values: number[]): string {
  if (values.length === 0) return 'n/a';
  return `p50 ${percentile(values, 50)} ms, p95 ${percentile(values, 95)} ms, max ${Math.max(...values)} ms (n=${values.length})`;
}

/** No media reaching the page for this long is a stall upstream of the player (15 fps: a frame every 67 ms). */
const STALL_MS = 500;

test.describe('MsePlayer in Chromium, against a real ffmpeg', () => {
  let player: PlayerPage;

  test.beforeEach(async ({ page, request }) => {
    player = new PlayerPage(page, request);
    await player.open();
  });

  test('plays a minute of live video with the latency bounded', async () => {
    test.setTimeout(120_000);
    await player.start({ cameraId: 'minute' });
    await player.waitForState('playing');
    // A minute of samples, one a second from the first frame.
    await player.page.waitForFunction(() => window.harness.snapshot().samples.length >= 60, undefined, {
      timeout: 90_000,
      polling: 1000,
    });
    const s = await player.snapshot();
    const samples = s.samples.slice(0, 60);

    expect(s.errors).toEqual([]);
    expect(s.states.map((x) => x.state)).toEqual(['connecting', 'starting', 'playing']);
    // Frames advance all the way through: the clock moves every second, the decoder keeps up.
    for (let i = 1; i < samples.length; i++) {
      expect(samples[i]!.currentTime).toBeGreaterThan(samples[i - 1]!.currentTime);
      expect(samples[i]!.totalFrames).toBeGreaterThan(samples[i - 1]!.totalFrames);
    }
    const first = samples[0]!;
    const last = samples.at(-1)!;
    const seconds = (last.at - first.at) / 1000;
    expect(last.currentTime - first.currentTime).toBeGreaterThan(seconds * 0.95);
    expect(last.totalFrames - first.totalFrames).toBeGreaterThan(seconds * 15 * 0.9);
    // The live latency the player reports stays bounded (target 250 ms) for the whole minute, but
    // for the seconds after a stall upstream of it: when no media reaches the page for a while (the
    // encoder, the harness or the browser starved on a loaded machine), what comes next arrives at
    // once and the latency is that stall's length however the player plays, then drains at up to
    // 1.1×. Those samples are named and few, and the player is back within bound 10 s after.
    const latencies = samples.map((x) => x.latencyMs ?? Number.POSITIVE_INFINITY);
    const afterStall = samples.filter((x) => x.arrivalGapMs >= STALL_MS);
    if (afterStall.length > 0) console.log(`samples within 10 s of a stall upstream: ${afterStall.map((x) => `${x.latencyMs} ms (gap ${x.arrivalGapMs} ms)`).join(', ')}`);
    expect(afterStall.length).toBeLessThanOrEqual(20);
    expect(Math.max(...samples.filter((x) => x.arrivalGapMs < STALL_MS).map((x) => x.latencyMs ?? Number.POSITIVE_INFINITY))).toBeLessThan(1000);

    const capture = s.captureLatencies.slice(30); // past the start-up burst
    expect(capture.length).toBeGreaterThan(seconds * 15 * 0.8);
    console.log(
      [
        `minute run: first frame ${s.stats.firstFrameMs} ms after play()`,
        `  buffered live latency (player stats, 1/s): ${summary(latencies)}`,
        `  capture-to-screen latency (clock burnt into each frame): ${summary(capture)}`,
        `  fps ${percentile(samples.map((x) => x.fps), 50)}, bitrate ${percentile(samples.map((x) => x.bitrateKbps), 50)} kbit/s, ` +
          `dropped ${s.stats.droppedFrames} of ${s.totalFrames} frames, playbackRate > 1 in ${samples.filter((x) => x.playbackRate > 1).length}/60 samples`,
      ].join('\n'),
    );
  });

  test('keeps playing through a definition change (new codec and init mid-stream)', async () => {
    await player.start({ cameraId: 'switch' });
    await player.waitForPlayback(0, 1);
    const before = await player.snapshot();
    expect(before.videoWidth).toBe(640);

    await player.control('switch', 'switch');
    await player.page.waitForFunction(() => window.harness.snapshot().videoWidth === 320);
    const switched = await player.snapshot();
    // The same MediaSource carried on (a new one would have restarted the frame counter).
    expect(switched.totalFrames).toBeGreaterThanOrEqual(before.totalFrames);
    await player.waitForPlayback(switched.currentTime, 2);

    const after = await player.snapshot();
    expect(after.errors).toEqual([]);
    expect(after.codecs.map((c) => [c.width, c.height])).toEqual([
      [640, 360],
      [320, 180],
    ]);
    expect(after.codecs[1]!.mime).not.toBe(after.codecs[0]!.mime); // another level: changeType() ran
    expect(after.totalFrames).toBeGreaterThan(switched.totalFrames + 20);
    expect(after.stats.latencyMs).toBeLessThan(1000);
  });

  test('reconnects by itself when the server closes the socket, and plays again', async () => {
    await player.start({ cameraId: 'reconnect' });
    await player.waitForPlayback(0, 1);
    const before = await player.snapshot();

    await player.control('reconnect', 'close');
    await player.page.waitForFunction(() => {
      const s = window.harness.snapshot();
      return s.stats.reconnects >= 1 && s.state === 'playing';
    });
    const back = await player.snapshot();
    // Three seconds of picture after the reconnect, 45 frames at 15 fps: two (30 frames) sat on the
    // boundary of the check below when no frame was shown between `before` and the socket's close.
    await player.waitForPlayback(back.currentTime, 3);

    const after = await player.snapshot();
    expect(after.errors).toEqual([]);
    expect(after.states.map((x) => x.state).slice(2)).toEqual(['playing', 'reconnecting', 'connecting', 'starting', 'playing']);
    expect(after.totalFrames).toBeGreaterThan(before.totalFrames + 30);
    const received = await player.received('reconnect');
    expect(received.commands).toHaveLength(2);
    expect(received.commands[1]).toEqual(received.commands[0]);
    expect(received.tokens).toEqual(['e2e-token', 'e2e-token']);

    const lost = after.states.find((x) => x.state === 'reconnecting')!.at;
    const regained = after.states.at(-1)!.at;
    console.log(`reconnect: picture back ${Math.round(regained - lost)} ms after the socket closed (backoff 250 ms)`);
  });

  test('joins a running relay mid-stream: picture from the cached keyframe at once', async () => {
    // The first viewer starts the shared encoder; later ones join a stream whose timestamps are
    // far from 0, which the player re-bases onto its buffer.
    await player.start({ cameraId: 'relay-cold' });
    await player.waitForPlayback(0, 2);
    const cold = (await player.snapshot()).stats.firstFrameMs;
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) {
      await player.start({ cameraId: `relay-${i}` });
      await player.waitForPlayback(0, 1);
      const s = await player.snapshot();
      expect(s.errors).toEqual([]);
      // Re-based to 0: the relay's own clock is several seconds on by now.
      expect(s.currentTime).toBeLessThan(3);
      warm.push(s.stats.firstFrameMs ?? Number.NaN);
    }
    expect(warm.every((ms) => Number.isFinite(ms))).toBe(true);
    console.log(`first frame: ${cold} ms with the encoder starting; joining the relay: ${warm.join(', ')} ms`);
  });

  test('plays a camera with a microphone picture-only until its sound is asked for', async () => {
    await player.start({ cameraId: 'av-1' });
    await player.waitForPlayback(0, 2);
    const s = await player.snapshot();
    expect(s.errors).toEqual([]);
    expect(s.codecs[0]?.mime).toMatch(/mp4a\.40\.2"$/);
    // The sound track is stripped before MSE: nothing decoded, the picture plays.
    expect(s.audioDecodedBytes).toBe(0);
    expect(s.videoDecodedBytes).toBeGreaterThan(10_000);
  });

  test('plays picture and sound of a camera with a microphone, cut by the relay\'s splitter', async () => {
    await player.start({ cameraId: 'av-1', sound: true });
    await player.waitForPlayback(0, 3);
    const s = await player.snapshot();
    expect(s.errors).toEqual([]);
    // One SourceBuffer takes both tracks: the codec event names them, video first.
    expect(s.codecs[0]?.mime).toMatch(/^video\/mp4; codecs="avc1\.42c0[0-9a-f]{2},mp4a\.40\.2"$/);
    // Chromium decoded sound as well as picture, and the picture kept time.
    expect(s.audioDecodedBytes).toBeGreaterThan(10_000);
    expect(s.videoDecodedBytes).toBeGreaterThan(10_000);
    expect(s.totalFrames).toBeGreaterThan(3 * 15 * 0.8);
    console.log(`audio + video: decoded ${s.audioDecodedBytes} B of sound and ${s.videoDecodedBytes} B of picture in ${s.currentTime.toFixed(1)} s`);
  });

  test('reports an unsupported codec as a typed error', async () => {
    await player.start({ cameraId: 'unsupported-1' });
    await player.waitForState('error');
    const s = await player.snapshot();
    expect(s.errors).toEqual([{ kind: 'unsupported', message: 'This browser cannot play video/mp4; codecs="mp4v.20.9"' }]);
  });

  test('reports startup when no picture comes, and a server error without the token', async () => {
    await player.start({ cameraId: 'silent-1', startupTimeoutMs: 500 });
    // The server's waitSeconds (1 s) is added to the bound.
    await player.page.waitForFunction(() => window.harness.snapshot().errors.length > 0, undefined, { timeout: 5_000 });
    let s = await player.snapshot();
    expect(s.errors).toEqual([{ kind: 'startup', message: 'No picture within 1500 ms' }]);
    expect(s.state).toBe('starting');

    await player.start({ cameraId: 'no-token', token: null });
    await player.waitForState('error');
    s = await player.snapshot();
    expect(s.errors).toEqual([{ kind: 'server', code: 'unauthorized', message: 'bad token' }]);
  });
});

test.describe('a camera that sends B-frames (H.264 Main, pictures out of presentation order)', () => {
  for (const kind of ['mse', 'frames'] as const) {
    test(`${kind === 'mse' ? 'MsePlayer' : 'FramePlayer'} shows the pictures in the camera's order, without errors`, async ({ page, request }) => {
      test.setTimeout(60_000);
      const player = new PlayerPage(page, request);
      await player.open();
      await player.start({ cameraId: `bframes-${kind}`, player: kind });
      await player.waitForState('playing');
      // Five seconds of pictures once playing.
      await player.page.waitForTimeout(5_000);
      const s = await player.snapshot();
      expect(s.errors).toEqual([]);
      expect(s.codecs[0]?.mime).toMatch(/avc1\.4d/);
      // The clock burnt into each picture never steps back: the decoder's order is the camera's.
      expect(s.backwardSteps).toBe(0);
      // Pictures went on screen all along (how many depends on the machine's load; the frame
      // sink's unit test counts them exactly).
      const shown = s.captureLatencies.length;
      expect(shown).toBeGreaterThan(15);
      const capture = s.captureLatencies.slice(15);
      console.log(
        `B-frames, ${kind}: ${shown} pictures shown, none out of order; capture-to-screen ${summary(capture)}; ` +
          `player latency ${s.stats.latencyMs} ms (target ${s.stats.latencyTargetMs} ms), dropped ${s.stats.droppedFrames}`,
      );
    });
  }
});

test.describe('an AV1 stream (the satellite tier), decoded in software by Chromium', () => {
  for (const kind of ['mse', 'frames'] as const) {
    test(`${kind === 'mse' ? 'MsePlayer' : 'FramePlayer'} says it decodes av01 and plays AV1 without errors`, async ({ page, request }) => {
      test.setTimeout(60_000);
      const player = new PlayerPage(page, request);
      await player.open();
      const cameraId = `av1-${kind}`;
      await player.start({ cameraId, player: kind });
      await player.waitForState('playing');
      await player.page.waitForTimeout(4_000);
      const s = await player.snapshot();
      expect(s.errors).toEqual([]);
      // The play said what this browser decodes (MSE's isTypeSupported, WebCodecs' isConfigSupported).
      const { commands } = await player.received(cameraId);
      expect(commands[0]?.decoders).toEqual(expect.arrayContaining(['avc1', 'av01']));
      expect(s.codecs[0]?.mime).toMatch(/^video\/mp4; codecs="av01\.0\.\d\dM\.08"$/);
      // Pictures went on screen all along, their burnt-in clock never stepping back.
      expect(s.backwardSteps).toBe(0);
      expect(s.captureLatencies.length).toBeGreaterThan(15);
      console.log(`AV1, ${kind}: ${s.captureLatencies.length} pictures shown; capture-to-screen ${summary(s.captureLatencies.slice(10))}`);
    });
  }
});
