import { queryOptions, useQuery } from '@tanstack/react-query';
import { LIMITS, type HeartbeatData } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';

/** `GET /api/v1/cctv/heartbeat` (spec §4, §7): keeps the session alive; 401/402 end it through the client. */
export function heartbeat(): Promise<HeartbeatData> {
  return apiClient.get<HeartbeatData>('/cctv/heartbeat');
}

export const heartbeatQuery = (intervalMs: number = LIMITS.sessionHeartbeatMs) =>
  queryOptions({
    queryKey: ['session', 'heartbeat'],
    queryFn: heartbeat,
    refetchInterval: intervalMs,
    // A tab in the background still watches video; its session must not lapse.
    refetchIntervalInBackground: true,
    retry: false,
    staleTime: 0,
  });

/** Runs the heartbeat while the calling (signed-in) component is mounted. */
export function useHeartbeat(intervalMs?: number) {
  return useQuery(heartbeatQuery(intervalMs));
}
