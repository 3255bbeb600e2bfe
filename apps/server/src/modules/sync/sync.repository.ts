import { asc, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/client'
import { restoreIndexes, setIndexesAside } from '../../db/indexes-aside'
import { rowsOf } from '../../db/statement'
import { company, companyLearnerStat, course, dispatch, dispatchStat, registration } from '../../db/schema'
import type { CompanyRow, CourseRow, DispatchRow, RegistrationRow } from './sync.mapper'
import { uniqueById } from './sync.sql'
import {
  BUILD_TIMEOUT,
  BULK_INDEX_ROWS,
  COMMIT_WITHOUT_WAITING_SQL,
  COPIED_NAMES,
  DEFER_AGGREGATES_SQL,
  DEFER_LEARNERS_SQL,
  INDEX_BUILDS_AT_ONCE,
  STAGED_REGISTRATIONS,
  groupsOf,
  idList,
  newestById,
  stageRegistrations,
  writeCompanies,
  writeCourses,
  writeDispatches,
  writeRegistrations,
  type BulkTable,
} from './sync-writes.sql'

export type { UpsertCounts } from './sync.sql'
export { DEFER_LEARNERS_SQL } from './sync-writes.sql'

/**
 * Mirror writes by provider id. Each method takes the page's transaction; a row seen again
 * clears `removed_at` (the item came back upstream). Portal-owned course columns are never
 * in an INSERT column list or a SET: they keep their defaults or the admin's values.
 */
export function createSyncRepository(db: Db, { bulkIndexRows = BULK_INDEX_ROWS }: { bulkIndexRows?: number } = {}) {
  return {
    /** From how many registrations a first sync fills a table with its indexes set aside. */
    bulkIndexRows,

    /** Sets aside a table's secondary indexes while a first sync fills it (db/indexes-aside.ts). */
    setIndexesAside: (table: BulkTable) => setIndexesAside(db, table),

    /**
     * Builds again the indexes of a table set aside (none: nothing to do), two at a time: a
     * trigram index takes most of the time, and the others are built beside it.
     */
    restoreIndexes: (table: BulkTable) => restoreIndexes(db, table, INDEX_BUILDS_AT_ONCE),

    /** Whether the table holds no row at all (a first sync fills it). */
    async isEmpty(table: BulkTable, tx: DbOrTx = db): Promise<boolean> {
      const [row] = rowsOf<{ empty: boolean }>(
        await tx.execute(sql`select not exists (select 1 from ${sql.identifier(table)}) as empty`),
      )
      return row?.empty === true
    },

    /** Whether the mirror holds at least `n` live registrations (counting no further than `n`). */
    async hasRegistrations(n: number, tx: DbOrTx = db): Promise<boolean> {
      const [row] = rowsOf<{ n: number }>(
        await tx.execute(sql`select count(*)::int as n from (
          select 1 from ${registration} where ${registration.removedAt} is null limit ${n}) as r`),
      )
      return Number(row?.n ?? 0) >= n
    },

    upsertCourses: (rows: CourseRow[], tx: DbOrTx = db) => writeCourses(tx, uniqueById(rows)),

    upsertCompanies: (rows: CompanyRow[], tx: DbOrTx = db) => writeCompanies(tx, uniqueById(rows)),

    /**
     * Rows must carry their final course title and destination name (see the service's fallbacks).
     * A copy older (by the provider's `updated`) than the stored row changes nothing.
     * Where an incoming cap, expiry, enabled flag or counter reset differs from the mirror, the
     * dispatch history triggers (migration 0036) record it in this transaction: as found upstream
     * by the sync, unless the caller named another actor (db/change-actor.ts).
     */
    upsertDispatches: (rows: (DispatchRow & { courseTitle: string; destinationName: string })[], tx: DbOrTx = db) =>
      writeDispatches(tx, uniqueById(rows)),

    /**
     * Keeps the newest state per registration (docs/architecture.md "Postback webhook"): the stored
     * row is replaced only when the incoming (instance, updated) is newer or equal AND some
     * content differs, so a repeated or older copy (sync or postback) changes nothing.
     */
    upsertRegistrations: (rows: (RegistrationRow & { courseId: string })[], tx: DbOrTx = db) =>
      writeRegistrations(tx, newestById(rows)),

    /** The same rules as upsertRegistrations, into the staging table of a first full listing. */
    stageRegistrations: (rows: (RegistrationRow & { courseId: string })[], tx: DbOrTx = db) =>
      stageRegistrations(tx, newestById(rows)),

    /**
     * Whether a registration listing stages its pages (migration 0045): a full one into an empty
     * mirror (a first sync), or any listing while rows of a stopped one wait to be moved.
     */
    async stagesRegistrations(full: boolean, tx: DbOrTx = db): Promise<boolean> {
      const result = (await tx.execute(sql`
        select exists (select 1 from ${sql.identifier(STAGED_REGISTRATIONS)})
          or (${full} and not exists (select 1 from ${registration})) as staged`)) as unknown as {
        rows: { staged: boolean }[]
      }
      return result.rows[0]?.staged === true
    },

    /**
     * The staged registrations' dispatches, in id order, in groups of about AGGREGATE_BUILD_ROWS
     * rows, and how many rows in all. Read once before the move: the listing leaves the staging
     * table's statistics alone (db/statistics.ts), and the move's look-ups by dispatch want them.
     */
    async stagedGroups(tx: DbOrTx = db): Promise<{ groups: string[][]; rows: number }> {
      const perDispatch = rowsOf<{ id: string; n: number }>(
        await tx.execute(sql`
          select dispatch_id as id, count(*)::int as n from ${sql.identifier(STAGED_REGISTRATIONS)}
          group by dispatch_id order by dispatch_id`),
      )
      if (perDispatch.length > 0) await tx.execute(sql`analyze ${sql.identifier(STAGED_REGISTRATIONS)}`)
      return { groups: groupsOf(perDispatch), rows: perDispatch.reduce((sum, r) => sum + Number(r.n), 0) }
    },

    /**
     * Empties the staging table once every staged row has moved. Its rows were deleted group by
     * group, and until vacuumed their space is still read by every look at the table (the next
     * run's "is anything staged?" would read a million dead rows); only the sync writes it.
     */
    async clearStaged(): Promise<void> {
      await db.execute(sql`truncate ${sql.identifier(STAGED_REGISTRATIONS)}`)
    },

    /**
     * Moves the staged registrations of these dispatches into the mirror, in one transaction, in
     * the report index's order, by the mirror's upsert: a copy a postback wrote meanwhile is kept
     * when it is newer. The aggregates are deferred as the listing's pages defer them.
     */
    async moveStaged(dispatchIds: string[]): Promise<number> {
      return db.transaction(async (tx) => {
        await tx.execute(COMMIT_WITHOUT_WAITING_SQL)
        await tx.execute(DEFER_AGGREGATES_SQL)
        const written = await writeRegistrations.upsertFrom(tx, {
          table: STAGED_REGISTRATIONS,
          where: sql`dispatch_id in ${idList(dispatchIds)}`,
          orderBy: '"dispatch_id", "last_access_date" desc nulls last, "id"',
        })
        await tx.execute(
          sql`delete from ${sql.identifier(STAGED_REGISTRATIONS)} where dispatch_id in ${idList(dispatchIds)}`,
        )
        return written
      })
    },

    /**
     * Placeholder rows so a dispatch's foreign keys hold before its course or destination is
     * mirrored; the next course or destination sync fills them in. Existing rows are untouched.
     */
    async ensureCourseStubs(stubs: { id: string; title: string }[], tx: DbOrTx = db): Promise<void> {
      if (stubs.length === 0) return
      await tx.insert(course).values(uniqueById(stubs)).onConflictDoNothing({ target: course.id })
    },

    async ensureCompanyStubs(stubs: { id: string; name: string }[], tx: DbOrTx = db): Promise<void> {
      if (stubs.length === 0) return
      await tx.insert(company).values(uniqueById(stubs)).onConflictDoNothing({ target: company.id })
    },

    async courseTitles(ids: string[], tx: DbOrTx = db): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map()
      const rows = await tx.select({ id: course.id, title: course.title }).from(course).where(inArray(course.id, ids))
      return new Map(rows.map((r) => [r.id, r.title]))
    },

    async companyNames(ids: string[], tx: DbOrTx = db): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map()
      const rows = await tx.select({ id: company.id, name: company.name }).from(company).where(inArray(company.id, ids))
      return new Map(rows.map((r) => [r.id, r.name]))
    },

    /** Course id of each mirrored dispatch among `ids` (removed ones included: their history stays). */
    async dispatchCourses(ids: string[], tx: DbOrTx = db): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map()
      const rows = await tx
        .select({ id: dispatch.id, courseId: dispatch.courseId })
        .from(dispatch)
        .where(inArray(dispatch.id, [...new Set(ids)]))
      return new Map(rows.map((r) => [r.id, r.courseId]))
    },

    /**
     * A course or destination (company) renamed upstream: the dispatch rows that copy its name
     * (for the list's sort and search) take the new one in the same transaction. The dispatch's
     * own `updated` does not move on a rename, so an incremental dispatch listing would not bring it.
     */
    async refreshCopiedNames(of: keyof typeof COPIED_NAMES, ids: string[], tx: DbOrTx = db): Promise<number> {
      if (ids.length === 0) return 0
      const { source, name, key, copy } = COPIED_NAMES[of]
      const rows = (await tx.execute(sql`
      update ${dispatch} d set ${copy} = c.${name} from ${source} c
      where c.id = d.${key} and c.id in ${idList(ids)}
        and d.${copy} is distinct from c.${name}
      returning d.id`)) as unknown as { rows: unknown[] }
      return rows.rows.length
    },

    /** Per company with a live capped dispatch: the sum of its live dispatches' registration counters. */
    async counterSums(tx: DbOrTx = db): Promise<Map<string, number>> {
      const rows = await tx
        .select({ id: dispatch.destinationId, sum: sql<number>`sum(${dispatch.registrationCount})::int` })
        .from(dispatch)
        .where(isNull(dispatch.removedAt))
        .groupBy(dispatch.destinationId)
        .having(sql`bool_or(${dispatch.registrationCap} > 0)`)
      return new Map(rows.map((r) => [r.id, Number(r.sum)]))
    },

    /** docs/product-rules.md §7 courseCount: courses in the mirror, visible or not, not removed upstream. */
    async countCourses(tx: DbOrTx = db): Promise<number> {
      const [row] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(course)
        .where(isNull(course.removedAt))
      return row?.n ?? 0
    },

    /**
     * A page's commit need not wait for the disk: the kind's last transaction commits
     * synchronously, which flushes the WAL of every page before it (sync-kind-run.ts).
     */
    async commitWithoutWaiting(tx: DbOrTx): Promise<void> {
      await tx.execute(COMMIT_WITHOUT_WAITING_SQL)
    },

    /** This page's transaction defers the learner aggregate of companies without one (DEFER_LEARNERS_SQL). */
    async deferLearners(tx: DbOrTx): Promise<void> {
      await tx.execute(DEFER_LEARNERS_SQL)
    },

    /** This page's transaction defers the learner and dispatch aggregates (DEFER_AGGREGATES_SQL). */
    async deferAggregates(tx: DbOrTx): Promise<void> {
      await tx.execute(DEFER_AGGREGATES_SQL)
    },

    /**
     * The dispatches whose aggregates are marked `building`, in id order, in groups of about
     * AGGREGATE_BUILD_ROWS live registrations (each group one build transaction).
     */
    async dispatchesAwaitingAggregates(tx: DbOrTx = db): Promise<string[][]> {
      const result = (await tx.execute(sql`
        select s.dispatch_id as id, count(r.id)::int as n
        from ${dispatchStat} s left join ${registration} r on r.dispatch_id = s.dispatch_id and r.removed_at is null
        where s.building
        group by s.dispatch_id
        order by s.dispatch_id`)) as unknown as { rows: { id: string; n: number }[] }
      return groupsOf(result.rows)
    },

    /** Builds the aggregates of these dispatches (dispatch_aggregates_build) in a transaction of its own. */
    async buildDispatchAggregates(dispatchIds: string[]): Promise<number> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('statement_timeout', ${BUILD_TIMEOUT}, true)`)
        const result = (await tx.execute(
          sql`select dispatch_aggregates_build(array(select jsonb_array_elements_text(${JSON.stringify(dispatchIds)}::jsonb))) as n`,
        )) as unknown as { rows: { n: number }[] }
        return Number(result.rows[0]?.n ?? 0)
      })
    },

    /** Companies whose learner aggregate is marked `building`, in id order. */
    async companiesAwaitingLearners(tx: DbOrTx = db): Promise<string[]> {
      const waiting = await tx
        .select({ companyId: companyLearnerStat.companyId })
        .from(companyLearnerStat)
        .where(eq(companyLearnerStat.building, true))
        .orderBy(asc(companyLearnerStat.companyId))
      return waiting.map((r) => r.companyId)
    },

    /** Builds one company's learner aggregate (company_learner_build) in a transaction of its own. */
    async buildCompanyLearners(companyId: string): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('statement_timeout', ${BUILD_TIMEOUT}, true)`)
        await tx.execute(sql`select company_learner_build(${companyId})`)
      })
    },
  }
}
export type SyncRepository = ReturnType<typeof createSyncRepository>
