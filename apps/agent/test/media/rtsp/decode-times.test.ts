/**
 * Decode times for B-frame cameras (decode-times.ts), the SPS's VUI that gives their reorder depth
 * (avc.ts readSps), and the squeezed stamps of a GOP handed to a joining live viewer
 * (camera-session.ts squeezeStamps).
 */
import { describe, expect, it } from 'vitest';
import { readSps } from '../../../src/media/avc.ts';
import { squeezeStamps } from '../../../src/media/camera-session.ts';
import { DecodeTimes } from '../../../src/media/rtsp/decode-times.ts';

const F = 9000; // one frame at 10 fps on the 90 kHz clock

/** Presentation frame numbers in decode order: GOPs of `gops` × `minis` mini-GOPs of `b` B-frames each, closed. */
function decodeOrder(gops: number, minis: number, b: number, pyramid: boolean): number[] {
  const out: number[] = [];
  let at = 0;
  for (let g = 0; g < gops; g++) {
    out.push(at); // the IDR
    for (let m = 0; m < minis; m++) {
      const ref = at + b + 1;
      out.push(ref);
      const bs = Array.from({ length: b }, (_, i) => at + 1 + i);
      if (pyramid && b >= 2) {
        const mid = bs[Math.floor(b / 2)] as number;
        out.push(mid, ...bs.filter((x) => x !== mid));
      } else out.push(...bs);
      at = ref;
    }
    at += 1;
  }
  return out;
}

function run(order: number[], clock: DecodeTimes, offset = 0) {
  return order.map((frame) => {
    const pts = offset + frame * F;
    const { dts, jumped } = clock.next(pts);
    return { pts, dts, jumped };
  });
}

describe('decode times of a B-frame camera', () => {
  it('IBBP with the depth the SPS gives (1): each picture at once, decode times a frame apart, never after presentation', () => {
    const order = decodeOrder(3, 3, 2, false);
    expect(order.slice(0, 7)).toEqual([0, 3, 1, 2, 6, 4, 5]);
    const times = run(order, new DecodeTimes({ reorderDepth: 1, learn: false, frameTicks: F }));
    expect(times.map((t) => t.dts)).toEqual(order.map((_, n) => (n - 1) * F));
    expect(times.every((t) => t.dts <= t.pts && !t.jumped)).toBe(true);
    // Composition offsets: the P pictures 2 frames + the depth ahead of decode, the Bs none.
    expect(times.slice(0, 7).map((t) => (t.pts - t.dts) / F)).toEqual([1, 3, 0, 0, 3, 0, 0]);
  });

  it('a B-pyramid (depth 2) and a camera clock that does not start at 0', () => {
    const order = decodeOrder(2, 4, 3, true);
    expect(order.slice(0, 5)).toEqual([0, 4, 2, 1, 3]);
    const times = run(order, new DecodeTimes({ reorderDepth: 2, learn: false, frameTicks: F }), 123_456);
    expect(times.map((t) => t.dts - 123_456)).toEqual(order.map((_, n) => (n - 2) * F));
    expect(times.every((t) => t.dts <= t.pts)).toBe(true);
  });

  it('without B-frames the decode time is the presentation time', () => {
    const order = Array.from({ length: 30 }, (_, i) => i);
    const times = run(order, new DecodeTimes({ reorderDepth: 0, learn: true, frameTicks: F }));
    expect(times.every((t) => t.dts === t.pts && !t.jumped)).toBe(true);
  });

  it('learns a depth the SPS does not give: starts again at the pictures that show it deeper, then runs clean', () => {
    const order = decodeOrder(4, 3, 2, true);
    const clock = new DecodeTimes({ reorderDepth: 0, learn: true, frameTicks: F });
    const times = run(order, clock);
    const jumps = times.flatMap((t, n) => (t.jumped ? [n] : []));
    expect(clock.reorderDepth).toBe(2);
    expect(clock.learnt).toBe(2);
    expect(jumps.length).toBeGreaterThan(0);
    // Learnt within the first GOP (10 pictures): nothing after it starts again.
    expect(Math.max(...jumps)).toBeLessThan(10);
    const after = times.slice(10);
    for (let i = 1; i < after.length; i++) expect(after[i]?.dts).toBeGreaterThan(after[i - 1]?.dts as number);
    expect(times.every((t) => t.dts <= t.pts)).toBe(true);
  });

  it('learns a deep reorder (3 B-frames, 5 fps) whose SPS gives neither depth nor frame rate (25 fps assumed)', () => {
    const slow = 18_000; // 5 fps
    const order = decodeOrder(4, 3, 3, false);
    const clock = new DecodeTimes({ reorderDepth: 0, learn: true, frameTicks: 3_600 });
    const times = order.map((frame) => clock.next(frame * slow));
    expect(clock.reorderDepth).toBe(1);
    const jumps = times.flatMap((t, n) => (t.jumped ? [n] : []));
    expect(Math.max(...jumps)).toBeLessThan(13); // within the first GOP
    expect(times.every((t, n) => t.dts <= (order[n] as number) * slow)).toBe(true);
  });

  it('a camera clock stepping back starts the decode times again without changing a depth the SPS gave', () => {
    const clock = new DecodeTimes({ reorderDepth: 1, learn: false, frameTicks: F });
    const first = run(decodeOrder(1, 3, 2, false), clock, 900_000);
    const second = run(decodeOrder(2, 3, 2, false), clock, 0);
    expect(first.some((t) => t.jumped)).toBe(false);
    expect(second[0]?.jumped).toBe(true);
    expect(second.slice(1).some((t) => t.jumped)).toBe(false);
    expect(clock.reorderDepth).toBe(1);
    for (let i = 2; i < second.length; i++) expect(second[i]?.dts).toBeGreaterThan(second[i - 1]?.dts as number);
    expect(second.every((t) => t.dts <= t.pts)).toBe(true);
  });
});

