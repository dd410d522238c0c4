import { useEffect, useMemo, useState } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { dest, type CarouselStatus } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';
import { useDestination } from '../../../lib/realtime/index.ts';
import { clockOffset } from '../paging.ts';
import { carouselKeys } from './keys.ts';

/** `GET /api/v1/cctv/carousel/task/status/{id}`: where a task is now. */
export function getTaskStatus(id: string): Promise<CarouselStatus> {
  return apiClient.get<CarouselStatus>(`/cctv/carousel/task/status/${encodeURIComponent(id)}`);
}

export const taskStatusQuery = (id: string) => queryOptions({ queryKey: carouselKeys.status(id), queryFn: () => getTaskStatus(id), retry: 1 });

/** A status and how far shore's clock was ahead of this browser's when it came. */
export interface ReceivedStatus {
  status: CarouselStatus;
  offsetMs: number;
}

/** The newer of two statuses, by shore's clock (a late answer to a request must not undo a message). */
export function newerStatus(a: ReceivedStatus | undefined, b: ReceivedStatus | undefined): ReceivedStatus | undefined {
  if (!a) return b;
  if (!b) return a;
  return b.status.serverTime >= a.status.serverTime ? b : a;
}

/**
 * A task's latest status: the answer of `task/status/{id}` and the messages of STOMP
 * `/carousel/{id}` (at each page switch and state change), whichever is newer. `refetch` asks
 * shore again (when a message is late).
 */
export function useTaskStatus(id: string | undefined, enabled = true) {
  const on = enabled && id !== undefined;
  const query = useQuery({ ...taskStatusQuery(id ?? ''), enabled: on });
  const message = useDestination<CarouselStatus>(on ? dest.carousel(id) : undefined);
  const [fromStomp, setFromStomp] = useState<ReceivedStatus>();
  useEffect(() => {
    // Stamped when it arrives: its serverTime against this browser's clock.
    if (message && message.id === id) setFromStomp({ status: message, offsetMs: clockOffset(message.serverTime, Date.now()) });
  }, [message, id]);
  const fromQuery = useMemo<ReceivedStatus | undefined>(
    () => (query.data && query.data.id === id ? { status: query.data, offsetMs: clockOffset(query.data.serverTime, query.dataUpdatedAt) } : undefined),
    [query.data, query.dataUpdatedAt, id],
  );
  const latest = newerStatus(fromQuery, fromStomp?.status.id === id ? fromStomp : undefined);
  return { latest, error: query.error, isLoading: query.isLoading, refetch: query.refetch, dataUpdatedAt: query.dataUpdatedAt };
}
