import { useMutation, useQuery } from '@tanstack/react-query';
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

export function useCreateClip() {
  return useMutation({ mutationFn: ({ recordingId, start, end }: { recordingId: string; start: number; end: number }) => createClip(recordingId, { start, end }) });
}

/** Follows a clip job every half second until it is done or failed. */
export function useClipStatus(job: ClipJob | undefined) {
  return useQuery({
    queryKey: ['shorePlayback', 'clip', job?.id],
    queryFn: () => getClipStatus(job?.id ?? ''),
    enabled: job !== undefined,
    initialData: job,
    refetchInterval: (q) => (q.state.data?.state === 'done' || q.state.data?.state === 'failed' ? false : 500),
  });
}
