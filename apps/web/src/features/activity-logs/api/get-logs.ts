import type { LogFilter, LogListQuery, LogListResponse } from '@portal/shared'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

export const logKeys = {
  all: ['logs'] as const,
  list: (query: LogListQuery) => ['logs', 'list', query] as const,
  users: () => ['logs', 'users'] as const,
}

/** GET /api/logs; empty filter values are left out of the URL by the api client (docs/product-rules.md §7). */
export function getLogs(query: LogListQuery): Promise<LogListResponse> {
  return api.get<LogListResponse>('/api/logs', { params: query })
}

export function useLogs(query: LogListQuery, enabled: boolean) {
  return useQuery({
    queryKey: logKeys.list(query),
    queryFn: () => getLogs(query),
    enabled,
    // A new page or filter keeps the old rows on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  })
}

/** GET /api/logs/export.csv with the same filters: the server streams the file (docs/product-decisions.md D22). */
export function downloadLogsCsv(filter: LogFilter): Promise<Blob> {
  return api.get<Blob>('/api/logs/export.csv', { params: filter, responseType: 'blob' })
}
