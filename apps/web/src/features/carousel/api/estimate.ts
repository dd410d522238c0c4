import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CarouselEstimate, CarouselEstimateInput } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';
import { useDebouncedValue } from '../../../shared/source-tree/useDebouncedValue.ts';
import { carouselKeys } from './keys.ts';

/** Editing pauses this long before the estimate is asked again. */
export const ESTIMATE_DEBOUNCE_MS = 400;

/** `POST /api/v1/cctv/carousel/estimate`: what a carousel being edited would cost the ships' uplinks. */
export function estimateCarousel(body: CarouselEstimateInput): Promise<CarouselEstimate> {
  return apiClient.post<CarouselEstimate>('/cctv/carousel/estimate', body);
}

/** The estimate of `body` once editing pauses (the last one stays shown meanwhile); none without a body. */
export function useCarouselEstimate(body: CarouselEstimateInput | undefined) {
  // Debounced as text: a new object each render must not restart the wait.
  const settled = useDebouncedValue(body ? JSON.stringify(body) : '', ESTIMATE_DEBOUNCE_MS);
  return useQuery({
    queryKey: carouselKeys.estimate(settled),
    queryFn: () => estimateCarousel(JSON.parse(settled) as CarouselEstimateInput),
    enabled: settled !== '',
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    retry: false,
  });
}
