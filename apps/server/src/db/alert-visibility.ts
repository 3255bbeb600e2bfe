import { ownCompanyOnly } from '@portal/shared'
import { sql, type SQL } from 'drizzle-orm'
import type { Viewer } from '../lib/viewer'

/**
 * The alerts a viewer may see, as a condition on an alert row (`column`: its company): staff see
 * all, a client its company's, a client without a company none. The notifications (modules/alerts)
 * and the weekly digest (modules/mail) read alerts through it.
 */
export const visibleTo = (viewer: Viewer, column: SQL = sql`a.company_id`): SQL => {
  if (!ownCompanyOnly(viewer.role)) return sql`true`
  return viewer.companyId ? sql`${column} = ${viewer.companyId}` : sql`false`
}
