import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LinkPolicyList, LinkPolicyUpdate, PolicyLink } from '@ship-cctv/protocol';
import { apiClient } from '../../lib/api-client.ts';
import type * as Rules from './choose-definition.ts';

/** `GET /api/v1/cctv/linkPolicy/{orgId}`: the organisation's definition policy per link type. */
export function getLinkPolicies(orgId: string, signal?: AbortSignal): Promise<LinkPolicyList> {
  return apiClient.get<LinkPolicyList>(`/cctv/linkPolicy/${encodeURIComponent(orgId)}`, { signal });
}

export interface LinkPolicies {
  byLink: Partial<Record<PolicyLink, LinkPolicyUpdate>>;
  /** The rules that turn a policy into a definition and say why (choose-definition.ts). */
  rules: Pick<typeof Rules, 'chooseCellDefinition' | 'reasonFor'>;
}

export function linkPoliciesQuery(orgId: string) {
  return queryOptions({
    // The link-policy screen refreshes every query whose key holds 'linkPolicies' when it changes one
    // (features/link-policies/api): a cell already open follows a change at once.
    queryKey: ['live', 'linkPolicies', orgId] as const,
    // The rules arrive with the first answer, in a chunk of their own: the first screen's JavaScript
    // does not carry them (its budget), and the cell waits for this answer before it plays anyway.
    queryFn: async ({ signal }): Promise<LinkPolicies> => {
      const [list, rules] = await Promise.all([getLinkPolicies(orgId, signal), import('./choose-definition.ts')]);
      // Whose policy it is (custom, source, inheritedFrom) matters to the settings screen, not to a cell.
      return { byLink: Object.fromEntries(list.policies.map(({ linkType, custom: _c, source: _s, inheritedFrom: _i, ...p }) => [linkType, p])), rules };
    },
    // Every cell of an organisation shares one answer; an administrator's change shows within a minute.
    staleTime: 60_000,
  });
}

export function useLinkPolicies(orgId: string) {
  return useQuery(linkPoliciesQuery(orgId));
}
