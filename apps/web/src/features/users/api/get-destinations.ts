import type { Destination } from '@portal/shared'
import { useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { userKeys } from './query-keys'

/** docs/product-decisions.md D12: the User Management client list is GET /api/dispatches/destinations. */
export function getDestinations(): Promise<Destination[]> {
  return api.get<Destination[]>('/api/dispatches/destinations')
}

export function useDestinations() {
  return useQuery({ queryKey: userKeys.destinations(), queryFn: getDestinations })
}
