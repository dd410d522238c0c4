import { describe, expect, it } from 'vitest';
import { HOME, PAN_RATE, SCENE_SCALE, ZOOM_MAX, clampPosition, cropExpressions, cropFor, isMoving, positionAt, still, windowFraction } from '../../src/ptz/scene-window.ts';

/** Evaluates a crop expression the way ffmpeg would for a frame at `t` seconds (clip and its argument only). */
function evaluate(expr: string, t: number): number {
  const clip = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
  return Function('clip', 'min', 't', `return ${expr};`)(clip, Math.min, t) as number;
}

describe('the synthetic PTZ window', () => {
  it('at home looks at the middle of the scene, a picture-sized crop of a scene twice as big', () => {
    expect(cropFor(HOME, 640, 360)).toEqual({ w: 640, h: 360, x: 320, y: 180 });
    expect(windowFraction(1)).toBe(1 / SCENE_SCALE);
  });

  it('zoom narrows the crop (4× = a quarter of the picture) and keeps its centre', () => {
    const c = cropFor({ x: 0.5, y: 0.5, zoom: ZOOM_MAX }, 640, 360);
    expect(c).toEqual({ w: 160, h: 90, x: 560, y: 315 });
    expect(c.x + c.w / 2).toBe(640);
  });

  it('stops at the scene edges and at the zoom limits', () => {
    expect(clampPosition({ x: -1, y: 2, zoom: 9 })).toEqual({ x: windowFraction(4) / 2, y: 1 - windowFraction(4) / 2, zoom: 4 });
    expect(clampPosition({ x: 0.5, y: 0.5, zoom: 0.2 }).zoom).toBe(1);
    expect(cropFor({ x: 0, y: 1, zoom: 1 }, 640, 360)).toEqual({ w: 640, h: 360, x: 0, y: 360 });
  });

  it('moves at its speed while held, stands still after the auto-stop', () => {
    const m = { at: 10_000, from: HOME, pan: 1, tilt: 0.5, zoomSpeed: 0, until: 11_000 };
    expect(positionAt(m, 10_500)).toEqual({ x: 0.5 + PAN_RATE * 0.5, y: 0.5 - PAN_RATE * 0.25, zoom: 1 });
    expect(positionAt(m, 11_000)).toEqual(positionAt(m, 60_000));
    expect(isMoving(m, 10_999)).toBe(true);
    expect(isMoving(m, 11_000)).toBe(false);
    // Full speed for long: the window reaches the right edge and stays there.
    const long = { ...m, until: 100_000 };
    expect(positionAt(long, 99_000).x).toBe(0.75);
  });

  it('zooms in by doubling per second at full speed, within 1…4', () => {
    const m = { at: 0, from: HOME, pan: 0, tilt: 0, zoomSpeed: 1, until: 5_000 };
    expect(positionAt(m, 1_000).zoom).toBeCloseTo(2);
    expect(positionAt(m, 5_000).zoom).toBe(4);
    expect(positionAt({ ...m, zoomSpeed: -1 }, 1_000).zoom).toBe(1);
  });

  it('gives ffmpeg x and y as expressions of the frame time that agree with positionAt', () => {
    const m = { at: 1_700_000_000_000, from: HOME, pan: -0.5, tilt: 1, zoomSpeed: 0, until: 1_700_000_002_000 };
    const e = cropExpressions(m, 640, 360, m.at);
    for (const dt of [-0.5, 0, 0.7, 1.9, 5]) {
      const t = m.at + dt * 1000;
      const c = cropFor(positionAt(m, t), 640, 360);
      expect(evaluate(e.x, t / 1000)).toBeCloseTo(c.x, 0);
      expect(evaluate(e.y, t / 1000)).toBeCloseTo(c.y, 0);
    }
    expect(e).toMatchObject({ w: 640, h: 360 });
  });

  it('a still window is plain numbers', () => {
    const e = cropExpressions(still(5, { x: 0.3, y: 0.6, zoom: 2 }), 640, 360, 1_000);
    expect(e).toEqual({ w: 320, h: 180, x: String(Math.round(0.3 * 1280 - 160)), y: String(Math.round(0.6 * 720 - 90)) });
  });
});
