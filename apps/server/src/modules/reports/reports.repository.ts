import { desc, isNotNull, sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import {
  dispatch,
  dispatchAccessDay,
  dispatchRepeatDay,
  dispatchStat,
  dispatchSummaryTotal,
  registration,
} from '../../db/schema'
import { jsonArraySql, jsonObjectSql, readJsonPage, type JsonPage } from '../../db/json-rows'
import type { DayCount } from '../../lib/day-seek'
import { optionalValues, placeholders, runStatement, statementCache, toVersion } from '../../db/statement'
import { matchesTermMatch, nearerEnd, searchedPage, termMatch, type SearchPath } from '../../db/search'
import {
  LEARNER_TEXT,
  ORDER,
  reportChunkQuery,
  whereSql,
  type Cursor,
  type RegistrationFilter,
  type RegistrationInput,
} from './reports.sql'

export type { Cursor, ExportRow, RegistrationFilter, RegistrationRow } from './reports.sql'
export {
  REPORT_SEARCH_COUNT_CAP,
  REPORT_SEARCH_GATHER_ROWS,
  gathersMatches,
  isDaySeekable,
  isKeptFilter,
  keptTotals,
  type ReportTotals,
} from './reports.filters'
import { REPORT_SEARCH_COUNT_CAP, REPORT_SEARCH_GATHER_ROWS, isDayWindow, type ReportTotals } from './reports.filters'

/**
 * A page of the report's own walk (no search) whose offset is at most this many times its size
 * reads its rows from the table as the index walk meets them, offset included: one visit of the
 * table per row. Deeper, the offset is walked over the index alone and the page's rows are read
 * by key (a deferred join), which costs an index descent more per row of the page.
 */
const DIRECT_PAGE_OFFSET = 2

/** The values of the report's statements, as placeholders (db/statement.ts). */
const R = placeholders('dispatchId', 'status', 'from', 'before', 'pattern', 'limit', 'offset', 'walkRows')

/** A filter as a kept statement's input (placeholders), with its values and its shape's key. */
function inputOf(filter: RegistrationFilter) {
  const term = filter.search?.trim()
  const match = term ? termMatch(term) : null
  const given = optionalValues(filter, R, ['status', 'from', 'before'])
  const input: RegistrationInput = {
    dispatchId: R.dispatchId,
    ...given.input,
    repeatLearners: Boolean(filter.repeatLearners),
    search: match && { kind: match.kind, pattern: R.pattern },
  }
  const values = { dispatchId: filter.dispatchId, ...given.values, pattern: match?.pattern }
  const shape = [...given.shape, match?.kind ?? '', Boolean(filter.repeatLearners)]
  return { input, values, shape }
}

/** The UTC day of an instant given as a statement's value. */
const utcDay = (value: unknown) => sql`(cast(${value} as timestamptz) at time zone 'UTC')::date`

/** The dispatch's registration version (migration 0008), as a column of the statement reading its registrations. */
const registrationVersionOf = (dispatchId: unknown) =>
  sql<
    number | null
  >`(select ${dispatchStat.version} from ${dispatchStat} where ${dispatchStat.dispatchId} = ${dispatchId})`

/** Built report statements by shape (db/statement.ts). */
const statements = statementCache(500)

/**
 * The totals of a window of whole UTC days without a search (isDayWindow), from kept counts
 * whatever the dispatch's size: its registrations from the day counts (migration 0041), less
 * `repeated`, what repeat learners count more than once (migration 0042): for each learner in
 * dispatch_repeat_day with registrations in the window, those registrations less one. On a
 * dispatch without repeat learners (registrations = learners) that table is not read. With the
 * repeat-learners filter, the window's rows are that table's alone.
 */
function dayTotalsStatement(input: RegistrationInput, shape: unknown[]) {
  return statements.get(JSON.stringify(['dayTotals', ...shape]), () => {
    const within = (table: typeof dispatchAccessDay | typeof dispatchRepeatDay) => {
      const where = [sql`${table.dispatchId} = ${R.dispatchId}`]
      if (input.status !== undefined) where.push(sql`${table.completionStatus} = ${R.status}`)
      if (input.from !== undefined) where.push(sql`${table.day} >= ${utcDay(R.from)}`)
      if (input.before !== undefined) where.push(sql`${table.day} < ${utcDay(R.before)}`)
      return sql.join(where, sql` and `)
    }
    const version = registrationVersionOf(R.dispatchId)
    if (input.repeatLearners)
      return sql`select coalesce(sum(${dispatchRepeatDay.registrations}), 0)::bigint as "total",
          (coalesce(sum(${dispatchRepeatDay.registrations}), 0) - count(distinct ${dispatchRepeatDay.learnerHash}))::bigint as "repeated",
          ${version} as "version"
        from ${dispatchRepeatDay} where ${within(dispatchRepeatDay)}`
    return sql`select coalesce((select sum(${dispatchAccessDay.registrations}) from ${dispatchAccessDay}
        where ${within(dispatchAccessDay)}), 0)::bigint as "total",
      (case when ${dispatchStat.registrations} = ${dispatchStat.learners} then 0 else (
        select coalesce(sum(${dispatchRepeatDay.registrations}), 0) - count(distinct ${dispatchRepeatDay.learnerHash})
        from ${dispatchRepeatDay} where ${within(dispatchRepeatDay)}) end)::bigint as "repeated",
      ${dispatchStat.version} as "version"
      from (select 1) as "one" left join ${dispatchStat} on ${dispatchStat.dispatchId} = ${R.dispatchId}`
  })
}

/**
 * A page's registrations (joined as `registration`) as the JSON array the answer carries, in the
 * report's order, written by PostgreSQL (db/json-rows.ts): docs/product-decisions.md D25's units, the score 0..1
 * (the provider's scaled score is 0..100) and whole seconds, rounded as Math.round does.
 */
const rowsJsonSql = jsonArraySql(
  jsonObjectSql([
    { key: 'id', value: sql`${registration.id}`, kind: 'text' },
    { key: 'learnerFirstName', value: sql`${registration.learnerFirstName}`, kind: 'text' },
    { key: 'learnerLastName', value: sql`${registration.learnerLastName}`, kind: 'text' },
    { key: 'learnerEmail', value: sql`${registration.learnerEmail}`, kind: 'text' },
    { key: 'completionStatus', value: sql`${registration.completionStatus}`, kind: 'text' },
    { key: 'successStatus', value: sql`${registration.successStatus}`, kind: 'text' },
    { key: 'score', value: sql`${registration.scoreScaled} / 100`, kind: 'json' },
    { key: 'totalTimeTracked', value: sql`floor(${registration.totalSecondsTracked} + 0.5)::bigint`, kind: 'number' },
    { key: 'lastAccessDate', value: sql`${registration.lastAccessDate}`, kind: 'timestamp' },
  ]),
  sql.join(ORDER, sql`, `),
)

export function createReportsRepository(db: DbOrTx) {
  return {
    /** The export's next chunk after `cursor` (reports.sql.ts reportChunkQuery). */
    exportChunk(filter: RegistrationFilter, cursor: Cursor | null, limit: number, walk = false) {
      return reportChunkQuery(db, filter, cursor, limit, walk)
    },

    /**
     * Newest last access first, never-accessed last, then id (indexes registration_report_idx
     * and, with a status, registration_report_status_idx). Deferred join: the offset is walked
     * over the index alone (ids), and only the page's rows are read from the table, each by its
     * key. A shallow page (DIRECT_PAGE_OFFSET) reads its rows as the walk meets them instead. A
     * page in the second half of a known total is walked from the other end (the last page costs
     * what the first does).
     */
    async page(filter: RegistrationFilter, limit: number, offset: number, total: number | null): Promise<JsonPage> {
      const at = nearerEnd(total, limit, offset)
      const walk = at.fromEnd ? [sql`${registration.lastAccessDate} asc nulls first`, desc(registration.id)] : ORDER
      const { input, values, shape } = inputOf(filter)
      const run = { ...values, limit: at.limit, offset: at.offset }
      // A shallow page of the list's own walk reads its rows straight from the index walk.
      const direct = at.offset <= DIRECT_PAGE_OFFSET * at.limit
      const read = async (
        source: SQL | typeof registration,
        where: SQL | undefined,
        path: SearchPath,
        walkRows: number,
      ) => {
        const straight = path === 'list' && direct
        const statement = statements.get(JSON.stringify(['page', ...shape, path, at.fromEnd, straight]), () => {
          if (straight) {
            const rows = sql`(select * from ${registration} where ${where}
              order by ${sql.join(walk, sql`, `)} limit ${R.limit} offset ${R.offset}) as ${registration}`
            return sql`select ${rowsJsonSql} as "rowsJson", count(*) as "rowCount", ${registrationVersionOf(R.dispatchId)} as "version"
              from ${rows}`
          }
          const ids = db
            .select({ id: sql<string>`${registration.id}`.as('page_id') })
            .from(source as typeof registration)
            .where(where)
            .orderBy(...walk)
            .limit(R.limit)
            .offset(R.offset)
            .as('page')
          // The page's rows as JSON, with the dispatch's registration version read in the same
          // statement (the same snapshot).
          return sql`select ${rowsJsonSql} as "rowsJson", count(*) as "rowCount", ${registrationVersionOf(R.dispatchId)} as "version"
            from ${ids} join ${registration} on ${registration.id} = ${ids.id}`
        })
        return readJsonPage(await runStatement(db, statement, { ...run, walkRows }))
      }
      // A search's page as db/search.ts says (searchedPage).
      return searchedPage({
        table: registration,
        term: filter.search?.trim() ?? '',
        total,
        limit,
        offset,
        where: whereSql(input),
        unsearched: () => whereSql({ ...input, search: null }),
        match: () => matchesTermMatch(LEARNER_TEXT, input.search!, { lowered: true }),
        order: ORDER,
        read,
        walkRows: R.walkRows,
        async countWalk(source, walkRows) {
          const statement = statements.get(
            JSON.stringify(['walkCount', ...shape]),
            () => sql`select count(*) as "n" from ${source}`,
          )
          const [row] = await runStatement(db, statement, { ...values, walkRows })
          return Number(row!.n)
        },
      })
    },

    /**
     * A search's totals and page from one gathering of its matches (REPORT_SEARCH_GATHER_ROWS),
     * with the dispatch's registration version, all in one statement. `rowsJson` is null when the
     * matches were more than gathered: the totals are then the cap's, and the page is read with
     * page() as a search past the cap.
     */
    async gather(
      filter: RegistrationFilter,
      limit: number,
      offset: number,
    ): Promise<{ totals: ReportTotals; rowsJson: string | null; version: number | null }> {
      const { input, values, shape } = inputOf(filter)
      const statement = statements.get(
        JSON.stringify(['gather', ...shape]),
        () => sql`
        with "matched" as (
          select ${registration.id} as "id", ${registration.lastAccessDate} as "at", ${registration.learnerHash} as "learner"
          from ${registration} where ${whereSql(input)} limit ${sql.raw(String(REPORT_SEARCH_GATHER_ROWS))})
        select "counts"."n", "counts"."learners", ${registrationVersionOf(R.dispatchId)} as "version",
          (select ${rowsJsonSql}
            from (select "id" from "matched" order by "at" desc nulls last, "id" limit ${R.limit} offset ${R.offset}) as "page"
            join ${registration} on ${registration.id} = "page"."id") as "rowsJson"
        from (select count(*) as "n", count(distinct "learner") as "learners" from "matched") as "counts"`,
      )
      const [row] = await runStatement(db, statement, { ...values, limit, offset })
      const n = Number(row!.n)
      const version = row!.version === null ? null : Number(row!.version)
      const capped = n > REPORT_SEARCH_COUNT_CAP
      const totals = capped
        ? { total: REPORT_SEARCH_COUNT_CAP, distinctLearners: REPORT_SEARCH_COUNT_CAP, capped }
        : { total: n, distinctLearners: Number(row!.learners), capped }
      if (n >= REPORT_SEARCH_GATHER_ROWS) return { totals, rowsJson: null, version }
      return { totals, rowsJson: row!.rowsJson as string, version }
    },

    /**
     * Registrations and distinct learners of a search or a last-access window (a filter without
     * either takes the kept counts: keptTotals), with the dispatch's registration version they
     * were counted at (same statement). A window of whole UTC days reads kept counts
     * (dayTotalsStatement); a search, a pass over its trigram matches (to the cap); another window
     * (not of whole days: no request of the report's own), one index-only pass over the report index.
     */
    async totals(filter: RegistrationFilter): Promise<ReportTotals & { version: number | null }> {
      const { input, values, shape } = inputOf(filter)
      if (isDayWindow(filter)) {
        const [row] = await runStatement(db, dayTotalsStatement(input, shape), values)
        const total = Number(row!.total)
        const version = toVersion(row!.version)
        return { total, distinctLearners: total - Number(row!.repeated), capped: false, version }
      }
      // A search stops at the cap (its matches are row visits). count(distinct) of 8-byte hashes sorts in memory
      // (text keys spilled to disk).
      const statement = statements.get(JSON.stringify(['totals', ...shape]), () => {
        const cap = input.search ? sql` limit ${sql.raw(String(REPORT_SEARCH_COUNT_CAP + 1))}` : sql``
        return sql`select count(*)::bigint as "total", count(distinct "learner")::bigint as "distinctLearners",
            ${registrationVersionOf(R.dispatchId)} as "version"
          from (select ${registration.learnerHash} as "learner" from ${registration} where ${whereSql(input)}${cap}) as "matching"`
      })
      const [row] = await runStatement(db, statement, values)
      const counted = {
        total: Number(row!.total),
        distinctLearners: Number(row!.distinctLearners),
        version: toVersion(row!.version),
      }
      const capped = counted.total > REPORT_SEARCH_COUNT_CAP && Boolean(input.search)
      if (!capped) return { ...counted, capped }
      return {
        total: REPORT_SEARCH_COUNT_CAP,
        distinctLearners: REPORT_SEARCH_COUNT_CAP,
        capped,
        version: counted.version,
      }
    },

    /**
     * The filter's accessed registrations per UTC day of last access, newest day first, from the
     * kept day counts (migration 0041), with whether the dispatch's aggregates wait for their build
     * (a first sync defers them: the counts are then incomplete and must not place a page). For a
     * filter without a search or the repeat-learners filter, whose window is whole UTC days.
     */
    async accessDays(filter: RegistrationFilter): Promise<{ days: DayCount[]; building: boolean }> {
      const { input, values, shape } = inputOf(filter)
      const statement = statements.get(JSON.stringify(['accessDays', ...shape]), () => {
        const where = [
          sql`${dispatchAccessDay.dispatchId} = ${R.dispatchId}`,
          sql`${dispatchAccessDay.registrations} <> 0`,
        ]
        if (input.status !== undefined) where.push(sql`${dispatchAccessDay.completionStatus} = ${R.status}`)
        if (input.from !== undefined) where.push(sql`${dispatchAccessDay.day} >= ${utcDay(R.from)}`)
        if (input.before !== undefined) where.push(sql`${dispatchAccessDay.day} < ${utcDay(R.before)}`)
        return sql`select coalesce((select ${dispatchStat.building} from ${dispatchStat}
            where ${dispatchStat.dispatchId} = ${R.dispatchId}), false) as "building",
          (select coalesce(json_agg(json_build_array("d"."day", "d"."rows") order by "d"."day" desc), '[]')::text
            from (select ${dispatchAccessDay.day}::text as "day", sum(${dispatchAccessDay.registrations})::bigint as "rows"
              from ${dispatchAccessDay} where ${sql.join(where, sql` and `)}
              group by ${dispatchAccessDay.day}) as "d") as "days"`
      })
      const [row] = await runStatement(db, statement, values)
      const days = (JSON.parse(row!.days as string) as [string, number][]).map(([day, rows]) => ({
        day,
        rows: Number(rows),
      }))
      return { days, building: row!.building === true }
    },

    /**
     * Live registration rows (the staff count endpoint): the kept sums of live dispatches
     * (migration 0008) plus the rows of removed dispatches, which are few and indexed.
     */
    async countRegistrations(): Promise<number> {
      const [row] = await db
        .select({
          n: sql<number>`coalesce((select sum(${dispatchSummaryTotal.activeRegistrations}) from ${dispatchSummaryTotal}), 0)
            + coalesce((select sum(${dispatchStat.registrations}) from ${dispatchStat} join ${dispatch} on ${dispatch.id} = ${dispatchStat.dispatchId} where ${isNotNull(dispatch.removedAt)}), 0)`.mapWith(
            Number,
          ),
        })
        .from(sql`(select 1) as one`)
      return row?.n ?? 0
    },
  }
}
export type ReportsRepository = ReturnType<typeof createReportsRepository>
