import { useEffect, useState } from 'react';
import { formatCountdown, msUntil } from '../paging.ts';

/** `m:ss` to `at` (shore's clock with `offsetMs`), ticking on its own so the grid does not re-render. */
export function Countdown({ at, offsetMs, render }: { at: number; offsetMs: number; render(time: string): string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, []);
  return (
    <span data-testid="carousel-countdown" style={{ fontVariantNumeric: 'tabular-nums' }}>
      {render(formatCountdown(msUntil(at, offsetMs, now)))}
    </span>
  );
}
