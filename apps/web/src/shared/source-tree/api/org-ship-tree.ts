import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OrgShipTree } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';

/** `GET /api/v1/cctv/monitor/getOrgShipTreeUnion` (spec §7): the organisations and ships the user sees. */
export function getOrgShipTree(): Promise<OrgShipTree> {
  return apiClient.get<OrgShipTree>('/cctv/monitor/getOrgShipTreeUnion');
}

export const orgShipTreeQuery = () =>
  queryOptions({
    queryKey: ['fleet', 'orgShipTree'],
    queryFn: getOrgShipTree,
    // The fleet changes rarely; live state comes over STOMP, not from refetching the tree.
    staleTime: 5 * 60_000,
  });

export function useOrgShipTree() {
  return useQuery(orgShipTreeQuery());
}
