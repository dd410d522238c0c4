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

/** `reorder`: the decoder holds that many frames and puts out the earliest presentation first (WebCodecs with B-frames). */
function rig(decodeMs = 5, reorder = 0) {
  let now = 0;
  const timers: Array<{ at: number; fn: () => void; id: number }> = [];
  let nextId = 1;
  const shown: Array<[number, number]> = [];
  const configs: VideoDecoderConfig[] = [];
  const decoded: string[] = [];
  let output: ((f: FakeFrame) => void) | undefined;
  const held: number[] = [];
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
      if (reorder === 0) {
        const ts = c.timestamp;
        at(now + decodeMs, () => output?.(new FakeFrame(ts)));
        return;
      }
      held.push(c.timestamp);
      held.sort((a, b) => a - b);
      if (held.length <= reorder) return;
      const ts = held.shift() as number;
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

  it('B-frames: samples in decode order, frames out in presentation order, each shown once and in order, none taken for late after the start', () => {
    const r = rig(5, 1);
    r.sink.configure(SETUP);
    // IBBP at 10 fps as a camera sends it: one picture every 100 ms in decode order, each stamped
    // with its presentation time (decode times a frame behind), keyframe every 12 pictures.
    const order: number[] = [];
    for (let g = 0; g < 6; g++) {
      const base = g * 12;
      order.push(base);
      for (let ref = base + 3; ref < base + 12; ref += 3) order.push(ref, ref - 2, ref - 1);
      order.push(base + 10, base + 11); // closed GOP: the last two pictures as P
    }
    order.forEach((frame, n) => {
      r.advance(1000 + n * 100 + 30);
      r.sink.push([{ decodeTime: (n - 1) * 9000, presentationTime: frame * 9000, duration: 9000, keyframe: frame % 12 === 0, data: Uint8Array.of(n) }], 90_000);
    });
    r.advance(30_000);
    const media = r.shown.map(([, m]) => m);
    // In presentation order, never a step back.
    for (let i = 1; i < media.length; i++) expect(media[i]).toBeGreaterThan(media[i - 1] as number);
    // Past the first second every picture is shown, once, a frame apart.
    const settled = media.filter((m) => m >= 1500);
    expect(settled).toEqual(Array.from({ length: settled.length }, (_, k) => (settled[0] ?? 0) + k * 100));
    expect(settled.length).toBeGreaterThanOrEqual(order.length - 20);
    expect(r.events.skipped.mock.calls.length).toBeLessThanOrEqual(3);
    // The allowance covers the B-frames' reorder (they come 100 ms after their time, the Ps 200 ms
    // before theirs): about 300 ms over the earliest path, measured, not taken for lateness.
    expect(r.sink.clock.allowanceMs()).toBeGreaterThanOrEqual(300);
    expect(r.sink.clock.allowanceMs()).toBeLessThanOrEqual(330);
    const lateAfterStart = r.events.presented.mock.calls.filter(([m, late]) => (m as number) >= 2500 && (late as number) > 5);
    expect(lateAfterStart).toEqual([]);
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

describe('when each picture left the encoder (FramePlayer pictureAgeMs)', () => {
  it('keeps the producer times in presentation order although B-frames arrive in decode order', async () => {
    const { notePresentation } = await import('../src/stats.ts');
    const list: Array<[number, number]> = [];
    // IBBP: I0 P300 B100 B200 P600 B400 B500, each noted as it arrives.
    [0, 300, 100, 200, 600, 400, 500].forEach((ms, n) => notePresentation(list, ms, 10_000 + n * 100));
    expect(list.map(([ms]) => ms)).toEqual([0, 100, 200, 300, 400, 500, 600]);
    // The B-frame of 100 ms left the encoder after the P of 300 ms.
    expect(list[1]).toEqual([100, 10_200]);
  });
});
