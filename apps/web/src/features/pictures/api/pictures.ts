import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LIMITS, type PictureFetchAnswer, type PictureFilter, type PicturePage, type ShipPicList, type ShipPicListRequest, type SnapshotAnswer, type SnapshotTaskDetail, type SnapshotTaskRequest, type SnapshotTaskStatus, type EnhanceJob, type EnhanceRequest } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';

/** Where a picture is shown from (an <img> sends the session cookie). */
export function pictureUrl(id: string, opts: { thumb?: boolean; download?: boolean } = {}): string {
  const query = [opts.thumb ? 'thumb=1' : '', opts.download ? 'download=1' : ''].filter(Boolean).join('&');
  return `/cctvv3-server/v3/th/getById/${encodeURIComponent(id)}${query ? `?${query}` : ''}`;
}

export interface SnapshotTarget {
  shipId: string;
  channelId: string;
  cameraId: string;
  /** Default: the picture config (spec §9: 720). */
  templateId?: number;
  /** `live` (default) or a recorded time (epoch ms). */
  source?: 'live' | number;
}

/** `POST /cctvv3-server/v3/snapshot/requestPro/{ship}/{channel}/{camera}/{template}/{source}`: the picture's id at once. */
export function takeSnapshot(target: SnapshotTarget): Promise<SnapshotAnswer> {
  const parts = [target.shipId, target.channelId, target.cameraId, String(target.templateId ?? LIMITS.pictureConfigId), String(target.source ?? 'live')];
  return apiClient.post<SnapshotAnswer>(`/cctvv3-server/v3/snapshot/requestPro/${parts.map(encodeURIComponent).join('/')}`, undefined, { fromRoot: true });
}

export function useTakeSnapshot() {
  return useMutation({ mutationFn: takeSnapshot });
}

/** `POST /api/v1/cctv/snapshot/complexQuery/{page}/{size}`: shore's pictures, newest first. */
export function queryPictures(filter: PictureFilter, page: number, size: number): Promise<PicturePage> {
  return apiClient.post<PicturePage>(`/cctv/snapshot/complexQuery/${page}/${size}`, filter);
}

export function useShorePictures(filter: PictureFilter, page: number, size: number, enabled = true) {
  return useQuery({ queryKey: ['pictures', 'shore', filter, page, size], queryFn: () => queryPictures(filter, page, size), placeholderData: keepPreviousData, enabled });
}

/** `POST /api/v1/cctv-server/v3/getPicList/{shipId}`: what the ship holds, asked over its link. */
export function listShipPictures(shipId: string, body: ShipPicListRequest): Promise<ShipPicList> {
  return apiClient.post<ShipPicList>(`/cctv-server/v3/getPicList/${encodeURIComponent(shipId)}`, body);
}

export function useShipPictures(request: { shipId: string; body: ShipPicListRequest } | undefined) {
  return useQuery({
    queryKey: ['pictures', 'ship', request],
    queryFn: () => listShipPictures(request?.shipId ?? '', request?.body ?? { cameraId: '', from: 0, to: 1 }),
    enabled: request !== undefined,
    // A list costs satellite bytes: asked again only when the operator asks.
    staleTime: Infinity,
    retry: false,
  });
}

/** `POST /api/v1/cctv-server/v3/fetchPic/{shipId}/{id}`: the ship sends it next. */
export function fetchShipPicture(shipId: string, pictureId: string): Promise<PictureFetchAnswer> {
  return apiClient.post<PictureFetchAnswer>(`/cctv-server/v3/fetchPic/${encodeURIComponent(shipId)}/${encodeURIComponent(pictureId)}`);
}

export function useFetchShipPicture() {
  return useMutation({ mutationFn: ({ shipId, pictureId }: { shipId: string; pictureId: string }) => fetchShipPicture(shipId, pictureId) });
}

// ── snapshot tasks ──────────────────────────────────────────────────────────────────────────────

const tasksKey = (shipId: string | undefined) => ['pictures', 'tasks', shipId];

/** `POST /api/v1/cctv-server/v3/getTasks`: a ship's snapshot tasks, newest first (followed every 5 s while shown). */
export function useTasks(shipId: string | undefined) {
  return useQuery({
    queryKey: tasksKey(shipId),
    queryFn: () => apiClient.post<SnapshotTaskStatus[]>('/cctv-server/v3/getTasks', { shipId }),
    enabled: shipId !== undefined,
    refetchInterval: 5_000,
  });
}

/** `GET /api/v1/cctv-server/v3/getTaskDetailStatus/{id}`: every shot's state. */
export function useTaskDetail(taskId: string | undefined) {
  return useQuery({
    queryKey: ['pictures', 'task', taskId],
    queryFn: () => apiClient.get<SnapshotTaskDetail>(`/cctv-server/v3/getTaskDetailStatus/${encodeURIComponent(taskId ?? '')}`),
    enabled: taskId !== undefined,
    refetchInterval: 5_000,
  });
}

/** `POST /api/v1/cctv-server/v3/submitTask`. */
export function useSubmitTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (req: SnapshotTaskRequest) => apiClient.post<SnapshotTaskStatus>('/cctv-server/v3/submitTask', req),
    onSuccess: (task) => queryClient.invalidateQueries({ queryKey: tasksKey(task.shipId) }),
  });
}

/** `DELETE /api/v1/cctv-server/v3/delTask/{id}`. */
export function useDeleteTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (taskId: string) => apiClient.del<SnapshotTaskStatus>(`/cctv-server/v3/delTask/${encodeURIComponent(taskId)}`),
    onSuccess: (task) => queryClient.invalidateQueries({ queryKey: tasksKey(task.shipId) }),
  });
}

// ── AI super-resolution ─────────────────────────────────────────────────────────────────────────

const AI = '/ai/SuperResolutionV1/api';

/** Where a finished enhancement is shown from. */
export function enhancedUrl(jobId: string): string {
  return `/api/v1${AI}/result/${encodeURIComponent(jobId)}`;
}

/** Queues an enhancement; the job as queued is shown at once, before its first progress read. */
export function useCommitEnhance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (req: EnhanceRequest) => apiClient.post<EnhanceJob>(`${AI}/commit`, req),
    onSuccess: (job) => queryClient.setQueryData(['pictures', 'enhance', job.jobId], job),
  });
}

export function useCancelEnhance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (jobId: string) => apiClient.post<EnhanceJob>(`${AI}/cancel/${encodeURIComponent(jobId)}`),
    onSuccess: (job) => queryClient.setQueryData(['pictures', 'enhance', job.jobId], job),
  });
}

/** Follows an enhancement twice a second until it is done, failed or cancelled. */
export function useEnhanceJob(jobId: string | undefined) {
  return useQuery({
    queryKey: ['pictures', 'enhance', jobId],
    queryFn: () => apiClient.get<EnhanceJob>(`${AI}/progress/${encodeURIComponent(jobId ?? '')}`),
    enabled: jobId !== undefined,
    refetchInterval: (query) => (query.state.data && ['done', 'failed', 'cancelled'].includes(query.state.data.state) ? false : 500),
  });
}
