import { queryOptions, useQueries } from '@tanstack/react-query';
import type { LinkBytesStatistics } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';

/** `GET /api/v1/cctv/statistics/linkBytes/{orgId}?ships=`: bytes each ship's link carried, and its rate now. */
export function getLinkBytes(orgId: string, shipIds: readonly string[]): Promise<LinkBytesStatistics> {
  return apiClient.get<LinkBytesStatistics>(`/cctv/statistics/linkBytes/${encodeURIComponent(orgId)}`, { query: { ships: shipIds.join(',') } });
}

/** How often the open statistics panel asks again. */
export const LINK_BYTES_REFRESH_MS = 3_000;

export const linkBytesQuery = (orgId: string, shipIds: readonly string[], refetchMs = LINK_BYTES_REFRESH_MS) => {
  const ships = [...new Set(shipIds)].sort();
  return queryOptions({
    queryKey: ['fleet', 'linkBytes', orgId, ships],
    queryFn: () => getLinkBytes(orgId, ships),
    refetchInterval: refetchMs,
    enabled: orgId !== '' && ships.length > 0,
  });
};

/**
 * The figures of the given ships, asked per organisation. Polled only while a component using it
 * is mounted (the statistics panel, when open): a closed panel costs no requests.
 */
export function useLinkBytes(shipIdsByOrg: ReadonlyMap<string, readonly string[]>) {
  return useQueries({ queries: [...shipIdsByOrg].map(([orgId, shipIds]) => linkBytesQuery(orgId, shipIds)) });
}
