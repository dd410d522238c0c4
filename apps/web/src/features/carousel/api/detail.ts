import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CarouselDetail, CarouselKind } from '@ship-cctv/protocol';
import { ApiError, apiClient } from '../../../lib/api-client.ts';
import { carouselKeys, kindNumber } from './keys.ts';

/** `GET /api/v1/cctv/carousel/info1/{id}` (simple) or `info2/{id}` (task): the carousel and its channels resolved into cells. */
export function getCarouselDetail(kind: CarouselKind, id: string): Promise<CarouselDetail> {
  return apiClient.get<CarouselDetail>(`/cctv/carousel/info${kindNumber(kind)}/${encodeURIComponent(id)}`);
}

export const carouselDetailQuery = (kind: CarouselKind, id: string) =>
  queryOptions({ queryKey: carouselKeys.detail(kind, id), queryFn: () => getCarouselDetail(kind, id), retry: false });

/**
 * A carousel's detail. `refetchMs`: asked again that often (a simple carousel's player follows
 * which ships are online, and channels of ships that came or went).
 */
export function useCarouselDetail(kind: CarouselKind | undefined, id: string | undefined, refetchMs?: number) {
  return useQuery({
    ...carouselDetailQuery(kind ?? 'simple', id ?? ''),
    enabled: kind !== undefined && id !== undefined,
    ...(refetchMs ? { refetchInterval: refetchMs } : {}),
  });
}

/**
 * The kind of a carousel known only by its id (a link without `kind`): a task's detail, else a
 * simple carousel's. The detail found is kept in the cache for the player.
 */
export function useCarouselKind(id: string, known: CarouselKind | undefined) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: [...carouselKeys.details(), 'kindOf', id],
    enabled: known === undefined,
    retry: false,
    queryFn: async (): Promise<CarouselKind> => {
      for (const kind of ['task', 'simple'] as const) {
        try {
          queryClient.setQueryData(carouselKeys.detail(kind, id), await getCarouselDetail(kind, id));
          return kind;
        } catch (err) {
          // Not of this kind: the other one; anything else is the answer.
          if (!(err instanceof ApiError && (err.status === 404 || err.status === 400)) || kind === 'simple') throw err;
        }
      }
      throw new Error('unreachable');
    },
  });
}
