import { useEffect, useState } from 'react';

/**
 * performance.now() as of the last tick, refreshed every `intervalMs` while `active`: countdowns
 * re-render only while something on screen counts, not for the cell's whole life. Events arriving
 * between ticks carry their own time, so a view compared with a slightly old `now` still counts.
 */
export function useNow(active: boolean, intervalMs = 500): number {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (!active) return;
    const tick = () => setNow(performance.now());
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, intervalMs);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [active, intervalMs]);
  return now;
}
