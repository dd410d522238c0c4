import { describe, expect, it, vi } from 'vitest';
import type { TrackSample, VideoDecoderSetup } from '@ship-cctv/media';
import { FrameSink, type DecoderLike, type FrameLike, type FrameSinkDeps } from '../src/frames/frame-sink.ts';

class FakeFrame implements FrameLike {
  closed = false;
  constructor(readonly timestamp: number) {}
  close(): void {
    this.closed = true;
  }
}

const SETUP: VideoDecoderSetup = { trackId: 1, timescale: 90_000, codec: 'avc1.42c01e', codedWidth: 320, codedHeight: 180, description: Uint8Array.of(1), defaults: {} };

function rig(decodeMs = 5) {
  let now = 0;
  const timers: Array<{ at: number; fn: () => void; id: number }> = [];
  let nextId = 1;
  const shown: Array<[number, number]> = [];
  const configs: VideoDecoderConfig[] = [];
  const decoded: string[] = [];
  let output: ((f: FakeFrame) => void) | undefined;
  const decoder: DecoderLike & { state: string } = {
    state: 'unconfigured',
    decodeQueueSize: 0,
    configure(c) {
      configs.push(c);
      this.state = 'configured';
    },
    decode(chunk) {
      const c = chunk as unknown as { type: string; timestamp: number };
      decoded.push(c.type);
      const ts = c.timestamp;
      at(now + decodeMs, () => output?.(new FakeFrame(ts)));
    },
    reset() {},
    close() {
      this.state = 'closed';
    },
  };
  function at(when: number, fn: () => void): number {
    const id = nextId++;
    timers.push({ at: when, fn, id });
    return id;
  }
  const deps: FrameSinkDeps<FakeFrame> = {
    createDecoder: (init) => {
      output = init.output;
      return decoder;
    },
    chunk: (init) => init as unknown as EncodedVideoChunk,
    show: (f) => shown.push([now, f.timestamp / 1000]),
    now: () => now,
    setTimer: (fn, ms) => at(now + ms, fn),
    clearTimer: (id) => {
      const i = timers.findIndex((t) => t.id === id);
      if (i >= 0) timers.splice(i, 1);
    },
  };
  const events = { presented: vi.fn(), skipped: vi.fn(), failed: vi.fn() };
  const sink = new FrameSink(deps, events, { initialAllowanceMs: 60, minSamples: 10 });
  const advance = (to: number) => {
    for (;;) {
      timers.sort((a, b) => a.at - b.at);
      const t = timers[0];
      if (!t || t.at > to) break;
      timers.shift();
      now = Math.max(now, t.at);
      t.fn();
    }
    now = to;
  };
  const sample = (i: number, keyframe = i % 10 === 0): TrackSample => ({ decodeTime: i * 9000, presentationTime: i * 9000, duration: 9000, keyframe, data: Uint8Array.of(i) });
  return { sink, events, shown, configs, decoded, advance, sample, setNow: (t: number) => (now = t) };
}

