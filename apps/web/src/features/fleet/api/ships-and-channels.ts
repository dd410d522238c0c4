import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ShipsAndChannels } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';

/** `GET /api/v1/cctv/statistics/shipsAndChannels/{orgId}` (spec §7): counts of an organisation's subtree. */
export function getShipsAndChannels(orgId: string): Promise<ShipsAndChannels> {
  return apiClient.get<ShipsAndChannels>(`/cctv/statistics/shipsAndChannels/${encodeURIComponent(orgId)}`);
}

export const shipsAndChannelsQuery = (orgId: string) =>
  queryOptions({ queryKey: ['fleet', 'shipsAndChannels', orgId], queryFn: () => getShipsAndChannels(orgId), staleTime: 60_000 });

export function useShipsAndChannels(orgId: string | undefined) {
  return useQuery({ ...shipsAndChannelsQuery(orgId ?? ''), enabled: Boolean(orgId) });
}
