import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PATHS, type EventClass, type EventInfo, type EventPage, type UnacknowledgedAnswer } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';

export type { EventInfo, EventPage } from '@ship-cctv/protocol';

/** The list's filters; absent fields do not filter. */
export interface EventFilter {
  shipId?: string;
  cameraId?: string;
  class?: EventClass;
  /** Event start in [from, to), epoch ms. */
  from?: number;
  to?: number;
  acknowledged?: boolean;
}

const BASE = '/cctv/events';
const one = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

/** Every query of this feature starts with this key: a change or a notice refreshes them together. */
export const EVENTS_KEY = 'events';

/** Where an event's best picture is shown from (an <img> sends the session cookie). */
export function eventPictureUrl(id: string): string {
  return `${PATHS.apiBase}${one(id)}/picture`;
}

/** `GET /api/v1/cctv/events`: a page of events, newest first. */
export function listEvents(filter: EventFilter, page: number, size: number, signal?: AbortSignal): Promise<EventPage> {
  return apiClient.get<EventPage>(BASE, {
    signal,
    query: { ...filter, acknowledged: filter.acknowledged === undefined ? undefined : String(filter.acknowledged), page, size },
  });
}

export function useEvents(filter: EventFilter, page: number, size: number, enabled = true) {
  return useQuery({
    queryKey: [EVENTS_KEY, 'list', filter, page, size],
    queryFn: ({ signal }) => listEvents(filter, page, size, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** `GET /api/v1/cctv/events/unacknowledged`: per ship, events nobody acknowledged yet (the tree's badge). */
export function useUnacknowledgedCounts() {
  return useQuery({
    queryKey: [EVENTS_KEY, 'unacknowledged'],
    queryFn: ({ signal }) => apiClient.get<UnacknowledgedAnswer>(`${BASE}/unacknowledged`, { signal }),
    staleTime: 30_000,
  });
}

/** After a change: every list and count is asked again. */
function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: [EVENTS_KEY] });
}

/** `POST /api/v1/cctv/events/{id}/acknowledge` (keeps the first acknowledgement). */
export function useAcknowledgeEvent() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (id: string) => apiClient.post<EventInfo>(`${one(id)}/acknowledge`), onSuccess: refresh });
}

/** `POST /api/v1/cctv/events/acknowledge` with 1..200 ids. */
export function useAcknowledgeEvents() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (ids: string[]) => apiClient.post<{ acknowledged: number }>(`${BASE}/acknowledge`, { ids }), onSuccess: refresh });
}

/** `DELETE /api/v1/cctv/events/{id}`: the event and its picture. */
export function useDeleteEvent() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (id: string) => apiClient.del<{ deleted: boolean }>(one(id)), onSuccess: refresh });
}
