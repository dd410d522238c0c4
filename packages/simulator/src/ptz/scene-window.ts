/**
 * The synthetic PTZ camera's optics, as pure arithmetic: its picture is a window onto a scene
 * SCENE_SCALE times wider and taller than the picture. Where it looks is the window's centre in
 * scene fractions (0…1) and a zoom of 1…4 (at 1 the window is 1/SCENE_SCALE of the scene each
 * way). A move is a *motion*: from a position at a moment, at given speeds, until an auto-stop —
 * so the position at any moment is a function of time, which ffmpeg evaluates per frame.
 */
export const SCENE_SCALE = 2;
export const ZOOM_MIN = 1;
export const ZOOM_MAX = 4;
/** Scene fractions per second at full pan/tilt speed and zoom 1 (slower when zoomed in, like a real head). */
export const PAN_RATE = 0.2;
/** Zoom doubles (or halves) per this many seconds at full zoom speed. */
export const ZOOM_DOUBLING_S = 1;

export interface PtzPosition {
  x: number;
  y: number;
  zoom: number;
}

export interface PtzMotion {
  /** Epoch ms the motion starts. */
  at: number;
  from: PtzPosition;
  /** Speeds −1…1: pan > 0 right, tilt > 0 up, zoom > 0 in. */
  pan: number;
  tilt: number;
  zoomSpeed: number;
  /** Epoch ms the motion ends by itself (auto-stop); `at` for a camera standing still. */
  until: number;
}

export const HOME: PtzPosition = { x: 0.5, y: 0.5, zoom: 1 };

const clip = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** The window's width (and height) as a fraction of the scene at a zoom. */
export const windowFraction = (zoom: number) => 1 / (SCENE_SCALE * zoom);

/** A position inside the limits: zoom 1…4, the window inside the scene. */
export function clampPosition(p: PtzPosition): PtzPosition {
  const zoom = clip(p.zoom, ZOOM_MIN, ZOOM_MAX);
  const half = windowFraction(zoom) / 2;
  return { x: clip(p.x, half, 1 - half), y: clip(p.y, half, 1 - half), zoom };
}

export function still(at: number, from: PtzPosition): PtzMotion {
  return { at, from: clampPosition(from), pan: 0, tilt: 0, zoomSpeed: 0, until: at };
}

export const isMoving = (m: PtzMotion, t: number) => t < m.until && (m.pan !== 0 || m.tilt !== 0 || m.zoomSpeed !== 0);

/** Where the motion has brought the window at `t` (epoch ms): it moves from `at` to `until`, then stands. */
export function positionAt(m: PtzMotion, t: number): PtzPosition {
  const dt = (clip(t, m.at, m.until) - m.at) / 1000;
  const zoom = clip(m.from.zoom * 2 ** ((m.zoomSpeed * dt) / ZOOM_DOUBLING_S), ZOOM_MIN, ZOOM_MAX);
  const rate = PAN_RATE / m.from.zoom;
  return clampPosition({ x: m.from.x + m.pan * rate * dt, y: m.from.y - m.tilt * rate * dt, zoom });
}

/** The crop of the scene (pixels) for a picture of width × height; w and h even. */
export interface Crop {
  w: number;
  h: number;
  x: number;
  y: number;
}

const even = (v: number) => Math.max(2, Math.round(v / 2) * 2);

export function cropFor(p: PtzPosition, width: number, height: number): Crop {
  const sw = width * SCENE_SCALE;
  const sh = height * SCENE_SCALE;
  const w = Math.min(sw, even(sw * windowFraction(p.zoom)));
  const h = Math.min(sh, even(sh * windowFraction(p.zoom)));
  return { w, h, x: clip(Math.round(p.x * sw - w / 2), 0, sw - w), y: clip(Math.round(p.y * sh - h / 2), 0, sh - h) };
}

/** crop's x and y as ffmpeg expressions of the frame time `t` (epoch seconds), with the w and h they go with. */
export interface CropExpressions {
  w: number;
  h: number;
  x: string;
  y: string;
}

const num = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(4));

/**
 * The crop of a motion as ffmpeg evaluates it per frame: x and y move linearly from `at` to
 * `until` and are clipped to the scene's edges. Exact while the zoom holds still; a zooming motion
 * changes w and h, which crop takes only as commands (see SyntheticPtz's zoom ticks).
 */
export function cropExpressions(m: PtzMotion, width: number, height: number, now: number): CropExpressions {
  const zooming = m.zoomSpeed !== 0 && isMoving(m, now);
  const p = m.from;
  const start = cropFor(p, width, height);
  if (zooming || !isMoving(m, now)) {
    const c = cropFor(positionAt(m, now), width, height);
    return { w: c.w, h: c.h, x: String(c.x), y: String(c.y) };
  }
  const sw = width * SCENE_SCALE;
  const sh = height * SCENE_SCALE;
  const rate = PAN_RATE / m.from.zoom;
  const t0 = (m.at / 1000).toFixed(3);
  const t1 = (m.until / 1000).toFixed(3);
  const axis = (from: number, perSecond: number, max: number) =>
    perSecond === 0 ? String(from) : `clip(${from}+${num(perSecond)}*(clip(t,${t0},${t1})-${t0}),0,${max})`;
  return {
    w: start.w,
    h: start.h,
    x: axis(start.x, m.pan * rate * sw, sw - start.w),
    y: axis(start.y, -m.tilt * rate * sh, sh - start.h),
  };
}
