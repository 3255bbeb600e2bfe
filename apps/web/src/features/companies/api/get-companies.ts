import type { Company } from '@portal/shared'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { companyKeys } from './query-keys'

export function getCompanies(): Promise<Company[]> {
  return api.get<Company[]>('/api/admin/companies')
}

export const companiesQueryOptions = () => queryOptions({ queryKey: companyKeys.list(), queryFn: getCompanies })

export function useCompanies() {
  return useQuery(companiesQueryOptions())
}
