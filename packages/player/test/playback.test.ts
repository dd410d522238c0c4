import type { ShipPlaybackCommand } from '@ship-cctv/protocol';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MsePlayer } from '../src/mse-player.ts';
import { bufferedAhead, decidePlaybackHead, landingFor, shownRecordedTime } from '../src/playback-head.ts';
import type { MsePlayerEventMap, PlaybackPosition } from '../src/types.ts';
import { FakeMediaSource, FakeSocket, fragment, initSegment, makeVideo, playerTestEnvironment } from './fakes.ts';

const START = Date.UTC(2025, 4, 1, 8, 0, 0);
const END = START + 3_600_000;
const COMMAND: ShipPlaybackCommand = {
  type: 'play',
  mode: 'shipPlayback',
  cameraId: 'S1001-C01-1',
  start: START,
  end: END,
  speed: 16,
  timeZone: 'China Standard Time',
};
const AVC = 'video/mp4; codecs="avc1.42c01e"';
const codec = { type: 'codec', mime: AVC, width: 640, height: 360, frameRate: 10, templateId: 6 };

describe('playback head (pure)', () => {
  it('leaves a playhead inside a range alone and moves one in a gap or before the first range', () => {
    expect(decidePlaybackHead(1, [[0, 5]])).toBeUndefined();
    expect(decidePlaybackHead(5.2, [[0, 5], [6, 9]])).toBe(6);
    expect(decidePlaybackHead(0, [[0.4, 3]])).toBe(0.4);
    // Past the end: wait for more rather than jump backwards.
    expect(decidePlaybackHead(9.5, [[0, 5], [6, 9]])).toBeUndefined();
    expect(decidePlaybackHead(3, [])).toBeUndefined();
  });

  it('moves a playhead that has waited half a second with more than a frame ahead a hair forward, onto the frame it shows', () => {
    // Chrome ran dry at the start and crawls while seconds pile up ahead: a seek restarts its clock.
    expect(decidePlaybackHead(0.3, [[0, 3.7]], { stuckSec: 0.5, frameSec: 0.1 })).toBeCloseTo(0.301, 6);
    // Waiting for less than half a second: Chrome may still start by itself.
    expect(decidePlaybackHead(0.3, [[0, 3.7]], { stuckSec: 0.4, frameSec: 0.1 })).toBeUndefined();
    // At the end of what came: waiting for the next frame, not stuck.
    expect(decidePlaybackHead(3.65, [[0, 3.7]], { stuckSec: 2, frameSec: 0.1 })).toBeUndefined();
    // A slow stream's frame is longer: half a second ahead of a 2 fps stream is its next frame only.
    expect(decidePlaybackHead(3.2, [[0, 3.7]], { stuckSec: 2, frameSec: 0.5 })).toBeUndefined();
    // In a gap, the next range as before.
    expect(decidePlaybackHead(5.2, [[0, 5], [6, 9]], { stuckSec: 2, frameSec: 0.1 })).toBe(6);
  });

  it('measures what is buffered ahead of the playhead', () => {
    expect(bufferedAhead(2, [[0, 5]])).toBe(3);
    expect(bufferedAhead(5.5, [[0, 5], [6, 9]])).toBe(0);
    expect(bufferedAhead(7, [[0, 5], [6, 9]])).toBe(2);
  });

  it('lands on a placed time once media past it is buffered, or on the next range start', () => {
    expect(landingFor(4, [[0, 4]])).toBeUndefined();
    expect(landingFor(4, [[0, 5]])).toBe(4);
    expect(landingFor(4, [[0, 3.9], [4.04, 6]])).toBe(4.04);
  });

  it('estimates the recorded time on screen from the last position, the buffer and the speed', () => {
    // The ship was sending 10:00:00 when the buffer ended at 12 s; the playhead is at 10 s: at
    // 16× those 2 s of media are 32 s of recorded time not yet shown.
    const position = { time: START + 600_000, speed: 16, mediaEnd: 12 };
    expect(shownRecordedTime(position, 10)).toBe(START + 600_000 - 32_000);
    expect(shownRecordedTime(position, 13)).toBe(START + 600_000 + 16_000);
    expect(shownRecordedTime({ ...position, mediaEnd: undefined }, 10)).toBe(START + 600_000);
    expect(shownRecordedTime({ time: START + 1000, speed: 16, mediaEnd: 12 }, 2, { start: START, end: END })).toBe(START);
  });
});

const env = playerTestEnvironment();

