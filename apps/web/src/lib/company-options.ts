import type { Destination } from '@portal/shared'
import { useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

/**
 * The companies staff pick from (the new dispatch form, the learners filter):
 * GET /api/dispatches/destinations, the mirror by name. Its key starts with 'dispatches', so a
 * change to dispatches refreshes it with them.
 */
export const companyOptionsKey = ['dispatches', 'options', 'companies'] as const

export function getCompanyOptions(): Promise<Destination[]> {
  return api.get<Destination[]>('/api/dispatches/destinations')
}

export function useCompanyOptions(enabled = true) {
  return useQuery({ queryKey: companyOptionsKey, queryFn: getCompanyOptions, enabled })
}
