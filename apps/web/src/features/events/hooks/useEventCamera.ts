import { useCallback, useMemo } from 'react';
import type { Camera, Channel, Ship } from '@ship-cctv/protocol';
import { flattenOrgs, useOrgShipTree, useShipChannels } from '../../../shared/source-tree/index.ts';

/** The ship, channel and camera an event was seen by, as the source tree knows them. */
export interface EventCamera {
  ship: Ship;
  channel: Channel;
  camera: Camera;
  waitTime: number;
}

/** Every ship the user sees, by id (from the organisation tree the source tree already loaded). */
export function useShipsById(): ReadonlyMap<string, Ship> {
  const tree = useOrgShipTree();
  return useMemo(() => {
    const ships = new Map<string, Ship>();
    for (const org of flattenOrgs(tree.data?.orgShipTreeNodes ?? [])) for (const ship of org.node.shipList) ships.set(ship.id, ship);
    return ships;
  }, [tree.data]);
}

/**
 * Finds the camera of an event among its ship's channels (loaded as the tree loads them, once a
 * page load): what ship playback needs to open. Undefined when the ship or camera is not known.
 */
export function useFindEventCamera(): (event: { shipId: string; cameraId: string }) => Promise<EventCamera | undefined> {
  const ships = useShipsById();
  const { load } = useShipChannels();
  return useCallback(
    async ({ shipId, cameraId }) => {
      const ship = ships.get(shipId);
      if (!ship) return undefined;
      const loaded = await load(ship);
      for (const channel of loaded?.channels ?? []) {
        const camera = channel.cameras.find((c) => c.id === cameraId);
        if (camera) return { ship, channel, camera, waitTime: loaded?.waitTime ?? 0 };
      }
      return undefined;
    },
    [ships, load],
  );
}

