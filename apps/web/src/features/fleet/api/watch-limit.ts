import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PlaybackAutoShutdown, PlaybackAutoShutdownUpdate } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';

/** `GET /api/v1/cctv/playbackautoshutdown/findByOrgId` (spec §7): an organisation's continuous-watching limit. */
export const watchLimitQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['fleet', 'watchLimit', orgId] as const,
    queryFn: () => apiClient.get<PlaybackAutoShutdown>('/cctv/playbackautoshutdown/findByOrgId', { query: { orgID: orgId } }),
  });

export function useWatchLimit(orgId: string | undefined) {
  return useQuery({ ...watchLimitQuery(orgId ?? ''), enabled: orgId !== undefined });
}

/** `POST /api/v1/cctv/playbackautoshutdown/update`: a manager changes it. */
export function useSaveWatchLimit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: PlaybackAutoShutdownUpdate) => apiClient.post<PlaybackAutoShutdown>('/cctv/playbackautoshutdown/update', update),
    onSuccess: (saved) => queryClient.setQueryData(watchLimitQuery(saved.orgId).queryKey, saved),
  });
}
