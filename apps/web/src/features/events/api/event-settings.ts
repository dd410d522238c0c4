import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LIMITS, type CameraEventSettings, type CameraEventSettingsAnswer, type OrgEventSettings, type PicturePage, type SnapshotAnswer } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';
import { EVENTS_KEY, listEvents } from './events.ts';

export type { CameraAnalysisStatus } from '@ship-cctv/protocol';
export type CameraSettingsAnswer = CameraEventSettingsAnswer;
/** Which new events make a toast for an organisation's users (classes; hours, both absent: all day). */
export type OrgNotifyRules = OrgEventSettings;

const cameraPath = (cameraId: string) => `/cctv/events/settings/camera/${encodeURIComponent(cameraId)}`;
const orgPath = (orgId: string) => `/cctv/events/settings/org/${encodeURIComponent(orgId)}`;

/** `GET /api/v1/cctv/events/settings/camera/{cameraId}`: its settings (the defaults when never set) and status. */
export function useCameraEventSettings(cameraId: string | undefined) {
  return useQuery({
    queryKey: [EVENTS_KEY, 'settings', 'camera', cameraId],
    queryFn: ({ signal }) => apiClient.get<CameraSettingsAnswer>(cameraPath(cameraId ?? ''), { signal }),
    enabled: !!cameraId,
  });
}

/** `PUT /api/v1/cctv/events/settings/camera/{cameraId}`: shore keeps them and sends them to the ship. */
export function useSaveCameraEventSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ cameraId, settings }: { cameraId: string; settings: CameraEventSettings }) =>
      apiClient.request<CameraSettingsAnswer>('PUT', cameraPath(cameraId), { body: settings }),
    onSuccess: (answer, { cameraId }) => queryClient.setQueryData([EVENTS_KEY, 'settings', 'camera', cameraId], answer),
  });
}

/** `GET /api/v1/cctv/events/settings/org/{orgId}`. */
export function useOrgNotifyRules(orgId: string | undefined) {
  return useQuery({
    queryKey: [EVENTS_KEY, 'settings', 'org', orgId],
    queryFn: ({ signal }) => apiClient.get<OrgNotifyRules>(orgPath(orgId ?? ''), { signal }),
    enabled: !!orgId,
  });
}

/** `PUT /api/v1/cctv/events/settings/org/{orgId}`. */
export function useSaveOrgNotifyRules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orgId, rules }: { orgId: string; rules: OrgNotifyRules }) => apiClient.request<OrgNotifyRules>('PUT', orgPath(orgId), { body: rules }),
    onSuccess: (answer, { orgId }) => queryClient.setQueryData([EVENTS_KEY, 'settings', 'org', orgId], answer),
  });
}

/**
 * `POST /api/v1/cctv/snapshot/complexQuery/1/1`: the camera's latest picture on shore, to draw zones
 * on; asked again every 3 s while a picture just taken (`waitingFor`) has not arrived.
 */
export function useLatestCameraPicture(cameraId: string | undefined, waitingFor?: string) {
  return useQuery({
    queryKey: ['pictures', 'latest', cameraId],
    queryFn: () => apiClient.post<PicturePage>('/cctv/snapshot/complexQuery/1/1', { cameraId }),
    enabled: !!cameraId,
    select: (page) => page.pictures[0],
    refetchInterval: (query) => (waitingFor && query.state.data?.pictures[0]?.id !== waitingFor ? 3_000 : false),
  });
}

/** The camera's latest event (its picture stands in when shore has no picture of the camera). */
export function useLatestCameraEvent(cameraId: string | undefined) {
  return useQuery({
    queryKey: [EVENTS_KEY, 'latest', cameraId],
    queryFn: ({ signal }) => listEvents({ cameraId }, 1, 1, signal),
    enabled: !!cameraId,
    select: (page) => page.events[0],
  });
}

/** `POST /cctvv3-server/v3/snapshot/requestPro/…/live`: a picture of the camera now (it reaches shore over the link). */
export function useTakeCameraPicture() {
  return useMutation({
    mutationFn: ({ shipId, channelId, cameraId }: { shipId: string; channelId: string; cameraId: string }) =>
      apiClient.post<SnapshotAnswer>(`/cctvv3-server/v3/snapshot/requestPro/${[shipId, channelId, cameraId, String(LIMITS.pictureConfigId), 'live'].map(encodeURIComponent).join('/')}`, undefined, { fromRoot: true }),
  });
}

/** Where a shore picture is shown from (the pictures feature's address). */
export function shorePictureUrl(id: string): string {
  return `/cctvv3-server/v3/th/getById/${encodeURIComponent(id)}`;
}
