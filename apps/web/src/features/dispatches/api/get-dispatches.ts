import type { DispatchListQuery, DispatchListResponse } from '@portal/shared'
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { dispatchKeys } from './query-keys'

/** docs/product-rules.md §9: the list reloads every 5 minutes while the tab is visible. */
export const DISPATCH_LIST_REFRESH_MS = 5 * 60_000

export function getDispatches(query: DispatchListQuery): Promise<DispatchListResponse> {
  return api.get<DispatchListResponse>('/api/dispatches', { params: query })
}

export const dispatchesQueryOptions = (query: DispatchListQuery) =>
  queryOptions({
    queryKey: dispatchKeys.list(query),
    queryFn: () => getDispatches(query),
    // A new page or filter keeps the old rows on screen until the new ones arrive.
    placeholderData: keepPreviousData,
    refetchInterval: () => (document.visibilityState === 'visible' ? DISPATCH_LIST_REFRESH_MS : false),
    refetchIntervalInBackground: false,
  })

export function useDispatches(query: DispatchListQuery) {
  return useQuery(dispatchesQueryOptions(query))
}
