import type { DashboardCharts, DashboardChartsQuery, DispatchCharts } from '@portal/shared'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useDispatchListParams } from '@/hooks/use-dispatch-list-params'
import { api } from '@/lib/api-client'

/** Chart data (GET /api/reports/charts/...). */
export const chartKeys = {
  dispatch: (id: string) => ['charts', 'dispatch', id] as const,
  dashboard: (query: DashboardChartsQuery) => ['charts', 'dashboard', query] as const,
}

export function useDispatchCharts(dispatchId: string) {
  return useQuery({
    queryKey: chartKeys.dispatch(dispatchId),
    queryFn: () => api.get<DispatchCharts>(`/api/reports/charts/dispatch/${encodeURIComponent(dispatchId)}`),
  })
}

export function useDashboardCharts(query: DashboardChartsQuery) {
  return useQuery({
    queryKey: chartKeys.dashboard(query),
    queryFn: () => api.get<DashboardCharts>('/api/reports/charts/dashboard', { params: query }),
    placeholderData: keepPreviousData,
  })
}

/** The dashboard's chart data over the dispatch list's own filters (search, status, from the URL). */
export function useListDashboardCharts() {
  const { query: list } = useDispatchListParams()
  return useDashboardCharts({ search: list.search ?? '', status: list.status })
}
