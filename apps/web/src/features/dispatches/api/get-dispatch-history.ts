import type { DispatchHistoryResponse } from '@portal/shared'
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { dispatchKeys } from './query-keys'

/** Entries per "Show older changes" step. */
export const HISTORY_PAGE = 10

export function getDispatchHistory(id: string, before?: number): Promise<DispatchHistoryResponse> {
  return api.get<DispatchHistoryResponse>(`/api/dispatches/${encodeURIComponent(id)}/history`, {
    params: { limit: String(HISTORY_PAGE), ...(before === undefined ? {} : { before: String(before) }) },
  })
}

/** Newest first; each next page continues below the oldest entry shown (keyset by id). */
export const dispatchHistoryQueryOptions = (id: string) =>
  infiniteQueryOptions({
    queryKey: dispatchKeys.history(id),
    queryFn: ({ pageParam }) => getDispatchHistory(id, pageParam),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
  })

export function useDispatchHistory(id: string) {
  return useInfiniteQuery(dispatchHistoryQueryOptions(id))
}
