import { queryOptions, useQuery } from '@tanstack/react-query';
import { CAROUSEL_PREWARM_SECONDS, type CarouselSettings } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';
import { carouselKeys } from './keys.ts';

/** `GET /api/v1/cctv/carousel/settings`: whether seconds may override minutes, and the pre-warm. */
export function getCarouselSettings(): Promise<CarouselSettings> {
  return apiClient.get<CarouselSettings>('/cctv/carousel/settings');
}

export const carouselSettingsQuery = () => queryOptions({ queryKey: carouselKeys.settings(), queryFn: getCarouselSettings, staleTime: Infinity });

/** Until the answer comes: minutes only, the protocol's pre-warm. */
export const DEFAULT_CAROUSEL_SETTINGS: CarouselSettings = { secondsAllowed: false, prewarmSeconds: CAROUSEL_PREWARM_SECONDS };

export function useCarouselSettings(): CarouselSettings {
  return useQuery(carouselSettingsQuery()).data ?? DEFAULT_CAROUSEL_SETTINGS;
}
