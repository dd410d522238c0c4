import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Carousel } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';
import { carouselKeys } from './keys.ts';

/** `GET /api/v1/cctv/carousel/del/{id}`: deletes a carousel (a running task is stopped first). */
export function deleteCarousel(id: string): Promise<Carousel> {
  return apiClient.get<Carousel>(`/cctv/carousel/del/${encodeURIComponent(id)}`);
}

export function useDeleteCarousel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCarousel,
    onSuccess: (carousel) => {
      queryClient.removeQueries({ queryKey: carouselKeys.status(carousel.id) });
      return queryClient.invalidateQueries({ queryKey: carouselKeys.lists() });
    },
  });
}
