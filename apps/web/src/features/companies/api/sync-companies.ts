import type { CompanySyncResponse } from '@portal/shared'
import { api } from '@/lib/api-client'
import { useRefreshingMutation } from '@/lib/refreshing-mutation'
import { companyKeys } from './query-keys'

/** GET /api/admin/companies/sync (docs/product-rules.md §7): created, updated, skipped, errors. */
export function syncCompanies(): Promise<CompanySyncResponse> {
  return api.get<CompanySyncResponse>('/api/admin/companies/sync')
}

export function useSyncCompanies() {
  return useRefreshingMutation(syncCompanies, companyKeys.all)
}
