import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VodQueryResult } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';

/*
 * `GET /cctvv3-server/v3/vod/query/{shipId}/{cameraId}/{start}/{end}` (spec §7) sits outside the
 * API prefix: asked from the server's root through the app's one client, so a 401/402 here ends
 * the session like any other call.
 */

/** Which spans of [start, end) the ship recorder holds for a camera (cached on shore). */
export function getVodSpans(shipId: string, cameraId: string, start: number, end: number, signal?: AbortSignal): Promise<VodQueryResult> {
  const path = ['/cctvv3-server/v3/vod/query', shipId, cameraId, String(start), String(end)].map((p, i) => (i === 0 ? p : encodeURIComponent(p))).join('/');
  return apiClient.get<VodQueryResult>(path, { signal, fromRoot: true });
}

export function vodSpansQuery(shipId: string, cameraId: string, start: number, end: number) {
  return queryOptions({
    queryKey: ['playback', 'vod', shipId, cameraId, start, end] as const,
    queryFn: ({ signal }) => getVodSpans(shipId, cameraId, start, end, signal),
    // A range in the past does not change; the ship is asked over the satellite link only once.
    staleTime: Infinity,
    retry: 1,
  });
}

/** The recorded spans under the seek bar; a failure only hides them (the playback still runs). */
export function useVodSpans(shipId: string, cameraId: string, start: number, end: number) {
  return useQuery(vodSpansQuery(shipId, cameraId, start, end));
}
