import { useEffect, useMemo, useRef, type PointerEvent as ReactPointerEvent } from 'react';
import { LIMITS } from '@ship-cctv/protocol';

/** A finger that wanders further than this (px) is scrolling the list, not pressing a row. */
export const LONG_PRESS_MOVE_TOLERANCE_PX = 10;

export interface PressPoint {
  /** MouseEvent.button: 0 is the primary button (and every touch or pen contact). */
  button: number;
  x: number;
  y: number;
}

/**
 * The long press of spec §5: only a press of button 0 counts, and it fires once the press has
 * lasted 500 ms. Releasing, cancelling or moving away before then fires nothing. Framework-free so
 * the rule is tested with fake timers; `useLongPress` wires it to pointer events.
 */
export class LongPressTracker {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private origin: { x: number; y: number } | undefined;

  constructor(
    private readonly onLongPress: () => void,
    private readonly delayMs: number = LIMITS.longPressMs,
  ) {}

  down(point: PressPoint): void {
    this.cancel();
    if (point.button !== 0) return;
    this.origin = { x: point.x, y: point.y };
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.origin = undefined;
      this.onLongPress();
    }, this.delayMs);
  }

  move(point: Pick<PressPoint, 'x' | 'y'>): void {
    if (!this.origin) return;
    if (Math.hypot(point.x - this.origin.x, point.y - this.origin.y) > LONG_PRESS_MOVE_TOLERANCE_PX) this.cancel();
  }

  /** Release, cancel or leave. */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.origin = undefined;
  }
}

/** How long after the finger lifts a click still belongs to the press (browsers send it at once). */
export const CLICK_AFTER_RELEASE_MS = 400;

/**
 * After a long press the finger lifts over whatever the press opened (an action sheet's mask), and
 * the browser turns the release into a click there, which would close it at once. This swallows
 * that one click, anywhere, if it comes by 400 ms after the release. Answers a function that
 * stops waiting.
 */
export function swallowClickAfterRelease(win: Window = window): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    clearTimeout(timer);
    win.removeEventListener('click', swallow, true);
    win.removeEventListener('pointerup', released, true);
    win.removeEventListener('pointercancel', released, true);
  };
  function swallow(event: Event) {
    event.preventDefault();
    event.stopPropagation();
    stop();
  }
  function released() {
    clearTimeout(timer);
    timer = setTimeout(stop, CLICK_AFTER_RELEASE_MS);
  }
  win.addEventListener('click', swallow, true);
  win.addEventListener('pointerup', released, true);
  win.addEventListener('pointercancel', released, true);
  return stop;
}

export interface LongPressHandlers {
  onPointerDown(event: ReactPointerEvent): void;
  onPointerMove(event: ReactPointerEvent): void;
  onPointerUp(): void;
  onPointerCancel(): void;
  onPointerLeave(): void;
  /** A long press on a phone also opens the browser's context menu: this one replaces it. */
  onContextMenu(event: { preventDefault(): void }): void;
}

/** Pointer handlers for an element: `onLongPress` after 500 ms of a primary press (spec §5). */
export function useLongPress(onLongPress: () => void, delayMs: number = LIMITS.longPressMs): LongPressHandlers {
  const callback = useRef(onLongPress);
  useEffect(() => {
    callback.current = onLongPress;
  }, [onLongPress]);
  const stopSwallowing = useRef<() => void>(undefined);
  const tracker = useMemo(
    () =>
      new LongPressTracker(() => {
        // The lift that ends this press is not also a tap (on the row, or on what the press opened).
        stopSwallowing.current?.();
        stopSwallowing.current = swallowClickAfterRelease();
        callback.current();
      }, delayMs),
    [delayMs],
  );
  useEffect(
    () => () => {
      tracker.cancel();
      stopSwallowing.current?.();
    },
    [tracker],
  );
  return useMemo(
    () => ({
      onPointerDown: (event) => tracker.down({ button: event.button, x: event.clientX, y: event.clientY }),
      onPointerMove: (event) => tracker.move({ x: event.clientX, y: event.clientY }),
      onPointerUp: () => tracker.cancel(),
      onPointerCancel: () => tracker.cancel(),
      onPointerLeave: () => tracker.cancel(),
      onContextMenu: (event) => event.preventDefault(),
    }),
    [tracker],
  );
}
