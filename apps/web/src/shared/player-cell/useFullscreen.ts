import { useCallback, useEffect, useState, type RefObject } from 'react';

/** Fullscreen of one element (Fullscreen API), following exits by Esc or the browser. */
export function useFullscreen(ref: RefObject<HTMLElement | null>): { active: boolean; toggle(): void } {
  const [active, setActive] = useState(false);
  useEffect(() => {
    const onChange = () => setActive(document.fullscreenElement !== null && document.fullscreenElement === ref.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, [ref]);
  const toggle = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    // A refusal (no user gesture, iframe without permission) leaves the cell as it was.
    if (document.fullscreenElement === el) void document.exitFullscreen().catch(() => undefined);
    else void el.requestFullscreen?.().catch(() => undefined);
  }, [ref]);
  return { active, toggle };
}