function setup() {
  const { video, clock } = makeVideo();
  const player = env.keep(
    new MsePlayer(video, {
      url: '/cctvv3-server/v3/media',
      WebSocketImpl: FakeSocket,
      MediaSourceImpl: FakeMediaSource,
      reconnect: { minMs: 500, maxMs: 4000 },
      stallTimeoutMs: 1000,
      silenceReconnectMs: 3000,
    }),
  );
  const events: Array<{ type: keyof MsePlayerEventMap; payload: unknown }> = [];
  for (const type of ['state', 'error', 'position'] as const) player.on(type, (payload) => events.push({ type, payload }));
  const positions = () => events.filter((e) => e.type === 'position').map((e) => e.payload as PlaybackPosition);
  const socket = (i = -1) => {
    const s = FakeSocket.instances.at(i);
    if (!s) throw new Error(`no socket ${i}`);
    return s;
  };
  return { player, video, clock, events, positions, socket };
}

/** Plays the command up to frames on screen: codec, init, MediaSource open, `seconds` of fragments. */
async function startPlaying(t: ReturnType<typeof setup>, seconds = 2) {
  t.player.play(COMMAND);
  t.socket().open();
  t.socket().receive(codec);
  t.socket().receive(initSegment(1000));
  FakeMediaSource.instances.at(-1)!.open();
  const sb = FakeMediaSource.instances.at(-1)!.sourceBuffer!;
  sb.secondsPerAppend = 0.25;
  await feed(t, seconds);
  return sb;
}

let mediaClock = 0;
/** `seconds` of fragments at 4 a second, the playhead moving with them. */
async function feed(t: ReturnType<typeof setup>, seconds: number) {
  for (let i = 0; i < seconds * 4; i++) {
    t.socket().receive(fragment(mediaClock));
    mediaClock += 250;
    await vi.advanceTimersByTimeAsync(250);
    if (!t.clock.paused) t.clock.time += 0.25;
  }
}

beforeEach(() => {
  mediaClock = 0;
});

