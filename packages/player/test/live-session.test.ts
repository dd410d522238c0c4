import type { PlayCommand } from '@ship-cctv/protocol';
import { describe, expect, it, vi } from 'vitest';
import { FramePlayer } from '../src/frames/frame-player.ts';
import { MsePlayer } from '../src/mse-player.ts';
import type { LivePlayer, MsePlayerEventMap, MsePlayerOptions } from '../src/types.ts';
import { FakeMediaSource, FakeSocket, decoderDeps, fragment, initSegment, makeVideo, playerTestEnvironment } from './fakes.ts';

/**
 * The session both live players drive (live-session.ts): the same socket, reconnects, server
 * messages and watchdogs whether the frames go through MSE (MsePlayer) or are decoded and painted
 * by the page (FramePlayer).
 */

const COMMAND: PlayCommand = { type: 'play', mode: 'live', cameraId: 'S1001-C01-1', templateId: 6 };
/** The play as a socket sends it: the command and what the browser decodes (these fakes: H.264). */
const PLAY = { ...COMMAND, decoders: ['avc1'] };
const CODEC = { type: 'codec', mime: 'video/mp4; codecs="avc1.42c01e"', width: 640, height: 360, frameRate: 4, templateId: 6 };

type Make = (video: HTMLVideoElement, options: MsePlayerOptions) => LivePlayer;
const PLAYERS: Array<[string, Make]> = [
  ['MsePlayer', (video, options) => new MsePlayer(video, { ...options, MediaSourceImpl: FakeMediaSource })],
  ['FramePlayer', (video, options) => new FramePlayer(video, { ...options, sinkDeps: decoderDeps() })],
];

const env = playerTestEnvironment();

