import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ShipStatusEntry } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';

/** `POST /api/v1/cctv-server/getShipStatus` (spec §7): link status of the listed ships. */
export function getShipStatus(shipIds: readonly string[]): Promise<ShipStatusEntry[]> {
  return apiClient.post<ShipStatusEntry[]>('/cctv-server/getShipStatus', { shipIds });
}

/** Polled only while the statistics panel is open; the tree itself follows STOMP. */
export const shipStatusQuery = (shipIds: readonly string[], refetchMs: number) =>
  queryOptions({
    queryKey: ['fleet', 'shipStatus', [...shipIds].sort()],
    queryFn: () => getShipStatus(shipIds),
    refetchInterval: refetchMs,
    enabled: shipIds.length > 0,
  });

export function useShipStatuses(shipIds: readonly string[], refetchMs = 15_000) {
  return useQuery(shipStatusQuery(shipIds, refetchMs));
}
