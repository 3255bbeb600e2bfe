import { sql } from 'drizzle-orm'
import { appUser, company, registration } from './schema'

/**
 * Column sets more than one module reads (shared SQL lives in db/, not in another
 * module's repository).
 */

/** docs/product-rules.md §2 Companies: the portal's name is an admin's rename, else the provider's. */
export const companyShownName = sql<string>`coalesce(${company.displayName}, ${company.name})`

/** The docs/product-rules.md §3 user, as the users screens read it (db/session-user.ts, the session check, reads the same). */
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

/** A registration's progress columns (the report's export, and a learner's registrations in the learner view). */
export const progressColumns = {
  completionStatus: registration.completionStatus,
  successStatus: registration.successStatus,
  scoreScaled: registration.scoreScaled,
  totalSecondsTracked: registration.totalSecondsTracked,
  firstAccessDate: registration.firstAccessDate,
  lastAccessDate: registration.lastAccessDate,
  completedDate: registration.completedDate,
}

/** A user as a picker or a company's user list shows it: who, and with which role. */
export const userOptionColumns = {
  id: appUser.id,
  name: appUser.name,
  username: appUser.username,
  email: appUser.email,
  role: appUser.role,
}
