import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '@ship-cctv/protocol';
import { CLICK_AFTER_RELEASE_MS, LongPressTracker, swallowClickAfterRelease } from './long-press.ts';

describe('long press (spec §5: 500 ms, primary button only)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires once the press has lasted 500 ms, not before', () => {
    const fired = vi.fn();
    const tracker = new LongPressTracker(fired);
    tracker.down({ button: 0, x: 10, y: 10 });
    vi.advanceTimersByTime(LIMITS.longPressMs - 1);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5000);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('counts only button 0', () => {
    const fired = vi.fn();
    const tracker = new LongPressTracker(fired);
    for (const button of [1, 2, 3, 4, -1]) {
      tracker.down({ button, x: 0, y: 0 });
      vi.advanceTimersByTime(LIMITS.longPressMs * 2);
    }
    expect(fired).not.toHaveBeenCalled();
  });

  it('fires nothing when released, cancelled or moved away before 500 ms', () => {
    const fired = vi.fn();
    const tracker = new LongPressTracker(fired);
    tracker.down({ button: 0, x: 0, y: 0 });
    vi.advanceTimersByTime(499);
    tracker.cancel();
    vi.advanceTimersByTime(1000);

    tracker.down({ button: 0, x: 0, y: 0 });
    tracker.move({ x: 30, y: 0 });
    vi.advanceTimersByTime(1000);
    expect(fired).not.toHaveBeenCalled();
  });

  it('allows the small wobble of a finger', () => {
    const fired = vi.fn();
    const tracker = new LongPressTracker(fired);
    tracker.down({ button: 0, x: 100, y: 100 });
    tracker.move({ x: 104, y: 103 });
    vi.advanceTimersByTime(LIMITS.longPressMs);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('a second button pressed during a press ends it', () => {
    const fired = vi.fn();
    const tracker = new LongPressTracker(fired);
    tracker.down({ button: 0, x: 0, y: 0 });
    vi.advanceTimersByTime(300);
    tracker.down({ button: 2, x: 0, y: 0 });
    vi.advanceTimersByTime(1000);
    expect(fired).not.toHaveBeenCalled();
  });
});

describe('the click that ends a long press', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is swallowed, and only that one', () => {
    const button = document.createElement('button');
    document.body.append(button);
    const clicked = vi.fn();
    button.addEventListener('click', clicked);
    swallowClickAfterRelease();
    window.dispatchEvent(new Event('pointerup'));
    button.click();
    expect(clicked).not.toHaveBeenCalled();
    button.click();
    expect(clicked).toHaveBeenCalledTimes(1);
    button.remove();
  });

  it('lets a later tap through when the release brought no click', () => {
    vi.useFakeTimers();
    const button = document.createElement('button');
    document.body.append(button);
    const clicked = vi.fn();
    button.addEventListener('click', clicked);
    swallowClickAfterRelease();
    window.dispatchEvent(new Event('pointerup'));
    vi.advanceTimersByTime(CLICK_AFTER_RELEASE_MS);
    button.click();
    expect(clicked).toHaveBeenCalledTimes(1);
    button.remove();
  });
});
