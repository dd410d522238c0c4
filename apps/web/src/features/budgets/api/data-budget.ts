import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BudgetOverride, BudgetOverrideRequest, DataBudgetDelete, DataBudgetSetting, DataBudgetStatistics, DataBudgetUpdate } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';

/** How often mounted figures are asked again (the server writes the links' bytes every 5 s). */
export const BUDGET_REFRESH_MS = 10_000;

/** `GET /api/v1/cctv/statistics/dataBudget/{orgId}`: each ship's use today and this month against its budget. */
export const budgetStatisticsQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['budgets', 'statistics', orgId] as const,
    queryFn: () => apiClient.get<DataBudgetStatistics>(`/cctv/statistics/dataBudget/${encodeURIComponent(orgId)}`),
    refetchInterval: BUDGET_REFRESH_MS,
  });

export function useBudgetStatistics(orgId: string | undefined) {
  return useQuery({ ...budgetStatisticsQuery(orgId ?? ''), enabled: orgId !== undefined && orgId !== '' });
}

/** `GET /api/v1/cctv/databudget/findByShipId`: a ship's own budget, null when it follows its organisation's. */
export function useShipBudget(shipId: string | undefined) {
  return useQuery({
    queryKey: ['budgets', 'ship', shipId ?? ''] as const,
    queryFn: () => apiClient.get<DataBudgetSetting | null>('/cctv/databudget/findByShipId', { query: { shipId: shipId ?? '' } }),
    enabled: shipId !== undefined,
  });
}

function useRefreshBudgets() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['budgets'] });
}

/** `POST /api/v1/cctv/databudget/update`: a manager sets an organisation's default or a ship's own budget. */
export function useSaveBudget() {
  const refresh = useRefreshBudgets();
  return useMutation({ mutationFn: (update: DataBudgetUpdate) => apiClient.post<DataBudgetSetting>('/cctv/databudget/update', update), onSuccess: refresh });
}

/** `POST /api/v1/cctv/databudget/delete`: back to the organisation's default (or none). */
export function useDeleteBudget() {
  const refresh = useRefreshBudgets();
  return useMutation({ mutationFn: (body: DataBudgetDelete) => apiClient.post<null>('/cctv/databudget/delete', body), onSuccess: refresh });
}

/** `POST /api/v1/cctv/databudget/override`: live views of a blocked ship for this user until the ship's midnight, with a reason. */
export function useOverrideBudget() {
  const refresh = useRefreshBudgets();
  return useMutation({ mutationFn: (body: BudgetOverrideRequest) => apiClient.post<BudgetOverride>('/cctv/databudget/override', body), onSuccess: refresh });
}

/** `GET /api/v1/cctv/databudget/overrides/{orgId}`: who overrode which blocked ship, when and why (newest first). */
export function useBudgetOverrides(orgId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['budgets', 'overrides', orgId] as const,
    queryFn: () => apiClient.get<BudgetOverride[]>(`/cctv/databudget/overrides/${encodeURIComponent(orgId)}`),
    enabled,
  });
}
