import { useEffect, useState } from 'react';
import { LIMITS } from '@ship-cctv/protocol';

export type Orientation = 'portrait' | 'landscape';

/** What the window says about itself; `orientation` is the legacy window.orientation (degrees). */
export interface WindowShape {
  orientation?: number | undefined;
  width: number;
  height: number;
}

/**
 * Spec §4: from window.orientation where the browser has it (90 or -90 is landscape), otherwise
 * from the window's size (wider than tall is landscape).
 */
export function orientationOf({ orientation, width, height }: WindowShape): Orientation {
  if (typeof orientation === 'number' && Number.isFinite(orientation)) {
    return Math.abs(orientation) === 90 ? 'landscape' : 'portrait';
  }
  return width > height ? 'landscape' : 'portrait';
}

/** The window's shape now (window.orientation is legacy, typed away in lib.dom). */
export function readWindowShape(win: Window = window): WindowShape {
  const legacy = (win as { orientation?: unknown }).orientation;
  return { orientation: typeof legacy === 'number' ? legacy : undefined, width: win.innerWidth, height: win.innerHeight };
}

/** Whether the browser fires orientationchange (phones do; most desktop browsers do not). */
export function hasOrientationEvent(win: Window = window): boolean {
  return 'onorientationchange' in win;
}

/**
 * Follows the orientation: on orientationchange where the browser has the event, otherwise by
 * polling every 5 s (spec §4, §9); a resize is followed at once either way, since it is free.
 * Answers the function that stops following.
 */
export function watchOrientation(onChange: (orientation: Orientation) => void, win: Window = window): () => void {
  let last = orientationOf(readWindowShape(win));
  const check = () => {
    const next = orientationOf(readWindowShape(win));
    if (next === last) return;
    last = next;
    onChange(next);
  };
  win.addEventListener('resize', check);
  let poll: ReturnType<typeof setInterval> | undefined;
  if (hasOrientationEvent(win)) win.addEventListener('orientationchange', check);
  else poll = setInterval(check, LIMITS.orientationPollMs);
  return () => {
    win.removeEventListener('resize', check);
    win.removeEventListener('orientationchange', check);
    clearInterval(poll);
  };
}

export function useOrientation(): Orientation {
  const [orientation, setOrientation] = useState<Orientation>(() => orientationOf(readWindowShape()));
  useEffect(() => {
    // The window may have turned between the first render and this effect.
    setOrientation(orientationOf(readWindowShape()));
    return watchOrientation(setOrientation);
  }, []);
  return orientation;
}