describe('the frame sink', () => {
  it('starts at a keyframe and shows each frame at its time, a frame apart', () => {
    const r = rig();
    r.sink.configure(SETUP);
    expect(r.configs[0]).toMatchObject({ codec: 'avc1.42c01e', optimizeForLatency: true });
    // Frames 7..9 before a keyframe are not decodable: skipped.
    for (let i = 7; i < 60; i++) {
      r.advance(1000 + i * 100 + 30);
      r.sink.push([r.sample(i)], 90_000);
    }
    r.advance(20_000);
    expect(r.decoded[0]).toBe('key');
    expect(r.shown.map(([, media]) => media)).toEqual(Array.from({ length: 50 }, (_, k) => (k + 10) * 100));
    const gaps = r.shown.slice(1).map(([t], i) => t - (r.shown[i]?.[0] ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(92 - 1e-6);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(108 + 1e-6);
    // Shown no more than the allowance after arrival once settled (30 ms path + 15..60 ms).
    const [lastAt, lastMedia] = r.shown.at(-1) ?? [0, 0];
    expect(lastAt - (1000 + lastMedia + 30)).toBeLessThanOrEqual(60);
    expect(r.events.skipped).not.toHaveBeenCalled();
  });

  it("a burst of a keyframe's run (stamped 1 ms apart) shows only its newest frame, then plays on", () => {
    const r = rig(1);
    r.sink.configure(SETUP);
    const burst: TrackSample[] = Array.from({ length: 5 }, (_, k) => ({ decodeTime: k * 90, presentationTime: k * 90, duration: 90, keyframe: k === 0, data: Uint8Array.of(k) }));
    r.advance(500);
    r.sink.push(burst, 90_000);
    r.advance(700);
    expect(r.shown.map(([, m]) => m)).toEqual([4]);
    expect(r.events.skipped).toHaveBeenCalledTimes(4);
  });

  it("joining a running stream: the frames since its keyframe come at once, the picture goes to the newest and stays near the live edge", () => {
    const r = rig(1);
    r.sink.configure(SETUP);
    // The relay's cached run: frames 0..9 (a second of media) arrive together at 2030.
    r.advance(2030);
    r.sink.push(Array.from({ length: 10 }, (_, i) => r.sample(i)), 90_000);
    // Then live: frame k arrives at 1030 + 100 k (30 ms after the 1000 ms + media path of frame 9).
    for (let k = 10; k < 80; k++) {
      r.advance(1030 + k * 100);
      r.sink.push([r.sample(k)], 90_000);
    }
    r.advance(20_000);
    const shownMedia = r.shown.map(([, m]) => m);
    expect(shownMedia[0]).toBe(900);
    expect(r.events.skipped).toHaveBeenCalledTimes(9);
    // Every live frame shown, in order, each within the allowance of its arrival (not a second late).
    expect(shownMedia.slice(1)).toEqual(Array.from({ length: 70 }, (_, k) => (k + 10) * 100));
    // (Frame 10 came with the burst, before the live path's lateness was known: ~100 ms.)
    for (const [at, media] of r.shown.slice(1)) expect(at - (1030 + media)).toBeLessThanOrEqual(media <= 1000 ? 101 : 61);
    // Once measured, the allowance falls to its least: 15 ms after arrival.
    expect((r.shown.at(-1)?.[0] ?? 0) - (1030 + 7900)).toBeCloseTo(15, 5);
  });

  it('a frame decoded late shows at once and the next keep their spacing from it', () => {
    const r = rig();
    r.sink.configure(SETUP);
    for (let i = 0; i < 30; i++) {
      r.advance(1000 + i * 100 + 30);
      r.sink.push([r.sample(i)], 90_000);
    }
    r.advance(1000 + 30 * 100);
    // Frame 30 comes 400 ms late, 31 and 32 right behind it.
    r.advance(1000 + 30 * 100 + 430);
    r.sink.push([r.sample(30), r.sample(31), r.sample(32)], 90_000);
    r.advance(10_000);
    const after = r.shown.filter(([, m]) => m >= 2900);
    expect(after.map(([, m]) => m)).toEqual([2900, 3000, 3100, 3200]);
    const gaps = after.slice(2).map(([t], i) => t - (after[i + 1]?.[0] ?? 0));
    for (const g of gaps) expect(g).toBeGreaterThanOrEqual(92 - 1e-6);
    expect(r.events.skipped).not.toHaveBeenCalled();
  });

  it('a new init with the same setup keeps the decoder; another codec reconfigures it', () => {
    const r = rig();
    r.sink.configure(SETUP);
    r.sink.configure(SETUP);
    expect(r.configs).toHaveLength(1);
    r.sink.configure({ ...SETUP, codec: 'avc1.640028', codedWidth: 1280 });
    expect(r.configs).toHaveLength(2);
  });
});
