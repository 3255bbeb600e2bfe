import { and, eq, isNull, type SQL } from 'drizzle-orm'
import { ownCompanyOnly, type Role } from '@portal/shared'
import { dispatch } from '../../db/schema'

export interface Viewer {
  role: Role
  companyId: string | null
}

/**
 * The dispatches a caller may see, as a WHERE condition, so scoping happens in the query and
 * never after it (SPEC §6, DECISIONS.md): staff see every dispatch, a client only its own
 * company's, and nobody sees a dispatch removed upstream. `null` means "nothing at all" (a
 * client without a company): callers answer empty without querying.
 */
export function dispatchScope(viewer: Viewer): SQL | null {
  const scoped = scopeCompany(viewer)
  return scoped && companyScope(scoped.companyId)
}

/**
 * Whose dispatches a caller may see, as the company to scope to: undefined for staff (every
 * company), a client's own company, or `null` (nothing: a client without a company). The list
 * builds its statements from this (companyScope), with the company as a value.
 */
export function scopeCompany(viewer: Viewer): { companyId: string | undefined } | null {
  if (!ownCompanyOnly(viewer.role)) return { companyId: undefined }
  if (!viewer.companyId) return null
  return { companyId: viewer.companyId }
}

/**
 * The same condition for a company's dispatches (`companyId`: its id, or a placeholder for it in
 * a statement kept for reuse), or every company's (undefined: staff).
 */
export function companyScope(companyId: unknown): SQL {
  const present = isNull(dispatch.removedAt)
  return companyId === undefined ? present : and(present, eq(dispatch.destinationId, companyId as string))!
}
