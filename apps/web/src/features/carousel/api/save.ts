import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Carousel, SimpleCarouselInput, TaskCarouselInput } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';
import { carouselKeys } from './keys.ts';

export type SaveCarousel = { kind: 'simple'; body: SimpleCarouselInput } | { kind: 'task'; body: TaskCarouselInput };

/** `POST /api/v1/cctv/carousel/add1` (simple) or `add2` (task): creates, or with `id` updates. */
export function saveCarousel(request: SaveCarousel): Promise<Carousel> {
  return apiClient.post<Carousel>(request.kind === 'simple' ? '/cctv/carousel/add1' : '/cctv/carousel/add2', request.body);
}

export function useSaveCarousel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCarousel,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: carouselKeys.lists() });
      await queryClient.invalidateQueries({ queryKey: carouselKeys.details() });
    },
  });
}
