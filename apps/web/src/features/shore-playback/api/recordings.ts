import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { RecordQueryFilter, RecordQueryPage } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';

/** `POST /api/v1/cctv/record/complexQuery/{page}/{size}` (spec §7): shore recordings, newest first. */
export function queryRecordings(filter: RecordQueryFilter, page: number, size: number): Promise<RecordQueryPage> {
  return apiClient.post<RecordQueryPage>(`/cctv/record/complexQuery/${page}/${size}`, filter);
}

export const recordingsQuery = (filter: RecordQueryFilter, page: number, size: number) =>
  queryOptions({
    queryKey: ['shorePlayback', 'recordings', filter, page, size],
    queryFn: () => queryRecordings(filter, page, size),
    placeholderData: keepPreviousData,
  });

export function useRecordings(filter: RecordQueryFilter | undefined, page: number, size: number) {
  return useQuery({ ...recordingsQuery(filter ?? {}, page, size), enabled: filter !== undefined });
}
