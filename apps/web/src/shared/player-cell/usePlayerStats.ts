import { useEffect, useState } from 'react';
import type { LivePlayer, PlayerStats } from '@ship-cctv/player';

/** The player's stats snapshot once a second, only while the stats overlay is open. */
export function usePlayerStats(player: LivePlayer | undefined, enabled: boolean): PlayerStats | undefined {
  const [stats, setStats] = useState<PlayerStats>();
  useEffect(() => {
    if (!player || !enabled) return;
    const read = () => setStats(player.stats);
    read();
    const timer = setInterval(read, 1000);
    return () => clearInterval(timer);
  }, [player, enabled]);
  return enabled ? stats : undefined;
}
