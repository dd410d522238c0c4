import { useQuery } from '@tanstack/react-query';
import type { StillAnswer } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';

/** `POST /api/v1/cctv/stills/{cameraId}`: the camera's latest still; shore asks the ship for a new one when it is due. */
export function getStill(cameraId: string, templateId: number | undefined, signal?: AbortSignal): Promise<StillAnswer> {
  return apiClient.post<StillAnswer>(`/cctv/stills/${encodeURIComponent(cameraId)}`, templateId === undefined ? {} : { templateId }, { signal });
}

/** A picture on shore, as an <img> loads it (the session cookie goes with it); `thumb`: its 320 px thumbnail. */
export function stillUrl(pictureId: string, thumb: boolean): string {
  return `/cctvv3-server/v3/th/getById/${encodeURIComponent(pictureId)}${thumb ? '?thumb=1' : ''}`;
}

/**
 * The camera's latest still, asked again when the answer says (`nextInMs`; the hook's timer, not
 * React Query's interval, so the period follows each answer). Every cell of a camera shares it.
 */
export function useStillQuery(cameraId: string, templateId: number | undefined) {
  return useQuery({
    queryKey: ['stills', cameraId, templateId ?? null] as const,
    queryFn: ({ signal }) => getStill(cameraId, templateId, signal),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
}
