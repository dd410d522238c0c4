import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '@ship-cctv/protocol';
import { orientationOf, watchOrientation } from './orientation.ts';

describe('orientation (spec §4)', () => {
  it('takes window.orientation 90 or -90 as landscape, whatever the size', () => {
    expect(orientationOf({ orientation: 90, width: 390, height: 844 })).toBe('landscape');
    expect(orientationOf({ orientation: -90, width: 390, height: 844 })).toBe('landscape');
  });

  it('takes window.orientation 0 or 180 as portrait, whatever the size', () => {
    expect(orientationOf({ orientation: 0, width: 844, height: 390 })).toBe('portrait');
    expect(orientationOf({ orientation: 180, width: 844, height: 390 })).toBe('portrait');
  });

  it('falls back to the window size without window.orientation', () => {
    expect(orientationOf({ width: 844, height: 390 })).toBe('landscape');
    expect(orientationOf({ width: 390, height: 844 })).toBe('portrait');
    expect(orientationOf({ width: 500, height: 500 })).toBe('portrait');
  });
});

/** A window whose size and orientation event support the test sets. */
function fakeWindow(shape: { width: number; height: number; orientation?: number }, withEvent: boolean) {
  const target = new EventTarget() as EventTarget & Record<string, unknown>;
  Object.defineProperty(target, 'innerWidth', { get: () => shape.width });
  Object.defineProperty(target, 'innerHeight', { get: () => shape.height });
  Object.defineProperty(target, 'orientation', { get: () => shape.orientation });
  if (withEvent) target.onorientationchange = null;
  return target as unknown as Window;
}

describe('following the orientation', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('polls every 5 s where the orientation event is missing', () => {
    vi.useFakeTimers();
    const shape = { width: 390, height: 844 };
    const seen: string[] = [];
    const stop = watchOrientation((o) => seen.push(o), fakeWindow(shape, false));
    shape.width = 844;
    shape.height = 390;
    vi.advanceTimersByTime(LIMITS.orientationPollMs - 1);
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual(['landscape']);
    // No change, no news.
    vi.advanceTimersByTime(LIMITS.orientationPollMs * 3);
    expect(seen).toEqual(['landscape']);
    stop();
    shape.width = 390;
    shape.height = 844;
    vi.advanceTimersByTime(LIMITS.orientationPollMs * 2);
    expect(seen).toEqual(['landscape']);
  });

  it('follows orientationchange where the browser has it, and does not poll', () => {
    vi.useFakeTimers();
    const shape = { width: 390, height: 844, orientation: 0 };
    const win = fakeWindow(shape, true);
    const seen: string[] = [];
    const stop = watchOrientation((o) => seen.push(o), win);
    shape.orientation = 90;
    vi.advanceTimersByTime(LIMITS.orientationPollMs * 2);
    expect(seen).toEqual([]);
    win.dispatchEvent(new Event('orientationchange'));
    expect(seen).toEqual(['landscape']);
    stop();
  });

  it('follows a resize at once either way', () => {
    const shape = { width: 390, height: 844 };
    const win = fakeWindow(shape, false);
    const seen: string[] = [];
    const stop = watchOrientation((o) => seen.push(o), win);
    shape.width = 844;
    shape.height = 390;
    win.dispatchEvent(new Event('resize'));
    expect(seen).toEqual(['landscape']);
    stop();
  });
});
