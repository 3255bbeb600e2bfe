import type { CompanySyncResponse } from '@portal/shared'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { companyKeys } from './query-keys'

/** GET /api/admin/companies/sync (docs/product-rules.md §7): created, updated, skipped, errors. */
export function syncCompanies(): Promise<CompanySyncResponse> {
  return api.get<CompanySyncResponse>('/api/admin/companies/sync')
}

export function useSyncCompanies() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: syncCompanies,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyKeys.all }),
  })
}
