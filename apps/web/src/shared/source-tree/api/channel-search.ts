import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChannelSearchResult } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';

/** `GET /api/v1/cctv/monitor/searchChannel/{orgId}?name=`: channels (or cameras) of the organisation by name. */
export function searchChannels(orgId: string, name: string): Promise<ChannelSearchResult> {
  return apiClient.get<ChannelSearchResult>(`/cctv/monitor/searchChannel/${encodeURIComponent(orgId)}`, { query: { name } });
}

export const channelSearchQuery = (orgId: string, name: string) =>
  queryOptions({
    queryKey: ['fleet', 'channelSearch', orgId, name],
    queryFn: () => searchChannels(orgId, name),
    // Channel names change rarely; the same text typed again in this page load is answered at once.
    staleTime: 5 * 60_000,
    enabled: name !== '',
  });

export function useChannelSearch(orgId: string, name: string) {
  return useQuery(channelSearchQuery(orgId, name));
}
