/**
 * How smooth a played camera looked, from the frames a browser presented: each presented frame's
 * wall-clock time (requestVideoFrameCallback) and the capture time read from its capture code.
 * Used by the live-video benchmark's glass-to-glass part; pure, so it is unit-tested.
 *
 * Over a window of wall-clock time, against the camera's frames in that time (one every `frameMs`):
 * - dropped: frames the camera made that never showed (a jump forward in capture time);
 * - frozen: frame slots the picture stood still beyond what dropped frames explain (a frame came
 *   late and the previous one stayed up);
 * - repeated: presentations of a frame already shown or older (the player stepped backwards);
 * - bad % = (dropped + frozen + repeated) / the camera's frames in the window.
 */

/**
 * One presented frame: [wall-clock ms at the frame callback, capture ms read from the picture, the
 * stream's frame duration then (ms; a lower definition may have fewer frames a second)].
 */
export type PresentedFrame = readonly [wallMs: number, captureMs: number, frameMs?: number];

export interface Smoothness {
  /** Frames the camera made between the window's first and last presented frame. */
  expected: number;
  presented: number;
  dropped: number;
  frozen: number;
  repeated: number;
  /** Of the repeated: steps to an older frame than the one before. */
  backward: number;
  /** (dropped + frozen + repeated) / expected × 100; NaN with fewer than two frames. */
  badPct: number;
  /** Wall − capture per presented frame, ms. */
  glass: number[];
  /** The longest time one picture stayed up, ms. */
  longestStillMs: number;
}

/** `frameMs`: the camera's frame duration where a frame does not say its own. */
export function smoothness(frames: readonly PresentedFrame[], frameMs: number, fromMs = -Infinity, toMs = Infinity): Smoothness {
  const inWindow = frames.filter(([wall]) => wall >= fromMs && wall < toMs);
  let dropped = 0;
  let frozen = 0;
  let repeated = 0;
  let backward = 0;
  let longestStillMs = 0;
  let newest: PresentedFrame | undefined;
  let previous: PresentedFrame | undefined;
  for (const frame of inWindow) {
    if (previous && newest) {
      const still = frame[0] - previous[0];
      longestStillMs = Math.max(longestStillMs, still);
      if (frame[1] <= newest[1]) {
        repeated++;
        if (frame[1] < previous[1]) backward++;
      } else {
        const step = frame[2] ?? frameMs;
        const skipped = Math.max(0, Math.round((frame[1] - newest[1]) / step) - 1);
        const stood = Math.max(0, Math.round(still / step) - 1);
        dropped += skipped;
        frozen += Math.max(0, stood - skipped);
      }
    }
    if (!newest || frame[1] > newest[1]) newest = frame;
    previous = frame;
  }
  // The camera's frames in the window: each shown frame's step to the next, in its own frame duration.
  let expected = inWindow.length > 0 ? 1 : 0;
  let last: PresentedFrame | undefined;
  for (const frame of inWindow) {
    if (last && frame[1] > last[1]) {
      expected += Math.max(1, Math.round((frame[1] - last[1]) / (frame[2] ?? frameMs)));
      last = frame;
    } else last ??= frame;
  }
  return {
    expected,
    presented: inWindow.length,
    dropped,
    frozen,
    repeated,
    backward,
    badPct: inWindow.length >= 2 && expected > 0 ? ((dropped + frozen + repeated) / expected) * 100 : NaN,
    glass: inWindow.map(([wall, capture]) => wall - capture),
    longestStillMs,
  };
}
