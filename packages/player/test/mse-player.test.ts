import type { PlayCommand } from '@ship-cctv/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MsePlayer } from '../src/mse-player.ts';
import type { MsePlayerOptions, PlayerEventMap } from '../src/types.ts';
import { FakeMediaSource, FakeSocket, fragment, initSegment } from './fakes.ts';

const COMMAND: PlayCommand = { type: 'play', mode: 'live', cameraId: 'S1001-C01-1', templateId: 6 };
const AVC_360 = 'video/mp4; codecs="avc1.42c01e"';
const AVC_180 = 'video/mp4; codecs="avc1.42c00d"';
const codec = (mime: string, width = 640, height = 360) => ({ type: 'codec', mime, width, height, frameRate: 15, templateId: 6 });

/** A <video> whose clock and paused flag the test controls (jsdom decodes nothing). */
function makeVideo() {
  const video = document.createElement('video');
  const clock = { time: 0, paused: true };
  Object.defineProperty(video, 'currentTime', { get: () => clock.time, set: (t: number) => (clock.time = t) });
  Object.defineProperty(video, 'paused', { get: () => clock.paused });
  const play = vi.spyOn(video, 'play').mockImplementation(async () => {
    clock.paused = false;
  });
  vi.spyOn(video, 'load').mockImplementation(() => {});
  return { video, clock, play };
}

let players: MsePlayer[] = [];

function setup(options: Partial<MsePlayerOptions> = {}) {
  const { video, clock, play } = makeVideo();
  const player = new MsePlayer(video, {
    url: '/cctvv3-server/v3/media',
    token: 'abc',
    WebSocketImpl: FakeSocket,
    MediaSourceImpl: FakeMediaSource,
    reconnect: { minMs: 500, maxMs: 4000 },
    ...options,
  });
  players.push(player);
  const events: Array<{ type: keyof PlayerEventMap; payload: unknown }> = [];
  for (const type of ['state', 'error', 'status', 'notice', 'codec', 'reconnect', 'firstFrame'] as const) {
    player.on(type, (payload) => events.push({ type, payload }));
  }
  const errors = () => events.filter((e) => e.type === 'error').map((e) => e.payload);
  const socket = (i = -1) => {
    const s = FakeSocket.instances.at(i);
    if (!s) throw new Error(`no socket ${i}`);
    return s;
  };
  return { player, video, clock, play, events, errors, socket };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance', 'Date'] });
  vi.spyOn(Math, 'random').mockReturnValue(0);
  URL.createObjectURL = () => 'blob:fake-media-source';
  URL.revokeObjectURL = () => {};
});

afterEach(() => {
  for (const p of players) p.destroy();
  players = [];
  FakeSocket.instances = [];
  FakeMediaSource.instances = [];
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('MsePlayer socket', () => {
  it('opens the media socket with the token and sends the play command', () => {
    const { player, socket } = setup();
    player.play(COMMAND);
    const url = new URL(socket().url);
    expect(url.protocol).toBe('ws:');
    expect(url.pathname).toBe('/cctvv3-server/v3/media');
    expect(url.searchParams.get('token')).toBe('abc');
    expect(socket().binaryType).toBe('arraybuffer');
    expect(player.state).toBe('connecting');
    socket().open();
    expect(socket().sent).toEqual([COMMAND]);
    expect(player.state).toBe('starting');
  });

  it('leaves the token out when none is given (the cookie goes with the upgrade)', () => {
    const { player, socket } = setup({ token: undefined, url: 'wss://shore.example/cctvv3-server/v3/media' });
    player.play(COMMAND);
    expect(socket().url).toBe('wss://shore.example/cctvv3-server/v3/media');
  });

  it('reconnects with exponential backoff after the socket closes and re-sends the same play command', async () => {
    const { player, socket, events } = setup();
    player.play(COMMAND);
    socket().open();
    socket().serverClose();
    expect(player.state).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(499);
    expect(FakeSocket.instances).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.instances).toHaveLength(2);
    socket().open();
    expect(socket().sent).toEqual([COMMAND]);
    // No frame came, so the next attempt waits longer.
    socket().serverClose();
    await vi.advanceTimersByTimeAsync(999);
    expect(FakeSocket.instances).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.instances).toHaveLength(3);
    expect(events.filter((e) => e.type === 'reconnect').map((e) => e.payload)).toEqual([
      { attempt: 1, delayMs: 500 },
      { attempt: 2, delayMs: 1000 },
    ]);
    expect(player.stats.reconnects).toBe(2);
  });

  it('does not reconnect after stop(), and tells the server', async () => {
    const { player, socket } = setup();
    player.play(COMMAND);
    socket().open();
    player.stop();
    expect(socket().sent.at(-1)).toEqual({ type: 'stop' });
    expect(socket().closedByClient).toBe(true);
    expect(player.state).toBe('idle');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(FakeSocket.instances).toHaveLength(1);
  });

  it('stays ended when the server ended the stream and then closed', async () => {
    const { player, socket } = setup();
    player.play(COMMAND);
    socket().open();
    socket().receive({ type: 'status', state: 'ended', reason: 'shutdown' });
    socket().serverClose();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(player.state).toBe('ended');
    expect(FakeSocket.instances).toHaveLength(1);
  });

  it('reports a permanent server error with its code and does not retry', async () => {
    const { player, socket, errors } = setup();
    player.play(COMMAND);
    socket().open();
    socket().receive({ type: 'error', code: 'forbidden', message: 'not your ship' });
    socket().serverClose();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(errors()).toEqual([{ kind: 'server', code: 'forbidden', message: 'not your ship' }]);
    expect(player.state).toBe('error');
    expect(FakeSocket.instances).toHaveLength(1);
  });

  it('passes notices and limit countdowns on as events; continueWatching() sends continue', () => {
    const { player, socket, events } = setup();
    player.play(COMMAND);
    socket().open();
    socket().receive({ type: 'notice', code: 'lowestDefinition', templateId: 1 });
    socket().receive({ type: 'status', state: 'limit', countdownSeconds: 30 });
    expect(player.state).toBe('starting');
    socket().receive({ type: 'status', state: 'limit', countdownSeconds: 0 });
    expect(player.state).toBe('limit');
    player.continueWatching();
    expect(socket().sent.at(-1)).toEqual({ type: 'continue' });
    expect(events.filter((e) => e.type === 'notice' || e.type === 'status').map((e) => e.payload)).toEqual([
      { type: 'notice', code: 'lowestDefinition', templateId: 1 },
      { type: 'status', state: 'limit', countdownSeconds: 30 },
      { type: 'status', state: 'limit', countdownSeconds: 0 },
    ]);
  });

  it('reports startup when no frame comes within the bound plus the server wait', async () => {
    const { player, socket, errors } = setup({ startupTimeoutMs: 2000 });
    player.play(COMMAND);
    socket().open();
    socket().receive({ type: 'status', state: 'starting', waitSeconds: 3 });
    await vi.advanceTimersByTimeAsync(4750);
    expect(errors()).toEqual([]);
    await vi.advanceTimersByTimeAsync(500);
    await vi.advanceTimersByTimeAsync(5000);
    expect(errors()).toEqual([{ kind: 'startup', message: 'No picture within 5000 ms' }]);
  });
});

