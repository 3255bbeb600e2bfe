import type { SalesUser } from '@portal/shared'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { companyKeys } from './query-keys'

/** GET /api/admin/users/sales: the account manager choices (docs/product-rules.md §2, §6). */
export function getSalesUsers(): Promise<SalesUser[]> {
  return api.get<SalesUser[]>('/api/admin/users/sales')
}

export function useSalesUsers(enabled: boolean) {
  return useQuery({ ...queryOptions({ queryKey: companyKeys.salesUsers(), queryFn: getSalesUsers }), enabled })
}
