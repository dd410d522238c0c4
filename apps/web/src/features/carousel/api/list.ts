import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Carousel, CarouselKind } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';
import { carouselKeys } from './keys.ts';

/** `GET /api/v1/cctv/carousel/simple/list?orgId=` or `task/list?orgId=`: an organisation's carousels (its sub-organisations' too). */
export function listCarousels(kind: CarouselKind, orgId: string | undefined): Promise<Carousel[]> {
  return apiClient.get<Carousel[]>(`/cctv/carousel/${kind}/list`, { query: { orgId } });
}

export const carouselListQuery = (kind: CarouselKind, orgId: string | undefined) =>
  queryOptions({ queryKey: carouselKeys.list(kind, orgId), queryFn: () => listCarousels(kind, orgId), enabled: orgId !== undefined });

export function useCarousels(kind: CarouselKind, orgId: string | undefined) {
  return useQuery(carouselListQuery(kind, orgId));
}
