import { queryOptions } from '@tanstack/react-query';
import type { Channel } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';

/** `GET /api/v1/cctv/monitor/getChannel/{shipId}` (spec §7): a ship's channels with their cameras. */
export function getChannels(shipId: string): Promise<Channel[]> {
  return apiClient.get<Channel[]>(`/cctv/monitor/getChannel/${encodeURIComponent(shipId)}`);
}

/** Spec §4: channels already loaded are not loaded again, hence never stale in this page load. */
export const channelsQuery = (shipId: string) =>
  queryOptions({ queryKey: ['fleet', 'channels', shipId], queryFn: () => getChannels(shipId), staleTime: Infinity });
