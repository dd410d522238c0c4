import { useCallback, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Channel, Ship } from '@ship-cctv/protocol';
import { channelsQuery } from './api/channels.ts';
import { waitTimeQuery } from './api/wait-time.ts';
import type { ShipChannels } from './tree.ts';

export interface LoadedChannels {
  channels: Channel[];
  waitTime: number;
}

/**
 * Spec §4 "Expanding a ship": wait time (by organisation name), then channels, then their status
 * subscriptions (made by the channel rows as they mount). Channels already loaded are not loaded
 * again (the queries never go stale in a page load, and this map remembers them).
 */
export function useShipChannels() {
  const queryClient = useQueryClient();
  const [byShip, setByShip] = useState<ReadonlyMap<string, ShipChannels>>(new Map());
  const inFlight = useRef(new Map<string, Promise<LoadedChannels | undefined>>());

  const set = useCallback((shipId: string, state: ShipChannels) => {
    setByShip((prev) => new Map(prev).set(shipId, state));
  }, []);

  const load = useCallback(
    (ship: Ship): Promise<LoadedChannels | undefined> => {
      const running = inFlight.current.get(ship.id);
      if (running) return running;
      const promise = (async () => {
        set(ship.id, { status: 'loading' });
        let waitTime = 0;
        try {
          waitTime = (await queryClient.fetchQuery(waitTimeQuery(ship.orgName))).waitTime;
        } catch {
          // Spec §8: a failed wait time is swallowed; the cell then counts down from nothing.
        }
        try {
          const channels = await queryClient.fetchQuery(channelsQuery(ship.id));
          set(ship.id, { status: 'ready', channels, waitTime });
          return { channels, waitTime };
        } catch {
          set(ship.id, { status: 'error' });
          inFlight.current.delete(ship.id); // a later expand may try again
          return undefined;
        }
      })();
      inFlight.current.set(ship.id, promise);
      return promise;
    },
    [queryClient, set],
  );

  return { byShip, load };
}
