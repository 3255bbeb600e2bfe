import type { CompanyDetail } from '@portal/shared'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { companyKeys } from './query-keys'

export function getCompany(id: string): Promise<CompanyDetail> {
  return api.get<CompanyDetail>(`/api/admin/companies/${encodeURIComponent(id)}`)
}

export const companyQueryOptions = (id: string) =>
  queryOptions({ queryKey: companyKeys.detail(id), queryFn: () => getCompany(id) })

export function useCompany(id: string) {
  return useQuery(companyQueryOptions(id))
}
