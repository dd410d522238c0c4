import type { ShipPlaybackCommand } from '@ship-cctv/protocol';
import { describe, expect, it, vi } from 'vitest';
import { LiveController } from '../src/live-controller.ts';
import type { MediaSurface } from '../src/media-surface.ts';
import { PlaybackController } from '../src/playback-controller.ts';
import type { PlaybackPosition, PlayerStats } from '../src/types.ts';

const RANGE: ShipPlaybackCommand = { type: 'play', mode: 'shipPlayback', cameraId: 'S1001-C01-1', templateId: 6, start: 1_000, end: 1_600, speed: 4, timeZone: 'UTC' };

function videoAt(time: number) {
  const clock = { time, rate: 1 };
  const video = {
    get currentTime() {
      return clock.time;
    },
    set currentTime(t: number) {
      clock.time = t;
    },
    get playbackRate() {
      return clock.rate;
    },
    set playbackRate(r: number) {
      clock.rate = r;
    },
    paused: false,
    seeking: false,
    readyState: 4,
    pause: vi.fn(),
  };
  return { video: video as unknown as HTMLVideoElement, clock };
}

function buffered(ranges: Array<[number, number]>): SourceBuffer {
  return { buffered: { length: ranges.length, start: (i: number) => ranges[i]![0], end: (i: number) => ranges[i]![1] } } as unknown as SourceBuffer;
}

function playbackRig(ranges: Array<[number, number]> = []) {
  const { video, clock } = videoAt(0);
  const sent: unknown[] = [];
  const changes: unknown[] = [];
  const positions: PlaybackPosition[] = [];
  const ended = vi.fn();
  const surface = { ranges: () => ranges, remove: vi.fn() } as unknown as MediaSurface;
  const stats = {} as PlayerStats;
  const controller = new PlaybackController(RANGE, {
    video,
    surface,
    stats,
    maxBufferSeconds: 20,
    send: (m) => sent.push(m),
    change: (m) => changes.push(m),
    position: (p) => positions.push(p),
    ended,
  });
  return { controller, clock, sent, changes, positions, ended, stats, video };
}

