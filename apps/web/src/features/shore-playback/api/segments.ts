import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RecordingSegment } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';

/** `GET /api/v1/cctv/record/segments/{recordingId}`: the recording's self-contained fMP4 segment files, in order. */
export function getSegments(recordingId: string): Promise<RecordingSegment[]> {
  return apiClient.get<RecordingSegment[]>(`/cctv/record/segments/${encodeURIComponent(recordingId)}`);
}

/** Where a segment file is served (HTTP Range; the session cookie authenticates it). */
export function segmentUrl(apiBase: string, segmentId: string): string {
  return `${apiBase}/cctv/record/segment/${encodeURIComponent(segmentId)}`;
}

export const segmentsQuery = (recordingId: string) =>
  queryOptions({ queryKey: ['shorePlayback', 'segments', recordingId], queryFn: () => getSegments(recordingId) });

export function useSegments(recordingId: string | undefined) {
  return useQuery({ ...segmentsQuery(recordingId ?? ''), enabled: recordingId !== undefined });
}
