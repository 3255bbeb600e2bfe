import type { ReportQuery, ReportResponse } from '@portal/shared'
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

/** docs/product-rules.md §8: the text for an answer without a registrations list. */
export const UNEXPECTED_FORMAT = 'Failed to retrieve registrations. The API response format was unexpected.'

export async function getDispatchReport(dispatchId: string, query: ReportQuery): Promise<ReportResponse> {
  const data = await api.get<ReportResponse>(`/api/reports/dispatch/${encodeURIComponent(dispatchId)}`, {
    params: query,
  })
  if (!data || !Array.isArray(data.registrations) || !data.pagination) throw new Error(UNEXPECTED_FORMAT)
  return data
}

export const dispatchReportQueryOptions = (dispatchId: string, query: ReportQuery) =>
  queryOptions({
    queryKey: ['reports', 'dispatch', dispatchId, query] as const,
    queryFn: () => getDispatchReport(dispatchId, query),
    placeholderData: keepPreviousData,
  })

export function useDispatchReport(dispatchId: string, query: ReportQuery) {
  return useQuery(dispatchReportQueryOptions(dispatchId, query))
}
