import type { PlayCommand } from '@ship-cctv/protocol';
import { describe, expect, it, vi } from 'vitest';
import { MsePlayer } from '../src/mse-player.ts';
import type { MsePlayerOptions, PlayerEventMap } from '../src/types.ts';
import { FakeMediaSource, FakeSocket, fragment, initSegment, makeVideo, playerTestEnvironment } from './fakes.ts';

const COMMAND: PlayCommand = { type: 'play', mode: 'live', cameraId: 'S1001-C01-1', templateId: 6 };
const AVC_360 = 'video/mp4; codecs="avc1.42c01e"';
const AVC_180 = 'video/mp4; codecs="avc1.42c00d"';
const codec = (mime: string, width = 640, height = 360) => ({ type: 'codec', mime, width, height, frameRate: 15, templateId: 6 });

const env = playerTestEnvironment();

function setup(options: Partial<MsePlayerOptions> = {}) {
  const { video, clock, play } = makeVideo();
  const player = env.keep(
    new MsePlayer(video, {
      url: '/cctvv3-server/v3/media',
      token: 'abc',
      WebSocketImpl: FakeSocket,
      MediaSourceImpl: FakeMediaSource,
      reconnect: { minMs: 500, maxMs: 4000 },
      ...options,
    }),
  );
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

// The socket, reconnects, server messages and watchdogs: live-session.test.ts, for both live players.

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
});