describe('MsePlayer media', () => {
  it('refuses a codec the browser cannot play with a typed error and closes the socket', () => {
    const { player, socket, errors } = setup();
    player.play(COMMAND);
    socket().open();
    socket().receive(codec('video/mp4; codecs="mp4v.20.9"'));
    expect(errors()).toEqual([{ kind: 'unsupported', message: 'This browser cannot play video/mp4; codecs="mp4v.20.9"' }]);
    expect(player.state).toBe('error');
    expect(socket().sent.at(-1)).toEqual({ type: 'stop' });
    expect(socket().closedByClient).toBe(true);
    expect(FakeMediaSource.instances).toHaveLength(0);
  });

  it('appends in order, places each generation at the end of the buffer and switches codec with changeType', async () => {
    const { player, socket, video, play } = setup();
    player.play(COMMAND);
    socket().open();
    socket().receive(codec(AVC_360));
    const ms = FakeMediaSource.instances[0];
    expect(ms).toBeDefined();
    expect(video.getAttribute('src')).toBe('blob:fake-media-source');
    // Bytes that arrive while the MediaSource opens wait in the queue.
    const init1 = initSegment(90_000);
    const frag1 = fragment(900_000); // 10 s into the encoder's clock
    socket().receive(init1);
    socket().receive(frag1);
    ms!.open();
    const sb = ms!.sourceBuffer!;
    expect(ms!.mimes).toEqual([AVC_360]);
    expect(sb.mode).toBe('segments');
    await vi.advanceTimersByTimeAsync(0);
    expect(sb.calls.map((c) => c.op)).toEqual(['append', 'append']);
    expect(sb.timestampOffset).toBe(-10); // the first generation starts at 0
    expect(play).toHaveBeenCalledOnce();
    expect(player.stats.width).toBe(640);

    // Definition change: new codec, new init from an encoder whose clock restarted.
    socket().receive(codec(AVC_180, 320, 180));
    socket().receive(initSegment(15_360));
    await vi.advanceTimersByTimeAsync(0);
    const endBefore = sb.ranges.at(-1)![1];
    socket().receive(fragment(30_720)); // 2 s
    await vi.advanceTimersByTimeAsync(0);
    expect(sb.calls.map((c) => c.op)).toEqual(['append', 'append', 'changeType', 'append', 'append']);
    expect(sb.calls[2]).toEqual({ op: 'changeType', mime: AVC_180 });
    expect(sb.timestampOffset).toBe(endBefore - 2);
    expect(FakeMediaSource.instances).toHaveLength(1);
    expect(player.stats.width).toBe(320);
    expect(player.stats.bytesReceived).toBe(init1.length + frag1.length * 2 + initSegment(15_360).length);
  });

  it('goes stalled when bytes stop, recovers when they flow again, and reconnects after a long silence', async () => {
    const { player, socket, clock, errors } = setup({ stallTimeoutMs: 1000, silenceReconnectMs: 3000 });
    player.play(COMMAND);
    socket().open();
    socket().receive(codec(AVC_360));
    socket().receive(initSegment(1000));
    FakeMediaSource.instances[0]!.open();
    const sb = FakeMediaSource.instances[0]!.sourceBuffer!;
    sb.secondsPerAppend = 0.25;
    let t = 0;
    const flow = async (ms: number) => {
      for (let i = 0; i < ms / 250; i++) {
        socket().receive(fragment(t));
        t += 250;
        await vi.advanceTimersByTimeAsync(250);
        clock.time += 0.25;
      }
    };
    await flow(1000);
    expect(player.state).toBe('playing');
    expect(player.stats.firstFrameMs).toBeGreaterThan(0);

    await vi.advanceTimersByTimeAsync(1250); // nothing arrives, the picture stands still
    expect(player.state).toBe('stalled');
    expect(errors()).toEqual([{ kind: 'stalled', message: 'No picture for 1000 ms' }]);

    await flow(500);
    expect(player.state).toBe('playing');

    await vi.advanceTimersByTimeAsync(2800); // 3 s since the last bytes
    expect(socket(0).closedByClient).toBe(true);
    expect(player.state).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(500);
    expect(FakeSocket.instances).toHaveLength(2);
    socket().open();
    expect(socket().sent).toEqual([COMMAND]);
  });
});
