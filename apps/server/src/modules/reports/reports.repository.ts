import { and, asc, eq, gte, ilike, isNull, lt, or, sql, type SQL } from 'drizzle-orm'
import type { CompletionStatus } from '@portal/shared'
import type { DbOrTx } from '../../db/client'
import { dispatch, registration } from '../../db/schema'
import { containsPattern } from '../dispatches/dispatches.repository'

export interface RegistrationFilter {
  dispatchId: string
  search?: string | undefined
  status?: CompletionStatus | undefined
  /** Last access at or after this instant. */
  from?: Date | undefined
  /** Last access strictly before this instant (the day after the inclusive end day). */
  before?: Date | undefined
}

export interface ReportTotals {
  total: number
  distinctLearners: number
}

export interface RegistrationRow {
  id: string
  learnerFirstName: string
  learnerLastName: string
  learnerEmail: string
  completionStatus: string
  successStatus: string
  scoreScaled: number | null
  totalSecondsTracked: number
  lastAccessDate: Date | null
}

function whereOf(filter: RegistrationFilter): SQL {
  const conditions = [eq(registration.dispatchId, filter.dispatchId), isNull(registration.removedAt)]
  const term = filter.search?.trim()
  if (term) {
    const pattern = containsPattern(term)
    conditions.push(
      or(
        ilike(registration.learnerFirstName, pattern),
        ilike(registration.learnerLastName, pattern),
        ilike(sql`${registration.learnerFirstName} || ' ' || ${registration.learnerLastName}`, pattern),
        ilike(registration.learnerEmail, pattern),
      )!,
    )
  }
  if (filter.status) conditions.push(eq(registration.completionStatus, filter.status))
  if (filter.from) conditions.push(gte(registration.lastAccessDate, filter.from))
  if (filter.before) conditions.push(lt(registration.lastAccessDate, filter.before))
  return and(...conditions)!
}

/**
 * One learner: the email, case-insensitively, when the provider sent one, else the learner id.
 * The prefixes keep an id from ever equalling an email.
 */
const learnerKey = sql`case when ${registration.learnerEmail} <> '' then 'e:' || lower(${registration.learnerEmail}) else 'i:' || ${registration.learnerId} end`

/** The dispatch's registration version (migration 0007), as a column of the statement reading its registrations. */
const registrationVersionOf = (dispatchId: string) =>
  sql<
    number | null
  >`(select ${dispatch.registrationVersion} from ${dispatch} where ${dispatch.id} = ${dispatchId})`.mapWith(Number)

export function createReportsRepository(db: DbOrTx) {
  return {
    /**
     * Newest last access first, never-accessed last, then id (indexes registration_dispatch_last_access_idx
     * and, with a status, registration_report_status_idx). Deferred join: the offset is walked
     * over the index alone (ids), and only the page's rows are read from the table.
     */
    async page(
      filter: RegistrationFilter,
      limit: number,
      offset: number,
    ): Promise<{ rows: RegistrationRow[]; version: number | null }> {
      const order = [sql`${registration.lastAccessDate} desc nulls last`, asc(registration.id)]
      const ids = db
        .select({ id: sql<string>`${registration.id}`.as('page_id') })
        .from(registration)
        .where(whereOf(filter))
        .orderBy(...order)
        .limit(limit)
        .offset(offset)
        .as('page')
      const found = await db
        .select({
          id: registration.id,
          learnerFirstName: registration.learnerFirstName,
          learnerLastName: registration.learnerLastName,
          learnerEmail: registration.learnerEmail,
          completionStatus: registration.completionStatus,
          successStatus: registration.successStatus,
          scoreScaled: registration.scoreScaled,
          totalSecondsTracked: registration.totalSecondsTracked,
          lastAccessDate: registration.lastAccessDate,
          version: registrationVersionOf(filter.dispatchId),
        })
        .from(ids)
        .innerJoin(registration, eq(registration.id, ids.id))
        .orderBy(...order)
      // The dispatch's registration version, read in the same statement (an empty page has none).
      return {
        rows: found.map(({ version: _version, ...row }) => row),
        version: found[0]?.version ?? null,
      }
    },

    /** With the dispatch's registration version they were counted at (same statement). */
    async totals(filter: RegistrationFilter): Promise<ReportTotals & { version: number | null }> {
      const [row] = await db
        .select({
          total: sql<number>`count(*)::bigint`.mapWith(Number),
          distinctLearners: sql<number>`count(distinct ${learnerKey})::bigint`.mapWith(Number),
          version: registrationVersionOf(filter.dispatchId),
        })
        .from(registration)
        .where(whereOf(filter))
      return row!
    },

    /**
     * Non-removed registration rows, from the trigger-kept per-dispatch counters (migration
     * 0002): every registration has a dispatch row (foreign key), removed dispatches included.
     */
    async countRegistrations(): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`coalesce(sum(${dispatch.activeRegistrationCount}), 0)::bigint`.mapWith(Number) })
        .from(dispatch)
      return row?.n ?? 0
    },
  }
}
export type ReportsRepository = ReturnType<typeof createReportsRepository>
