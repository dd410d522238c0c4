import { describe, expect, it, vi } from 'vitest';
import { withProducerTime } from '@ship-cctv/media';
import { FramePlayer } from '../src/frames/frame-player.ts';
import { FakeSocket, decoderDeps, fragment, initSegment, makeVideo, playerTestEnvironment } from './fakes.ts';

/**
 * The FramePlayer's latency figure (stats.pictureAgeMs, what the cell shows): from when the ship put
 * the picture out (its producer time) to when the <video> composites it — not to when the player
 * hands the frame to the track, a compositor step earlier.
 */

const CODEC = { type: 'codec', mime: 'video/mp4; codecs="avc1.42c01e"', width: 640, height: 360, frameRate: 10, templateId: 6 };
const SHIP_EPOCH = 1_800_000_000_000;

const env = playerTestEnvironment();

describe('FramePlayer: the age of the picture on screen', () => {
  /**
   * Frames 100 ms apart leave the ship at their media time and reach the page 40 ms later; the
   * player hands each to the track at its time from the jitter buffer, and the browser composites
   * it `compositeMs` after that (where it has requestVideoFrameCallback).
   */
  function play(withCallback: boolean, compositeMs: number) {
    vi.setSystemTime(SHIP_EPOCH);
    const { video } = makeVideo();
    const callbacks: VideoFrameRequestCallback[] = [];
    Object.defineProperty(video, 'requestVideoFrameCallback', { value: withCallback ? (cb: VideoFrameRequestCallback) => callbacks.push(cb) : undefined });
    const handed: number[] = [];
    const player = env.keep(new FramePlayer(video, { url: '/media', WebSocketImpl: FakeSocket, sinkDeps: decoderDeps(() => handed.push(Date.now())), reconnect: { minMs: 500, maxMs: 4000 } }));
    player.play({ type: 'play', mode: 'live', cameraId: 'S1001-C01-1' });
    const socket = FakeSocket.instances.at(-1)!;
    socket.open();
    socket.receive(CODEC);
    socket.receive(initSegment(1000));
    const handedAge: number[] = [];
    const shownAge: number[] = [];
    for (let i = 0; i < 30; i++) {
      const leftShip = SHIP_EPOCH + i * 100;
      vi.advanceTimersByTime(leftShip + 40 - Date.now());
      socket.receive(withProducerTime(fragment(i * 100), { trackId: 1, wallMs: leftShip, mediaTime: i * 100 }));
      for (let n = 0; n < 200 && handed.length <= i; n++) vi.advanceTimersByTime(1);
      handedAge.push(Date.now() - leftShip);
      vi.advanceTimersByTime(compositeMs);
      shownAge.push(Date.now() - leftShip);
      for (const cb of callbacks.splice(0)) cb(performance.now(), { mediaTime: i / 10 } as VideoFrameCallbackMetadata);
    }
    vi.advanceTimersByTime(1_000 - 40 - compositeMs);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    return { figure: player.stats.pictureAgeMs, handed: median(handedAge.slice(-10)), shown: median(shownAge.slice(-10)) };
  }

  it('ends where the <video> composites the frame (requestVideoFrameCallback), not where the player hands it over', () => {
    const { figure, handed, shown } = play(true, 35);
    expect(shown - handed).toBe(35);
    expect(figure).toBe(shown);
  });

  it('ends where the frame is handed over in a browser without the callback', () => {
    const { figure, handed } = play(false, 35);
    expect(figure).toBe(handed);
  });
});