describe.each(PLAYERS)('%s drives the live session', (_name, make) => {
  function setup(options: Partial<MsePlayerOptions> = {}) {
    const { video, clock } = makeVideo();
    const player = env.keep(make(video, { url: '/cctvv3-server/v3/media', token: 'abc', WebSocketImpl: FakeSocket, reconnect: { minMs: 500, maxMs: 4000 }, ...options }));
    const events: Array<{ type: keyof MsePlayerEventMap; payload: unknown }> = [];
    for (const type of ['state', 'error', 'status', 'notice', 'codec', 'reconnect', 'firstFrame', 'continued'] as const) {
      player.on(type, (payload) => events.push({ type, payload }));
    }
    const of = (type: keyof MsePlayerEventMap) => events.filter((e) => e.type === type).map((e) => e.payload);
    const socket = (i = -1) => {
      const s = FakeSocket.instances.at(i);
      if (!s) throw new Error(`no socket ${i}`);
      return s;
    };
    /** The stream's codec and init segment, then `ms` of fragments, one every 250 ms, the <video> clock following. */
    let t = 0;
    const flow = async (ms: number) => {
      if (t === 0) {
        socket().receive(CODEC);
        socket().receive(initSegment(1000));
        const source = FakeMediaSource.instances.at(-1);
        if (source && source.readyState !== 'open') {
          source.open();
          source.sourceBuffer!.secondsPerAppend = 0.25;
        }
      }
      for (let i = 0; i < ms / 250; i++) {
        socket().receive(fragment(t));
        t += 250;
        await vi.advanceTimersByTimeAsync(250);
        clock.time += 0.25;
      }
    };
    return { player, socket, of, flow };
  }

  it('opens the media socket with the token, sends the command, and follows the server from starting to playing', async () => {
    const { player, socket, of, flow } = setup();
    player.play(COMMAND);
    const url = new URL(socket().url);
    expect(url.protocol).toBe('ws:');
    expect(url.pathname).toBe('/cctvv3-server/v3/media');
    expect(url.searchParams.get('token')).toBe('abc');
    expect(socket().binaryType).toBe('arraybuffer');
    expect(player.state).toBe('connecting');
    socket().open();
    expect(socket().sent).toEqual([PLAY]);
    expect(player.state).toBe('starting');
    socket().receive({ type: 'status', state: 'starting', waitSeconds: 20 });
    // The server relays, but playing waits for a frame on screen.
    socket().receive({ type: 'status', state: 'playing' });
    expect(player.state).toBe('starting');
    await flow(1000);
    expect(player.state).toBe('playing');
    expect(of('firstFrame')).toHaveLength(1);
    expect(of('codec')).toEqual([CODEC]);
    expect(of('status')).toEqual([
      { type: 'status', state: 'starting', waitSeconds: 20 },
      { type: 'status', state: 'playing' },
    ]);
    expect(player.stats.bytesReceived).toBeGreaterThan(0);
  });

  it('leaves the token out when none is given (the cookie goes with the upgrade)', () => {
    const { player, socket } = setup({ token: undefined, url: 'wss://shore.example/cctvv3-server/v3/media' });
    player.play(COMMAND);
    expect(socket().url).toBe('wss://shore.example/cctvv3-server/v3/media');
  });

  it('reconnects with exponential backoff after the socket closes and re-sends the same play command', async () => {
    const { player, socket, of } = setup();
    player.play(COMMAND);
    socket().open();
    socket().serverClose();
    expect(player.state).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(499);
    expect(FakeSocket.instances).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.instances).toHaveLength(2);
    socket().open();
    expect(socket().sent).toEqual([PLAY]);
    // No frame came, so the next attempt waits longer.
    socket().serverClose();
    await vi.advanceTimersByTimeAsync(999);
    expect(FakeSocket.instances).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.instances).toHaveLength(3);
    expect(of('reconnect')).toEqual([
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

  it('reports a permanent server error with its code and does not retry; a camera offline is a state of its own', async () => {
    const { player, socket, of } = setup();
    player.play(COMMAND);
    socket().open();
    socket().receive({ type: 'error', code: 'forbidden', message: 'not your ship' });
    socket().serverClose();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(of('error')).toEqual([{ kind: 'server', code: 'forbidden', message: 'not your ship' }]);
    expect(player.state).toBe('error');
    expect(FakeSocket.instances).toHaveLength(1);
    player.play(COMMAND);
    socket().open();
    socket().receive({ type: 'error', code: 'cameraOffline', message: 'no camera' });
    expect(player.state).toBe('offline');
    expect(of('error').at(-1)).toEqual({ kind: 'offline', code: 'cameraOffline', message: 'no camera' });
  });

  it('passes notices and limit countdowns on as events; continueWatching() sends continue, or opens a new socket once the server closed it', async () => {
    const { player, socket, of } = setup();
    player.play(COMMAND);
    socket().open();
    socket().receive({ type: 'notice', code: 'lowestDefinition', templateId: 1 });
    socket().receive({ type: 'status', state: 'limit', countdownSeconds: 30 });
    expect(player.state).toBe('starting');
    player.continueWatching();
    expect(socket().sent.at(-1)).toEqual({ type: 'continue' });
    expect(of('continued')).toHaveLength(1);
    socket().receive({ type: 'status', state: 'limit', countdownSeconds: 0 });
    expect(player.state).toBe('limit');
    expect([...of('notice'), ...of('status')]).toEqual([
      { type: 'notice', code: 'lowestDefinition', templateId: 1 },
      { type: 'status', state: 'limit', countdownSeconds: 30 },
      { type: 'status', state: 'limit', countdownSeconds: 0 },
    ]);
    // Stopped by the limit: the server closes, and nothing reconnects by itself.
    socket().serverClose();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(FakeSocket.instances).toHaveLength(1);
    player.continueWatching();
    expect(of('continued')).toHaveLength(2);
    expect(FakeSocket.instances).toHaveLength(2);
    socket().open();
    expect(socket().sent).toEqual([PLAY]);
  });

  it('reports startup when no frame comes within the bound plus the server wait', async () => {
    const { player, socket, of } = setup({ startupTimeoutMs: 2000 });
    player.play(COMMAND);
    socket().open();
    socket().receive({ type: 'status', state: 'starting', waitSeconds: 3 });
    await vi.advanceTimersByTimeAsync(4750);
    expect(of('error')).toEqual([]);
    await vi.advanceTimersByTimeAsync(500);
    await vi.advanceTimersByTimeAsync(5000);
    expect(of('error')).toEqual([{ kind: 'startup', message: 'No picture within 5000 ms' }]);
  });

  it('goes stalled when bytes stop, recovers when they flow again, and reconnects after a long silence', async () => {
    const { player, socket, of, flow } = setup({ stallTimeoutMs: 1000, silenceReconnectMs: 3000 });
    player.play(COMMAND);
    socket().open();
    await flow(1000);
    expect(player.state).toBe('playing');
    expect(player.stats.firstFrameMs).toBeGreaterThan(0);

    await vi.advanceTimersByTimeAsync(1250); // nothing arrives, the picture stands still
    expect(player.state).toBe('stalled');
    expect(of('error')).toEqual([{ kind: 'stalled', message: 'No picture for 1000 ms' }]);

    await flow(500);
    expect(player.state).toBe('playing');

    await vi.advanceTimersByTimeAsync(2800); // 3 s since the last bytes
    expect(socket(0).closedByClient).toBe(true);
    expect(player.state).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(500);
    expect(FakeSocket.instances).toHaveLength(2);
    socket().open();
    expect(socket().sent).toEqual([PLAY]);
  });

  it('does not reconnect for a silence the server explained (stalled at the source)', async () => {
    const { player, socket, flow } = setup({ stallTimeoutMs: 1000, silenceReconnectMs: 3000 });
    player.play(COMMAND);
    socket().open();
    await flow(1000);
    socket().receive({ type: 'status', state: 'stalled', reason: 'upstream' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(player.state).toBe('stalled');
    expect(FakeSocket.instances).toHaveLength(1);
  });
});

describe('MsePlayer whose element stands still while media comes', () => {
  it('starts afresh after twice the stall timeout: a new socket and a new MediaSource, then plays', async () => {
    const { video, clock } = makeVideo();
    // What Chromium did on a cold start: a seek that never completed, the clock standing still.
    let seekHangs = false;
    Object.defineProperty(video, 'seeking', { get: () => seekHangs });
    const player = env.keep(new MsePlayer(video, { url: '/m', WebSocketImpl: FakeSocket, MediaSourceImpl: FakeMediaSource, reconnect: { minMs: 500, maxMs: 4000 }, stallTimeoutMs: 1000, silenceReconnectMs: 3000 }));
    const socket = () => FakeSocket.instances.at(-1)!;
    const start = () => {
      socket().open();
      socket().receive(CODEC);
      socket().receive(initSegment(1000));
      const source = FakeMediaSource.instances.at(-1)!;
      source.open();
      source.sourceBuffer!.secondsPerAppend = 0.25;
    };
    let t = 0;
    /** Fragments every 250 ms for `ms`; the element's clock follows unless it is `stuck`. */
    const flow = async (ms: number, stuck = false) => {
      for (let i = 0; i < ms / 250; i++) {
        socket().receive(fragment(t));
        t += 250;
        await vi.advanceTimersByTimeAsync(250);
        if (!stuck) clock.time += 0.25;
      }
    };
    player.play(COMMAND);
    start();
    await flow(1000);
    expect(player.state).toBe('playing');

    // Media keeps coming; the picture stands still: stalled first, the same socket and MediaSource.
    seekHangs = true;
    await flow(1500, true);
    expect(player.state).toBe('stalled');
    expect(FakeSocket.instances).toHaveLength(1);
    expect(FakeMediaSource.instances).toHaveLength(1);
    // Twice the stall timeout: the socket goes and the element is emptied.
    await flow(750, true);
    expect(FakeSocket.instances[0]?.closedByClient).toBe(true);
    expect(player.state).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(500);
    expect(FakeSocket.instances).toHaveLength(2);
    seekHangs = false;
    start();
    expect(FakeMediaSource.instances).toHaveLength(2);
    await flow(1000);
    expect(player.state).toBe('playing');
  });
});
