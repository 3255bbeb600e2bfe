import type { DispatchListQuery } from '@portal/shared'

/** Every dispatch query starts with 'dispatches', so one invalidation refreshes them all. */
export const dispatchKeys = {
  all: ['dispatches'] as const,
  list: (query: DispatchListQuery) => ['dispatches', 'list', query] as const,
  detail: (id: string) => ['dispatches', 'detail', id] as const,
  /** Under 'dispatches': an edit or a reset (which invalidate them all) refreshes the history too. */
  history: (id: string) => ['dispatches', 'history', id] as const,
  courseOptions: () => ['dispatches', 'options', 'courses'] as const,
  companyDispatches: (companyId: string) => ['dispatches', 'options', 'company', companyId] as const,
}
