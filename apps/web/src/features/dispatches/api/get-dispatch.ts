import type { Dispatch } from '@portal/shared'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { dispatchKeys } from './query-keys'

export function getDispatch(id: string): Promise<Dispatch> {
  return api.get<Dispatch>(`/api/dispatches/${encodeURIComponent(id)}`)
}

export const dispatchQueryOptions = (id: string) =>
  queryOptions({ queryKey: dispatchKeys.detail(id), queryFn: () => getDispatch(id) })

export function useDispatch(id: string) {
  return useQuery(dispatchQueryOptions(id))
}
