import { queryOptions, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BackfillDefinition, BackfillOrgSetting, BackfillOrgUpdate, BackfillPendingSpan, RecordConfig } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';

/** How often the timeline asks again which spans wait for backfill (a span is refilled in seconds to minutes). */
const PENDING_EVERY_MS = 5_000;

/** `GET /api/v1/cctv/record/backfill/pending`: spans of a camera's shore recording waiting for backfill or being copied. */
export const pendingBackfillQuery = (shipId: string, cameraId: string) =>
  queryOptions({
    queryKey: ['shorePlayback', 'backfillPending', shipId, cameraId] as const,
    queryFn: ({ signal }) => apiClient.get<BackfillPendingSpan[]>('/cctv/record/backfill/pending', { query: { shipId, cameraId }, signal }),
    refetchInterval: PENDING_EVERY_MS,
  });

/** The waiting spans of each camera on the timeline, by camera id (a camera whose question failed shows none). */
export function usePendingBackfill(cameras: readonly { shipId: string; cameraId: string }[]): Map<string, BackfillPendingSpan[]> {
  const results = useQueries({ queries: cameras.map((c) => pendingBackfillQuery(c.shipId, c.cameraId)) });
  return new Map(cameras.map((c, i) => [c.cameraId, results[i]?.data ?? []]));
}

const orgPath = (orgId: string) => `/cctv/record/backfill/org/${encodeURIComponent(orgId)}`;

/** `GET /api/v1/cctv/record/backfill/org/{orgId}`: the organisation's switch, whose it is, and whether this user may change it. */
export const backfillOrgQuery = (orgId: string) =>
  queryOptions({ queryKey: ['shorePlayback', 'backfillOrg', orgId] as const, queryFn: ({ signal }) => apiClient.get<BackfillOrgSetting>(orgPath(orgId), { signal }) });

export function useBackfillOrg(orgId: string | undefined) {
  return useQuery({ ...backfillOrgQuery(orgId ?? ''), enabled: orgId !== undefined && orgId !== '' });
}

/** `PUT /api/v1/cctv/record/backfill/org/{orgId}`: a manager turns backfill on or off, or chooses its definition; those below follow unless they have their own. */
export function useSetBackfillOrg() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orgId, ...change }: { orgId: string } & BackfillOrgUpdate) => apiClient.request<BackfillOrgSetting>('PUT', orgPath(orgId), { body: change }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['shorePlayback', 'backfillOrg'] }),
  });
}

/** `GET /api/v1/cctv/record/config/list?cameraId=`: a camera's recording configurations (each says whether backfill is on). */
export const cameraRecordConfigsQuery = (cameraId: string) =>
  queryOptions({
    queryKey: ['shorePlayback', 'recordConfigs', cameraId] as const,
    queryFn: ({ signal }) => apiClient.get<RecordConfig[]>('/cctv/record/config/list', { query: { cameraId }, signal }),
  });

export function useCameraRecordConfigs(cameraId: string | undefined) {
  return useQuery({ ...cameraRecordConfigsQuery(cameraId ?? ''), enabled: cameraId !== undefined && cameraId !== '' });
}

/** `PUT /api/v1/cctv/record/config/{id}` with `backfill` or `backfillDefinition` changed: the camera's own switch and definition (null: its organisation's). */
export function useSetCameraBackfill() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ config, backfill = config.backfill, backfillDefinition = config.backfillDefinition }: { config: RecordConfig; backfill?: boolean; backfillDefinition?: BackfillDefinition | null }) =>
      apiClient.request<RecordConfig>('PUT', `/cctv/record/config/${encodeURIComponent(config.id)}`, {
        body: { cameraId: config.cameraId, mode: config.mode, schedule: config.schedule, timeZone: config.timeZone, enabled: config.enabled, backfill, backfillDefinition },
      }),
    onSuccess: (_, { config }) => void queryClient.invalidateQueries({ queryKey: cameraRecordConfigsQuery(config.cameraId).queryKey }),
  });
}
