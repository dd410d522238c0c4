import { queryOptions, useQueries } from '@tanstack/react-query';
import type { CameraStatusEntry } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';

/** `GET /api/v1/cctv-server/session/getCameraStatus/{shipId}` (spec §7): online/recording per camera. */
export function getCameraStatus(shipId: string): Promise<CameraStatusEntry[]> {
  return apiClient.get<CameraStatusEntry[]>(`/cctv-server/session/getCameraStatus/${encodeURIComponent(shipId)}`);
}

export const cameraStatusQuery = (shipId: string, refetchMs: number) =>
  queryOptions({ queryKey: ['fleet', 'cameraStatus', shipId], queryFn: () => getCameraStatus(shipId), refetchInterval: refetchMs });

/** Camera status of several ships at once (the statistics panel: online ships only). */
export function useCameraStatuses(shipIds: readonly string[], refetchMs = 15_000) {
  return useQueries({ queries: shipIds.map((id) => cameraStatusQuery(id, refetchMs)) });
}
