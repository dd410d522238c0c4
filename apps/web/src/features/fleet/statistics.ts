import type { CameraStatusEntry, ShipStatusEntry, ShipsAndChannels } from '@ship-cctv/protocol';

export interface FleetCounts {
  shipsOnline: number;
  shipsOffline: number;
  channelsOnline: number;
  channelsOffline: number;
}

/**
 * Online/offline counts of an organisation: ships by their live link (the STOMP state the tree shows), channels as
 * those with at least one online camera (from getCameraStatus of the online ships) against the
 * organisation's visible channel count (shipsAndChannels leaves blocked channels out of it).
 */
export function countFleet(
  totals: Pick<ShipsAndChannels, 'shipCount' | 'channelCount'>,
  ships: readonly Pick<ShipStatusEntry, 'online'>[],
  cameras: readonly Pick<CameraStatusEntry, 'channelId' | 'online'>[],
): FleetCounts {
  const shipsOnline = ships.filter((ship) => ship.online).length;
  const channelsOnline = Math.min(new Set(cameras.filter((camera) => camera.online).map((camera) => camera.channelId)).size, totals.channelCount);
  return {
    shipsOnline,
    shipsOffline: Math.max(totals.shipCount - shipsOnline, 0),
    channelsOnline,
    channelsOffline: Math.max(totals.channelCount - channelsOnline, 0),
  };
}
