import { queryOptions } from '@tanstack/react-query';
import type { WaitTime } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';

/** `GET /api/v1/cctv/ship/waitTime?orgName=` (spec §7: fetched by organisation name, answers data.waitTime). */
export function getWaitTime(orgName: string): Promise<WaitTime> {
  return apiClient.get<WaitTime>('/cctv/ship/waitTime', { query: { orgName } });
}

export const waitTimeQuery = (orgName: string) =>
  queryOptions({ queryKey: ['fleet', 'waitTime', orgName], queryFn: () => getWaitTime(orgName), staleTime: Infinity });
