import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CarouselStatus } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';
import { carouselKeys } from './keys.ts';

/** `GET /api/v1/cctv/carousel/task/start/{id}` (409 when running) or `task/stop/{id}` (409 when stopped). */
export function controlTask(action: 'start' | 'stop', id: string): Promise<CarouselStatus> {
  return apiClient.get<CarouselStatus>(`/cctv/carousel/task/${action}/${encodeURIComponent(id)}`);
}

/** `GET /api/v1/cctv/carousel/task/stopAll/{orgId}`: how many tasks it stopped. */
export function stopAllTasks(orgId: string): Promise<{ stopped: number }> {
  return apiClient.get<{ stopped: number }>(`/cctv/carousel/task/stopAll/${encodeURIComponent(orgId)}`);
}

/** Start or stop a task; its status is known at once, the lists (their `running`) are asked again. */
export function useTaskControl() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, id }: { action: 'start' | 'stop'; id: string }) => controlTask(action, id),
    onSuccess: (status) => {
      queryClient.setQueryData(carouselKeys.status(status.id), status);
      return queryClient.invalidateQueries({ queryKey: carouselKeys.lists() });
    },
    // A 409 says the task was already in that state elsewhere: what is shown is stale.
    onError: () => queryClient.invalidateQueries({ queryKey: carouselKeys.all }),
  });
}

export function useStopAllTasks() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: stopAllTasks,
    onSettled: () => queryClient.invalidateQueries({ queryKey: carouselKeys.all }),
  });
}
