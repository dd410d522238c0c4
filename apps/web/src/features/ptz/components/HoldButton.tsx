import type { KeyboardEvent, PointerEvent, ReactNode } from 'react';
import type { PtzSpeeds } from '../api/ptz.ts';

export interface HoldButtonProps {
  label: string;
  speeds: PtzSpeeds;
  press(speeds: PtzSpeeds): void;
  release(): void;
  className?: string | undefined;
  children: ReactNode;
}

/**
 * A control that acts while held: pointer down presses (the pointer is captured, so the release
 * comes here even off the button), up/cancel/lost capture release; Space or Enter held does the same.
 */
export function HoldButton({ label, speeds, press, release, className, children }: HoldButtonProps) {
  const down = (e: PointerEvent<HTMLButtonElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture?.(e.pointerId);
    press(speeds);
  };
  const key = (e: KeyboardEvent<HTMLButtonElement>, pressed: boolean) => {
    if (e.key !== ' ' && e.key !== 'Enter') return;
    e.preventDefault();
    if (!pressed) release();
    else if (!e.repeat) press(speeds);
  };
  return (
    <button
      type="button"
      className={className}
      aria-label={label}
      title={label}
      onPointerDown={down}
      onPointerUp={release}
      onPointerCancel={release}
      onLostPointerCapture={release}
      onContextMenu={(e) => e.preventDefault()}
      onKeyDown={(e) => key(e, true)}
      onKeyUp={(e) => key(e, false)}
      onBlur={release}
    >
      {children}
    </button>
  );
}