describe('MsePlayer ship-end playback', () => {
  it('sends the playback command and reports the server positions', async () => {
    const t = setup();
    await startPlaying(t);
    // With what MSE decodes here (an H.265 recording comes as it is to a page that decodes it).
    expect(t.socket().sent).toEqual([{ ...COMMAND, decoders: ['avc1'] }]);
    expect(t.player.state).toBe('playing');
    t.socket().receive({ type: 'position', time: START + 30_000, speed: 16, paused: false });
    expect(t.positions()).toEqual([{ time: START + 30_000, speed: 16, paused: false }]);
    expect(t.player.position).toEqual({ time: START + 30_000, speed: 16, paused: false });
    // The frame on screen is behind what the ship sends by the media buffered ahead, at 16×.
    const shown = t.player.recordedTime()!;
    expect(shown).toBeLessThanOrEqual(START + 30_000);
    expect(shown).toBeGreaterThanOrEqual(START);
  });

  it('does not take a paused playback for a stall nor its silence for a dead socket; resume carries on', async () => {
    const t = setup();
    await startPlaying(t);
    t.player.pause();
    expect(t.socket().sent.at(-1)).toEqual({ type: 'pause' });
    expect(t.video.paused).toBe(true);
    expect(t.positions().at(-1)).toMatchObject({ paused: true });
    expect(t.player.paused).toBe(true);
    // Far beyond the stall (1 s) and silence (3 s) bounds: nothing arrives, nothing moves.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(t.player.state).toBe('playing');
    expect(FakeSocket.instances).toHaveLength(1);
    expect(t.events.filter((e) => e.type === 'error')).toEqual([]);

    t.player.resume();
    expect(t.socket().sent.at(-1)).toEqual({ type: 'resume' });
    expect(t.video.paused).toBe(false);
    await feed(t, 1);
    expect(t.player.state).toBe('playing');
    // Without new bytes after the resume the watchdog works again.
    await vi.advanceTimersByTimeAsync(1500);
    expect(t.player.state).toBe('stalled');
  });

  it('after a seek, ignores stale positions and moves the playhead to the new init segment’s media', async () => {
    const t = setup();
    const sb = await startPlaying(t, 2);
    // The ship had sent well ahead: the playhead is at 2 s, the buffer ends at 2 s plus what follows.
    await feed(t, 0);
    const target = START + 1_800_000;
    t.player.seek(target);
    expect(t.socket().sent.at(-1)).toEqual({ type: 'seek', time: target });
    expect(t.positions().at(-1)).toEqual({ time: target, speed: 16, paused: false });
    // A position sent before the server took the seek.
    t.socket().receive({ type: 'position', time: START + 40_000, speed: 16, paused: false });
    expect(t.player.position?.time).toBe(target);
    // Old media still in flight, then the new codec, init and media.
    t.socket().receive(fragment(mediaClock));
    t.socket().receive(fragment(mediaClock + 250));
    await vi.advanceTimersByTimeAsync(0);
    const oldEnd = sb.ranges.at(-1)![1];
    expect(oldEnd).toBeGreaterThan(t.clock.time);
    t.socket().receive(codec);
    t.socket().receive(initSegment(1000));
    t.socket().receive(fragment(0));
    await vi.advanceTimersByTimeAsync(0);
    expect(t.clock.time).toBe(oldEnd);
    // Positions count again once the new media shows.
    t.socket().receive({ type: 'position', time: target + 4000, speed: 16, paused: false });
    expect(t.player.position?.time).toBe(target + 4000);
  });

  it('keeps a seek inside the range', async () => {
    const t = setup();
    await startPlaying(t, 1);
    t.player.seek(END + 60_000);
    expect(t.socket().sent.at(-1)).toEqual({ type: 'seek', time: END - 1 });
    t.player.seek(START - 60_000);
    expect(t.socket().sent.at(-1)).toEqual({ type: 'seek', time: START });
  });

  it('changes speed on the socket and resends the new speed after a reconnect, from the last position', async () => {
    const t = setup();
    await startPlaying(t, 1);
    t.player.setSpeed(4);
    expect(t.socket().sent.at(-1)).toEqual({ type: 'speed', speed: 4 });
    expect(t.positions().at(-1)).toMatchObject({ speed: 4 });
    t.socket().receive(codec);
    t.socket().receive(initSegment(1000));
    t.socket().receive(fragment(0));
    await vi.advanceTimersByTimeAsync(0);
    t.socket().receive({ type: 'position', time: START + 120_000, speed: 4, paused: false });

    t.socket().serverClose();
    await vi.advanceTimersByTimeAsync(500);
    expect(FakeSocket.instances).toHaveLength(2);
    t.socket().open();
    expect(t.socket().sent).toEqual([{ ...COMMAND, decoders: ['avc1'], speed: 4, start: START + 120_000 }]);
  });

  it('ends once the server said the range is done and the buffer has played out', async () => {
    const t = setup();
    const sb = await startPlaying(t, 1);
    t.socket().receive(fragment(mediaClock));
    t.socket().receive(fragment(mediaClock + 250));
    await vi.advanceTimersByTimeAsync(0);
    t.socket().receive({ type: 'status', state: 'ended' });
    t.socket().serverClose();
    await vi.advanceTimersByTimeAsync(250);
    expect(t.player.state).toBe('playing');
    t.clock.time = sb.ranges.at(-1)![1];
    await vi.advanceTimersByTimeAsync(250);
    expect(t.player.state).toBe('ended');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(FakeSocket.instances).toHaveLength(1);
  });

  it('a seek after the end plays again from the sought time on a new socket', async () => {
    const t = setup();
    const sb = await startPlaying(t, 1);
    t.socket().receive({ type: 'status', state: 'ended' });
    t.socket().serverClose();
    t.clock.time = sb.ranges.at(-1)![1];
    await vi.advanceTimersByTimeAsync(250);
    expect(t.player.state).toBe('ended');
    t.player.seek(START + 600_000);
    expect(FakeSocket.instances).toHaveLength(2);
    t.socket().open();
    expect(t.socket().sent).toEqual([{ ...COMMAND, decoders: ['avc1'], start: START + 600_000 }]);
    expect(t.player.state).toBe('starting');
  });

  it('reports noRecording and playbackFailed as server errors and does not ask the ship again by itself', async () => {
    for (const code of ['noRecording', 'playbackFailed'] as const) {
      const t = setup();
      t.player.play(COMMAND);
      t.socket().open();
      t.socket().receive({ type: 'error', code, message: 'nothing recorded' });
      t.socket().serverClose();
      await vi.advanceTimersByTimeAsync(10_000);
      expect(t.events.filter((e) => e.type === 'error').map((e) => e.payload)).toEqual([{ kind: 'server', code, message: 'nothing recorded' }]);
      expect(t.player.state).toBe('error');
      expect(FakeSocket.instances).toHaveLength(1);
      t.player.destroy();
      FakeSocket.instances = [];
    }
  });

  it('live playback has no position and ignores the playback controls', () => {
    const t = setup();
    t.player.play({ type: 'play', mode: 'live', cameraId: 'S1001-C01-1' });
    t.socket().open();
    t.player.pause();
    t.player.seek(START);
    t.player.setSpeed(4);
    expect(t.socket().sent).toEqual([{ type: 'play', mode: 'live', cameraId: 'S1001-C01-1', decoders: ['avc1'] }]);
    expect(t.player.position).toBeUndefined();
    expect(t.player.paused).toBe(false);
  });
});