describe('decode times across a jump ahead in the camera\'s clock', () => {
  it('start again at the jump: no picture gets the old clock\'s decode time and the new one\'s presentation time', () => {
    const clock = new DecodeTimes({ reorderDepth: 2, learn: false, frameTicks: F });
    const before = run(decodeOrder(1, 3, 3, true), clock);
    const after = run(decodeOrder(2, 3, 3, true), clock, 90_000 * 60);
    expect(before.some((t) => t.jumped)).toBe(false);
    expect(after[0]?.jumped).toBe(true);
    expect(after.slice(1).some((t) => t.jumped)).toBe(false);
    // Composition offsets stay what the reorder needs (a P-frame: 4 frames ahead + 1 of the depth's), not a minute.
    expect(Math.max(...after.map((t) => t.pts - t.dts))).toBe(Math.max(...before.map((t) => t.pts - t.dts)));
    expect(Math.max(...after.map((t) => t.pts - t.dts))).toBe(5 * F);
    for (let i = 1; i < after.length; i++) expect(after[i]?.dts).toBeGreaterThan(after[i - 1]?.dts as number);
  });
});

describe('the SPS says how deep the pictures are reordered', () => {
  it("reads x264's VUI: max_num_reorder_frames, max_dec_frame_buffering and the frame duration", () => {
    // From the test camera (GStreamer x264enc, main profile, bframes=2, 10 fps).
    const sps = readSps(Buffer.from('674d400ceca1423f2e02d418181a94000003000400000300523c50a658', 'hex'));
    expect(sps).toEqual({ profile: 77, width: 160, height: 120, reorderFrames: 2, decFrameBuffering: 4, frameSeconds: 0.1 });
    // ffmpeg's libx264, baseline, 25 fps: nothing reordered.
    const baseline = readSps(Buffer.from('6742c00bd902847e5c0440000003004000000c83c50a92', 'hex'));
    expect(baseline).toMatchObject({ profile: 66, width: 160, height: 120, reorderFrames: 0, frameSeconds: 0.04 });
  });

  it('an SPS whose VUI is cut short still gives the picture size, and no depth', () => {
    const cut = readSps(Buffer.from('674d400ceca1423f2e02d41818', 'hex'));
    expect(cut).toMatchObject({ width: 160, height: 120, reorderFrames: undefined });
  });
});

describe('the GOP a joining live viewer is handed at once', () => {
  it('without B-frames: decode times 1 ms apart, the last a frame after the one before (as before)', () => {
    const gop = [1000, 1100, 1200, 1300].map((t) => ({ timestampMs: t, compositionMs: 0 }));
    const { stamps, shift } = squeezeStamps(gop, 1000, 100);
    expect(stamps).toEqual([
      { timestampMs: 0, compositionMs: 0 },
      { timestampMs: 1, compositionMs: 0 },
      { timestampMs: 2, compositionMs: 0 },
      { timestampMs: 102, compositionMs: 0 },
    ]);
    expect(shift).toBe(300 - 102);
  });

  it('with B-frames: the presentation order stays, every presentation at or after its decode, the live pictures after it in order', () => {
    // IBBP at 10 fps, depth 1: decode times a frame apart, presentation = frame number × 100.
    const order = decodeOrder(1, 3, 2, false);
    const gop = order.map((frame, n) => ({ timestampMs: (n - 1) * 100, compositionMs: frame * 100 - (n - 1) * 100 }));
    const base = -100;
    const { stamps, shift } = squeezeStamps(gop, base, 100);
    const pts = stamps.map((s) => s.timestampMs + s.compositionMs);
    const originalPts = gop.map((p) => p.timestampMs + p.compositionMs);
    // Same presentation order.
    const rank = (list: number[]) => list.map((x) => list.filter((y) => y < x).length);
    expect(rank(pts)).toEqual(rank(originalPts));
    expect(stamps.every((s) => s.compositionMs >= 0)).toBe(true);
    for (let i = 1; i < stamps.length; i++) expect(stamps[i]?.timestampMs).toBeGreaterThan(stamps[i - 1]?.timestampMs as number);
    // Squeezed: the whole GOP within a few frames of stamps, not a second.
    expect(stamps.at(-1)?.timestampMs).toBeLessThan(2 * order.length + 100);
    // The next live picture (the next IDR, decode one frame on), stamped with the same shift, comes after all of them.
    const next = { dts: order.length - 1, pts: (Math.max(...order) + 1) * 100 };
    const nextDts = next.dts * 100 - base - shift;
    const nextPts = next.pts - base - shift;
    expect(nextDts).toBeGreaterThan(stamps.at(-1)?.timestampMs as number);
    expect(nextPts).toBeGreaterThan(Math.max(...pts));
  });
});
