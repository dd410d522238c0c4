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
  return { controller, clock, sent, changes, positions, ended, stats };
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
