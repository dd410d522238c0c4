import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LinkPolicyList, LinkPolicyUpdate, PolicyLink } from '@ship-cctv/protocol';
import { apiClient } from '../../lib/api-client.ts';

/** `GET /api/v1/cctv/linkPolicy/{orgId}`: the organisation's definition policy per link type. */
export async function getLinkPolicies(orgId: string, signal?: AbortSignal): Promise<LinkPolicyList> {
  const answer = await apiClient.get<{ data: LinkPolicyList }>(`/cctv/linkPolicy/${encodeURIComponent(orgId)}`, { signal });
  return answer.data;
}

export function linkPoliciesQuery(orgId: string) {
  return queryOptions({
    queryKey: ['live', 'linkPolicies', orgId] as const,
    queryFn: ({ signal }) => getLinkPolicies(orgId, signal),
    // Every cell of an organisation shares one answer; an administrator's change shows within a minute.
    staleTime: 60_000,
    select: (list): Partial<Record<PolicyLink, LinkPolicyUpdate>> => Object.fromEntries(list.policies.map(({ linkType, custom: _custom, ...p }) => [linkType, p])),
  });
}

export function useLinkPolicies(orgId: string) {
  return useQuery(linkPoliciesQuery(orgId));
}
