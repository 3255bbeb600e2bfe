import { sql } from 'drizzle-orm'
import { appUser, company } from './schema'

/**
 * Column sets more than one module reads (shared SQL lives in db/, not in another
 * module's repository).
 */

/** docs/product-rules.md §2 Companies: the portal's name is an admin's rename, else the provider's. */
export const companyShownName = sql<string>`coalesce(${company.displayName}, ${company.name})`

/** The docs/product-rules.md §3 user, as the users screens read it (plugins/app/auth.ts's session check reads the same). */
export const userColumns = {
  id: appUser.id,
  email: appUser.email,
  username: appUser.username,
  name: appUser.name,
  role: appUser.role,
  companyId: appUser.companyId,
  // An admin's company rename (display_name) wins over the provider's name; null
  // without a company (the session check's left join).
  companyName: sql<string | null>`${companyShownName}`,
  status: appUser.status,
  createdAt: appUser.createdAt,
  lastLogin: appUser.lastLogin,
}