describe('PlaybackController', () => {
  it('keeps a seek inside the range, marks the next init as a jump once, and lands the playhead on it', () => {
    const { controller, clock, changes } = playbackRig();
    controller.seek(5_000);
    expect(changes).toEqual([{ type: 'seek', time: 1_599 }]);
    expect(controller.position?.time).toBe(1_599);
    expect(controller.takeJump()).toBe(true);
    expect(controller.takeJump()).toBe(false);
    controller.placed(12, true);
    controller.buffered(buffered([[0, 11.9], [12, 14]]));
    expect(clock.time).toBe(12);
  });

  it('resumes a reconnect from the last position at the current speed, and sends pause again on a new socket', () => {
    const { controller, sent } = playbackRig();
    controller.onPosition({ type: 'position', time: 1_234.6, speed: 4, paused: false });
    controller.setSpeed(2);
    const resend = controller.commandToSend();
    expect(resend.speed).toBe(2);
    expect(resend.start).toBeGreaterThan(RANGE.start);
    expect(resend.start).toBeLessThanOrEqual(1_235);
    expect(resend.end).toBe(RANGE.end);
    controller.pause();
    sent.length = 0;
    controller.opened();
    expect(sent).toEqual([{ type: 'pause' }]);
    expect(controller.userPaused).toBe(true);
    expect(controller.resume()).toBe(true);
    expect(controller.resume()).toBe(false);
  });

  it('ends only once the server said so and the buffer has played out', () => {
    const { controller, clock, ended } = playbackRig();
    expect(controller.serverEnded()).toBe(true);
    clock.time = 3;
    controller.tick({ ranges: [[0, 5]], now: 10_000, progressed: true, mediaStarted: true });
    expect(ended).not.toHaveBeenCalled();
    clock.time = 4.9;
    controller.tick({ ranges: [[0, 5]], now: 10_250, progressed: true, mediaStarted: true });
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('restarts a clock that crawls while media piles up ahead (Chrome after running dry), and leaves a playing or paused one alone', () => {
    const { controller, clock, video } = playbackRig();
    const ranges: Array<[number, number]> = [[0, 3.7]];
    const seeks: number[] = [];
    Object.defineProperty(video, 'currentTime', { get: () => clock.time, set: (t: number) => seeks.push((clock.time = t)) });
    // Playing normally: no seek however long.
    for (let now = 0; now <= 2_000; now += 250) {
      clock.time += 0.25;
      controller.tick({ ranges, now, progressed: true, mediaStarted: true });
    }
    expect(seeks).toEqual([]);
    // Crawling at HAVE_CURRENT_DATA: a hundredth of a second per second, 2 s buffered ahead.
    clock.time = 1.7;
    (video as { readyState: number }).readyState = 2;
    for (let now = 3_000; now < 3_500; now += 250) {
      clock.time += 0.0025;
      controller.tick({ ranges, now, progressed: true, mediaStarted: true });
    }
    expect(seeks).toEqual([]);
    clock.time += 0.0025;
    controller.tick({ ranges, now: 3_500, progressed: true, mediaStarted: true });
    expect(seeks).toHaveLength(1);
    expect(seeks[0]).toBeCloseTo(1.7075 + 0.001, 6);
    // Paused by the operator: waiting on purpose.
    (video as { paused: boolean }).paused = true;
    for (let now = 4_000; now <= 6_000; now += 250) controller.tick({ ranges, now, progressed: false, mediaStarted: true });
    expect(seeks).toHaveLength(1);
  });
});

describe('LiveController', () => {
  it('starts at the live edge, takes the server’s end as the player’s, and reports no latency before media', () => {
    const { video, clock } = videoAt(0);
    const stats = { latencyMs: 123 } as PlayerStats;
    const live = new LiveController(
      { type: 'play', mode: 'live', cameraId: 'S1001-C01-1', templateId: 6 },
      { video, surface: { source: undefined, remove: vi.fn() } as unknown as MediaSurface, stats, liveJumpMs: 1000, maxBufferSeconds: 20, latencyTargetMs: () => 300, frameRate: () => 10 },
    );
    expect(live.start(buffered([[0, 8]]))).toBe(true);
    expect(8 - clock.time).toBeCloseTo(0.3, 1);
    expect(live.serverEnded()).toBe(false);
    expect(live.takeJump()).toBe(false);
    live.tick({ ranges: [], now: 0, progressed: false, mediaStarted: false });
    expect(stats.latencyMs).toBeUndefined();
  });
});

describe('LiveController measures', () => {
  function liveRig() {
    const { video, clock } = videoAt(0);
    const frameCallbacks: Array<(now: number, meta: { mediaTime: number }) => void> = [];
    (video as unknown as { requestVideoFrameCallback: (cb: (typeof frameCallbacks)[number]) => number }).requestVideoFrameCallback = (cb) => frameCallbacks.push(cb);
    const stats = {} as PlayerStats;
    const allowances: Array<number | undefined> = [];
    const live = new LiveController(
      { type: 'play', mode: 'live', cameraId: 'S1001-C01-1', templateId: 6 },
      {
        video,
        surface: { source: {}, remove: vi.fn() } as unknown as MediaSurface,
        stats,
        liveJumpMs: 1000,
        maxBufferSeconds: 20,
        latencyTargetMs: (allowance) => {
          allowances.push(allowance);
          return 300;
        },
        frameRate: () => 10,
      },
    );
    /** Shows the frame at `mediaTime` (the browser's frame callback). */
    const present = (mediaTime: number) => frameCallbacks.splice(0).forEach((cb) => cb(performance.now(), { mediaTime }));
    return { live, clock, stats, allowances, present };
  }

  it('hands the target the jitter it measured once 30 frames came: how much later than the usual frame the late ones arrive', () => {
    const { live, allowances } = liveRig();
    const now = vi.spyOn(performance, 'now');
    try {
      for (let i = 0; i < 60; i++) {
        // Frames of 100 ms; every 10th 70 ms late.
        now.mockReturnValue(10_000 + i * 100 + (i % 10 === 9 ? 70 : 0));
        live.buffered(buffered([[0, (i + 1) * 0.1]]), true);
        void live.latencyTargetMs;
      }
    } finally {
      now.mockRestore();
    }
    expect(allowances.slice(0, 29).every((a) => a === undefined)).toBe(true);
    expect(allowances.at(-1)).toBeCloseTo(70, 6);
  });

  it('reads the age of B-frames too, whose producer times come in decode order', () => {
    const { live, stats, present } = liveRig();
    live.start(buffered([[0, 1]]));
    const wall = vi.spyOn(Date, 'now');
    try {
      // IBBP: pictures of 0, 0.3, 0.1, 0.2 s leave the encoder 100 ms apart in that order.
      [0, 0.3, 0.1, 0.2].forEach((t, n) => live.producedAt(t, 1_800_000_000_000 + n * 100));
      // The B-frame of 0.1 s (out at +200 ms) shows at +450 ms: 250 ms old.
      wall.mockReturnValue(1_800_000_000_450);
      present(0.1);
      live.tick({ ranges: [[0, 1]], now: performance.now(), progressed: true, mediaStarted: true });
      expect(stats.pictureAgeMs).toBe(250);
    } finally {
      wall.mockRestore();
    }
  });

  it('tells how old the picture on screen is from when the ship put it out (its producer time)', () => {
    const { live, stats, present } = liveRig();
    live.start(buffered([[0, 1]]));
    const wall = vi.spyOn(Date, 'now');
    try {
      for (let i = 0; i < 5; i++) live.producedAt(i * 0.1, 1_800_000_000_000 + i * 100);
      // Frame 2 shows 180 ms after it left the encoder, frame 3 190 ms after.
      wall.mockReturnValue(1_800_000_000_380);
      present(0.2);
      wall.mockReturnValue(1_800_000_000_490);
      present(0.3);
      live.tick({ ranges: [[0, 1]], now: performance.now(), progressed: true, mediaStarted: true });
      expect([180, 190]).toContain(stats.pictureAgeMs);
      // A frame with no producer time (or a clock beyond reason) changes nothing.
      wall.mockReturnValue(1_900_000_000_000);
      present(0.4);
      live.tick({ ranges: [[0, 1]], now: performance.now(), progressed: true, mediaStarted: true });
      expect([180, 190]).toContain(stats.pictureAgeMs);
    } finally {
      wall.mockRestore();
    }
  });
});
