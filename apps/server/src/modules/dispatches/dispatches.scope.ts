import { and, eq, isNull, type SQL } from 'drizzle-orm'
import { ownCompanyOnly } from '@portal/shared'
import { dispatch } from '../../db/schema'
import type { Viewer } from '../../lib/viewer'

/**
 * Whose dispatches a caller may see (docs/product-rules.md §6, docs/product-decisions.md D7), as the company to scope to:
 * undefined for staff (every company), a client's own company, or `null`, nothing at all (a
 * client without a company: callers answer empty without querying). Queries scope with
 * companyScope(), so scoping happens in the query and never after it.
 */
export function scopeCompany(viewer: Viewer): { companyId: string | undefined } | null {
  if (!ownCompanyOnly(viewer.role)) return { companyId: undefined }
  if (!viewer.companyId) return null
  return { companyId: viewer.companyId }
}

/**
 * The dispatches of a company (`companyId`: its id, or a placeholder for it in a statement kept
 * for reuse), or of every company (undefined: staff), as a WHERE condition; never a dispatch
 * removed upstream.
 */
export function companyScope(companyId: unknown): SQL {
  const present = isNull(dispatch.removedAt)
  return companyId === undefined ? present : and(present, eq(dispatch.destinationId, companyId as string))!
}
