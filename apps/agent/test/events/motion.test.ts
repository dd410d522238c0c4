import { describe, expect, it } from 'vitest';
import { MotionDetector, motionThresholds } from '../../src/events/analyser/motion.ts';
import { insidePolygon } from '../../src/events/analyser/regions.ts';
import { flat, paste } from './pictures.ts';

const W = 640;
const H = 360;
const bg = flat(W, H, [27, 58, 87]);
const block = flat(40, 80, [230, 160, 60]);
/** The background with a block at (x, y). */
const at = (x: number, y: number) => paste(bg, block, x, y);
const settings = (over: Partial<{ sensitivity: number; zones: { name: string; polygon: [number, number][] }[]; masks: [number, number][][] }> = {}) => ({
  sensitivity: 50,
  zones: [],
  masks: [],
  ...over,
});

function run(m: MotionDetector, frames: ReturnType<typeof at>[]) {
  return frames.map((f) => m.update(f.rgb, f.width, f.height));
}

describe('motion by frame difference', () => {
  it('sees a block that moves, where it moves, and nothing in a still picture', () => {
    const m = new MotionDetector(settings());
    const [first, still, moved] = run(m, [at(100, 100), at(100, 100), at(300, 200)]);
    expect(first?.moving).toBe(false);
    expect(still).toEqual({ moving: false, cells: 0 });
    expect(moved?.moving).toBe(true);
    // The box spans both places (where the block left and where it came).
    expect(moved?.box?.x).toBeCloseTo(100 / W, 1);
    expect((moved?.box?.x ?? 0) + (moved?.box?.w ?? 0)).toBeCloseTo(340 / W, 1);
    expect(moved?.box?.y).toBeCloseTo(100 / H, 1);
  });

  it('ignores motion under a mask', () => {
    const mask: [number, number][] = [[0.4, 0.4], [0.8, 0.4], [0.8, 0.9], [0.4, 0.9]];
    const m = new MotionDetector(settings({ masks: [mask] }));
    const [, inMask, outside] = run(m, [at(300, 200), at(320, 210), at(40, 20)]);
    expect(inMask?.moving).toBe(false);
    expect(outside?.moving).toBe(true);
  });

  it('counts only motion inside a zone, and names the zone', () => {
    const deck: [number, number][] = [[0, 0.5], [0.5, 0.5], [0.5, 1], [0, 1]];
    const gangway: [number, number][] = [[0.6, 0], [1, 0], [1, 0.4], [0.6, 0.4]];
    const m = new MotionDetector(settings({ zones: [{ name: 'deck', polygon: deck }, { name: 'gangway', polygon: gangway }] }));
    const r = run(m, [at(40, 220), at(120, 230), at(120, 20), at(200, 20), at(450, 20), at(520, 40)]);
    expect(r[1]).toMatchObject({ moving: true, zone: 'deck' });
    // Top left is in no zone: nothing counts there.
    expect(r[3]?.moving).toBe(false);
    expect(r[5]).toMatchObject({ moving: true, zone: 'gangway' });
  });

  it('takes a small, faint change only at a high sensitivity', () => {
    const faint = paste(bg, flat(12, 12, [45, 76, 105]), 300, 150);
    const low = new MotionDetector(settings({ sensitivity: 10 }));
    const high = new MotionDetector(settings({ sensitivity: 95 }));
    expect(run(low, [bg, faint])[1]?.moving).toBe(false);
    expect(run(high, [bg, faint])[1]?.moving).toBe(true);
    expect(motionThresholds(1).pixel).toBeGreaterThan(motionThresholds(100).pixel);
  });

  it('does not take a change of light over the whole picture for motion', () => {
    const m = new MotionDetector(settings());
    expect(run(m, [bg, flat(W, H, [90, 120, 150])])[1]?.moving).toBe(false);
  });

  it('places points in polygons', () => {
    const tri: [number, number][] = [[0, 0], [1, 0], [0, 1]];
    expect(insidePolygon(0.2, 0.2, tri)).toBe(true);
    expect(insidePolygon(0.8, 0.8, tri)).toBe(false);
  });
});
