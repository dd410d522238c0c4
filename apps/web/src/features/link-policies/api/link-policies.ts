import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LinkPolicyList, LinkPolicyUpdate, PolicyLink } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';

const path = (orgId: string, linkType?: PolicyLink) => `/cctv/linkPolicy/${encodeURIComponent(orgId)}${linkType ? `/${linkType}` : ''}`;

/** `GET /api/v1/cctv/linkPolicy/{orgId}`: the policy per link type, whose each is, and whether this user may change them. */
export const linkPolicyListQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['linkPolicies', orgId] as const,
    queryFn: ({ signal }) => apiClient.get<LinkPolicyList>(path(orgId), { signal }),
  });

export function useLinkPolicyList(orgId: string | undefined) {
  return useQuery({ ...linkPolicyListQuery(orgId ?? ''), enabled: orgId !== undefined && orgId !== '' });
}

/**
 * After a change: the screen shows the server's answer, and every other query of link policies is
 * asked again — those of organisations below, which may follow it, and the live cells' own
 * (`shared/cell-definition`, key `['live', 'linkPolicies', orgId]`), so a cell already open
 * changes at once. The key is matched, not imported: importing the cells' module here would split
 * it out of the first screen's chunk into a file of its own.
 */
function useApplyAnswer() {
  const queryClient = useQueryClient();
  return (list: LinkPolicyList) => {
    const own = linkPolicyListQuery(list.orgId).queryKey;
    queryClient.setQueryData(own, list);
    void queryClient.invalidateQueries({ predicate: (q) => q.queryKey.includes('linkPolicies') && !(q.queryKey[0] === own[0] && q.queryKey[1] === own[1]) });
  };
}

export interface SavePolicy {
  orgId: string;
  linkType: PolicyLink;
  update: LinkPolicyUpdate;
}

/** `PUT /api/v1/cctv/linkPolicy/{orgId}/{linkType}`: a manager changes one link type's policy. */
export function useSaveLinkPolicy() {
  const apply = useApplyAnswer();
  return useMutation({
    mutationFn: ({ orgId, linkType, update }: SavePolicy) => apiClient.request<LinkPolicyList>('PUT', path(orgId, linkType), { body: update }),
    onSuccess: apply,
  });
}

/** `DELETE /api/v1/cctv/linkPolicy/{orgId}/{linkType}`: back to the organisation above's policy, or the defaults. */
export function useRestoreLinkPolicy() {
  const apply = useApplyAnswer();
  return useMutation({
    mutationFn: ({ orgId, linkType }: Omit<SavePolicy, 'update'>) => apiClient.del<LinkPolicyList>(path(orgId, linkType)),
    onSuccess: apply,
  });
}
