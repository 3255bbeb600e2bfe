import { and, asc, desc, eq, isNull, ne, sql, type SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { DbOrTx } from '../../db/client'
import { companyShownName as shownName, userOptionColumns } from '../../db/columns'
import { firstRow } from '../../db/first-row'
import { appUser, company, courseRequest, dispatch, syncRun } from '../../db/schema'

const manager = alias(appUser, 'manager')
const count = (expr: SQL.Aliased<number> | SQL) => sql<number>`coalesce(${expr}, 0)::int`.mapWith(Number)

export interface CompanyRow {
  id: string
  name: string
  providerName: string
  displayName: string | null
  accountManagerId: string | null
  accountManagerName: string | null
  accountManagerUsername: string | null
  accountManagerEmail: string | null
}

export interface CompanyListRow extends CompanyRow {
  users: number
  courseRequests: number
  dispatches: number
}

const rowColumns = {
  id: company.id,
  name: shownName,
  providerName: company.name,
  displayName: company.displayName,
  accountManagerId: company.accountManagerId,
  accountManagerName: manager.name,
  accountManagerUsername: manager.username,
  accountManagerEmail: manager.email,
}

export interface CompanyChanges {
  displayName?: string | null
  accountManagerId?: string | null
}

export function createCompaniesRepository(db: DbOrTx) {
  return {
    /**
     * Every present company with its counts, in ONE statement: each count is a grouped
     * subquery joined once (no query per company), over indexed foreign keys. The count
     * aliases differ because Drizzle writes a subquery's alias unqualified in the outer select.
     */
    async list(where?: SQL): Promise<CompanyListRow[]> {
      const users = db
        .select({ companyId: appUser.companyId, n: sql<number>`count(*)`.as('user_count') })
        .from(appUser)
        .groupBy(appUser.companyId)
        .as('user_counts')
      const requests = db
        .select({ companyId: courseRequest.companyId, n: sql<number>`count(*)`.as('request_count') })
        .from(courseRequest)
        .groupBy(courseRequest.companyId)
        .as('request_counts')
      const dispatches = db
        .select({ companyId: dispatch.destinationId, n: sql<number>`count(*)`.as('dispatch_count') })
        .from(dispatch)
        .where(isNull(dispatch.removedAt))
        .groupBy(dispatch.destinationId)
        .as('dispatch_counts')
      return db
        .select({
          ...rowColumns,
          users: count(users.n),
          courseRequests: count(requests.n),
          dispatches: count(dispatches.n),
        })
        .from(company)
        .leftJoin(manager, eq(manager.id, company.accountManagerId))
        .leftJoin(users, eq(users.companyId, company.id))
        .leftJoin(requests, eq(requests.companyId, company.id))
        .leftJoin(dispatches, eq(dispatches.companyId, company.id))
        .where(and(isNull(company.removedAt), where))
        .orderBy(asc(sql`lower(${shownName})`), asc(company.id))
    },

    async listOne(id: string): Promise<CompanyListRow | null> {
      const [row] = await this.list(eq(company.id, id))
      return row ?? null
    },

    /** A present company (a removed one is gone from the portal's screens). */
    async findById(id: string, tx: DbOrTx = db): Promise<CompanyRow | null> {
      return firstRow(
        tx
          .select(rowColumns)
          .from(company)
          .leftJoin(manager, eq(manager.id, company.accountManagerId))
          .where(and(eq(company.id, id), isNull(company.removedAt))),
      )
    },

    async users(companyId: string) {
      return db
        .select(userOptionColumns)
        .from(appUser)
        .where(eq(appUser.companyId, companyId))
        .orderBy(asc(sql`lower(coalesce(${appUser.name}, ${appUser.email}))`), asc(appUser.id))
    },

    async courseRequests(companyId: string) {
      return db
        .select({
          id: courseRequest.id,
          courseTitle: courseRequest.courseTitle,
          requestedBy: courseRequest.requestorName,
          licenses: courseRequest.licenses,
          status: courseRequest.status,
          createdAt: courseRequest.createdAt,
        })
        .from(courseRequest)
        .where(eq(courseRequest.companyId, companyId))
        .orderBy(desc(courseRequest.createdAt), desc(courseRequest.id))
    },

    async dispatches(companyId: string) {
      return db
        .select({
          id: dispatch.id,
          courseId: dispatch.courseId,
          courseTitle: dispatch.courseTitle,
          created: dispatch.providerCreated,
          expirationDate: dispatch.expirationDate,
          licensesUsed: dispatch.registrationCount,
          licensesTotal: dispatch.registrationCap,
        })
        .from(dispatch)
        .where(and(eq(dispatch.destinationId, companyId), isNull(dispatch.removedAt)))
        .orderBy(asc(sql`lower(${dispatch.courseTitle})`), asc(dispatch.id))
    },

    /** A user who may manage accounts: an active sales user (docs/product-rules.md §6), by id or email. */
    async findActiveSalesUser(by: { id: string } | { email: string }) {
      const match = 'id' in by ? eq(appUser.id, by.id) : eq(sql`lower(${appUser.email})`, by.email.trim().toLowerCase())
      return firstRow(
        db
          .select({ id: appUser.id, email: appUser.email })
          .from(appUser)
          .where(and(match, eq(appUser.role, 'sales'), eq(appUser.status, 'active'))),
      )
    },

    async update(id: string, changes: CompanyChanges, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(company)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(company.id, id))
    },

    /** The last finished dispatch sync, and when one last succeeded (the mirror's age). */
    async dispatchSyncHealth(): Promise<{ lastStatus: string | null; lastSucceededAt: Date | null }> {
      const finished = and(eq(syncRun.kind, 'dispatches'), ne(syncRun.status, 'running'))
      const [last] = await db
        .select({ status: syncRun.status })
        .from(syncRun)
        .where(finished)
        .orderBy(desc(syncRun.startedAt))
        .limit(1)
      const [ok] = await db
        .select({ at: syncRun.finishedAt })
        .from(syncRun)
        .where(and(eq(syncRun.kind, 'dispatches'), eq(syncRun.status, 'succeeded')))
        .orderBy(desc(syncRun.startedAt))
        .limit(1)
      return { lastStatus: last?.status ?? null, lastSucceededAt: ok?.at ?? null }
    },
  }
}
export type CompaniesRepository = ReturnType<typeof createCompaniesRepository>
