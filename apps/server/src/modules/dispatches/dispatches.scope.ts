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
  const present = isNull(dispatch.removedAt)
  if (!ownCompanyOnly(viewer.role)) return present
  if (!viewer.companyId) return null
  return and(present, eq(dispatch.destinationId, viewer.companyId))!
}
