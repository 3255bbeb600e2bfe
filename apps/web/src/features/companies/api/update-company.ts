import type { Company, UpdateCompanyBody } from '@portal/shared'
import { api } from '@/lib/api-client'
import { useRefreshingMutation } from '@/lib/refreshing-mutation'
import { companyKeys } from './query-keys'

/** PUT /api/admin/companies/{id}: the list sends name and manager, the detail screen the name only (docs/product-rules.md §7). */
export function updateCompany(id: string, body: UpdateCompanyBody): Promise<Company> {
  return api.put<Company>(`/api/admin/companies/${encodeURIComponent(id)}`, body)
}

export function useUpdateCompany() {
  return useRefreshingMutation(
    ({ id, body }: { id: string; body: UpdateCompanyBody }) => updateCompany(id, body),
    companyKeys.all,
  )
}
