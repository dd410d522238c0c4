import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ClipJob } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';

/** `POST /api/v1/cctv/record/clip/{recordingId}` (spec §7): starts exporting [start, end) as an MP4. */
export function createClip(recordingId: string, range: { start: number; end: number }): Promise<ClipJob> {
  return apiClient.post<ClipJob>(`/cctv/record/clip/${encodeURIComponent(recordingId)}`, range);
}

/** `GET /api/v1/cctv/record/clip/status/{jobId}`: progress 0–100, then the download URL. */
export function getClipStatus(jobId: string): Promise<ClipJob> {
  return apiClient.get<ClipJob>(`/cctv/record/clip/status/${encodeURIComponent(jobId)}`);
}

/** `POST /api/v1/cctv/record/clip/cancel/{jobId}`: stops a queued or running export. */
export function cancelClip(jobId: string): Promise<ClipJob> {
  return apiClient.post<ClipJob>(`/cctv/record/clip/cancel/${encodeURIComponent(jobId)}`, {});
}

/** Cancels an export; what the server answered is the job's status at once (no wait for the next poll). */
export function useCancelClip() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (jobId: string) => cancelClip(jobId),
    onSuccess: (job) => queryClient.setQueryData(clipStatusKey(job.id), job),
  });
}

const clipStatusKey = (jobId: string | undefined) => ['shorePlayback', 'clip', jobId];

export function useCreateClip() {
  return useMutation({ mutationFn: ({ recordingId, start, end }: { recordingId: string; start: number; end: number }) => createClip(recordingId, { start, end }) });
}

/** Follows a clip job every half second until it is done, failed or cancelled. */
export function useClipStatus(job: ClipJob | undefined) {
  return useQuery({
    queryKey: clipStatusKey(job?.id),
    queryFn: () => getClipStatus(job?.id ?? ''),
    enabled: job !== undefined,
    initialData: job,
    refetchInterval: (q) => (q.state.data?.state === 'queued' || q.state.data?.state === 'running' ? 500 : false),
  });
}
