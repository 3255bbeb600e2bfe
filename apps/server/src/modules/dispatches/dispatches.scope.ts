import { ownCompanyOnly } from '@portal/shared'
import type { Viewer } from '../../lib/viewer'

/**
 * Whose dispatches a caller may see (docs/product-rules.md §6, docs/product-decisions.md D7), as the company to scope to:
 * undefined for staff (every company), a client's own company, or `null`, nothing at all (a
 * client without a company: callers answer empty without querying). Queries scope with
 * companyScope() (dispatches-page.sql.ts), so scoping happens in the query and never after it.
 */
export function scopeCompany(viewer: Viewer): { companyId: string | undefined } | null {
  if (!ownCompanyOnly(viewer.role)) return { companyId: undefined }
  if (!viewer.companyId) return null
  return { companyId: viewer.companyId }
}
