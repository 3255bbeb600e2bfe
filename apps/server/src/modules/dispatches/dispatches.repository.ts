import { asc, eq, isNull, sql } from 'drizzle-orm'
import type { DispatchListQuery } from '@portal/shared'
import type { DbOrTx } from '../../db/client'
import { company, course, dispatch, dispatchStat } from '../../db/schema'
import { jsonArrayText } from '../../db/json-rows'
import { runStatement, toVersion } from '../../db/statement'
import type { KeptRegistrationStats } from '../../db/dispatch-stats'
import type { DispatchRow, SummaryRow } from './dispatches.mapper'
import {
  companyScope,
  inputOf,
  ownSummarySql,
  P,
  pageSql,
  pageStatement,
  rowColumns,
  rowsJsonSql,
  SHALLOW_PAGE_END,
  SORT_KEYS,
  statements,
  type DispatchFilter,
  type RowFields,
} from './dispatches-page.sql'
import type { SearchSets } from '../../db/dispatch-search'
import { keptSummarySql, staffSearchSummarySql } from './dispatches-summary.sql'

export type { DispatchFilter } from './dispatches-page.sql'
export { SHALLOW_PAGE_END } from './dispatches-page.sql'

/** Provider-owned columns an admin edit can change (docs/product-decisions.md D4: provider first, then mirror). */
export type MirrorUpdate = Partial<
  Pick<
    typeof dispatch.$inferInsert,
    | 'enabled'
    | 'allowNewRegistrations'
    | 'instanced'
    | 'registrationCount'
    | 'registrationCap'
    | 'expirationDate'
    | 'tags'
    | 'notes'
    | 'providerUpdated'
    | 'registrationResetDate'
  >
>

/** dispatch_stat's kept counts as findVisible reads them (prefixed: they share its row), and their keys. */
const STAT_COLUMNS = {
  statRegistrations: dispatchStat.registrations,
  statLearners: dispatchStat.learners,
  statCompleted: dispatchStat.completed,
  statLearnersCompleted: dispatchStat.learnersCompleted,
  statIncomplete: dispatchStat.incomplete,
  statLearnersIncomplete: dispatchStat.learnersIncomplete,
  statNotAttempted: dispatchStat.notAttempted,
  statLearnersNotAttempted: dispatchStat.learnersNotAttempted,
}
const STAT_KEYS: Record<string, keyof KeptRegistrationStats> = {
  statRegistrations: 'registrations',
  statLearners: 'learners',
  statCompleted: 'completed',
  statLearnersCompleted: 'learnersCompleted',
  statIncomplete: 'incomplete',
  statLearnersIncomplete: 'learnersIncomplete',
  statNotAttempted: 'notAttempted',
  statLearnersNotAttempted: 'learnersNotAttempted',
}

export interface ListFacts {
  summary: SummaryRow
  /** The version the page cache of this filter hangs on (see versionSql). */
  version: number | null
  /** The course and company ids a search matched (null without a search). */
  sets: SearchSets | null
  /** Live dispatches of the scope and status, search aside. */
  scopeDispatches: number
}

export interface DispatchesRepositoryOptions {
  /**
   * Search statements hand their values to PostgreSQL inside sub-selects, which the planner does
   * not look into, so they plan alike for every term and page and a prepared statement reuses
   * one generic plan after five runs (MatchOptions.opaque). On PostgreSQL only: on PGlite, when
   * it still planned every statement afresh, hidden values made the staff list slower
   * (bench/results/history.md), and since it keeps statements prepared too (db/driver.ts) they
   * made no measurable difference there.
   */
  reusePlans?: boolean
}

export function createDispatchesRepository(db: DbOrTx, options: DispatchesRepositoryOptions = {}) {
  const opaque = options.reusePlans === true
  return {
    /**
     * Everything about a filter but its page, in one statement: the summary cards (kept
     * per-company and per-course sums), the version, and what a search matched.
     */
    async facts(filter: DispatchFilter): Promise<ListFacts> {
      const { input, values, shape } = inputOf(filter)
      if (!input.search) {
        const statement = statements.get(JSON.stringify(['kept', ...shape]), () => keptSummarySql(input))
        const [row] = await runStatement(db, statement, values)
        const summary = toSummaryRow(row)
        return { summary, version: toVersion(row?.version), sets: null, scopeDispatches: summary.totalDispatches }
      }
      // A client's search looks its courses and company up inline (ownSearchSql); a staff
      // search's look-up is part of its summary statement, which hands the matches on.
      const own = filter.companyId !== undefined
      const search = input.search
      const statement = statements.get(JSON.stringify(['facts', opaque, ...shape]), () =>
        own ? ownSummarySql(input, opaque) : staffSearchSummarySql(input, search, { opaque }),
      )
      const [row] = await runStatement(db, statement, values)
      return {
        summary: toSummaryRow(row),
        version: toVersion(row?.version),
        sets: own ? null : toSets(row as { courses: string[]; companies: string[] } | undefined),
        scopeDispatches: num(row?.scopeDispatches),
      }
    },

    /**
     * One page, with the version it was read at (same statement, so the same snapshot; a page
     * past the end has no row and reads none). See pageSql.
     */
    async page(
      ...args: Parameters<typeof pageStatement> extends [boolean, ...infer Rest] ? Rest : never
    ): Promise<{ rowsJson: string; version: number | null }> {
      const { statement, values } = pageStatement(opaque, ...args)
      const [row] = await runStatement(db, statement, values)
      return { rowsJson: jsonArrayText(row?.rowsJson), version: toVersion(row?.dataVersion) }
    },

    /**
     * A staff page near the start of the unsearched list with its summary cards and version, in
     * one statement: such a page is walked from the start whatever the total, so it
     * need not wait for the summary, and the request makes one round trip to the database
     * instead of two. (A client's list keeps two statements: its page alone reuses a generic
     * plan, which a statement with the summary would not.)
     */
    async summaryAndPage(
      fields: RowFields,
      filter: DispatchFilter,
      sort: DispatchListQuery['sort'],
      order: DispatchListQuery['order'],
      limit: number,
      offset: number,
    ): Promise<{ summary: SummaryRow; version: number | null; rowsJson: string }> {
      const { input, values, shape } = inputOf(filter)
      const key = ['summaryAndPage', opaque, ...shape, sort, order, fields.key]
      const statement = statements.get(JSON.stringify(key), () => {
        const page = pageSql(opaque, input, sort, order, { by: 'walk', fromEnd: false, within: SHALLOW_PAGE_END })
        return sql`
          select "summary".*, "rows"."rowsJson" from (${keptSummarySql(input)}) as "summary"
          cross join lateral (${rowsJsonSql(page, SORT_KEYS[sort].length, fields, order)}) as "rows"`
      })
      const [first] = await runStatement(db, statement, { ...values, limit, offset })
      return {
        summary: toSummaryRow(first),
        version: toVersion(first?.version),
        rowsJson: jsonArrayText(first?.rowsJson),
      }
    },

    /**
     * The dispatch if it is present and the company may see it (companyId: a client's; undefined
     * for staff), with its course's app source and its kept registration counts; built once per
     * scope (db/statement.ts), as every report, chart and details request reads it first.
     */
    async findVisible(id: string, companyId: string | undefined): Promise<DispatchRow | null> {
      const own = companyId !== undefined
      const statement = statements.get(JSON.stringify(['visible', own]), () => {
        const columns = Object.entries(rowColumns).map(([name, column]) => sql`${column} as ${sql.identifier(name)}`)
        const stats = Object.entries(STAT_COLUMNS).map(([name, column]) => sql`${column} as ${sql.identifier(name)}`)
        return sql`select ${sql.join([...columns, ...stats], sql`, `)}, ${course.appSource} as "appSource",
            coalesce(${dispatchStat.version}, 0) as "registrationVersion"
          from ${dispatch}
          left join ${course} on ${course.id} = ${dispatch.courseId}
          left join ${dispatchStat} on ${dispatchStat.dispatchId} = ${dispatch.id}
          where ${dispatch.id} = ${P.id} and ${companyScope(own ? P.companyId : undefined)}
          limit 1`
      })
      const [row] = await runStatement(db, statement, { id, companyId })
      if (!row) return null
      const dispatchRow: Record<string, unknown> = { appSource: row.appSource ?? null }
      for (const name of Object.keys(rowColumns)) dispatchRow[name] = row[name]
      dispatchRow.registrationVersion = Number(row.registrationVersion)
      // No counts before the dispatch's first registration (left join: all null).
      dispatchRow.registrationStats =
        row.statRegistrations === null || row.statRegistrations === undefined
          ? null
          : Object.fromEntries(Object.keys(STAT_COLUMNS).map((name) => [STAT_KEYS[name], Number(row[name])]))
      return dispatchRow as unknown as DispatchRow
    },

    /** Writes the provider's state of an edited dispatch (the update service's re-read). */
    async updateMirror(id: string, values: MirrorUpdate, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(dispatch)
        .set({ ...values, syncedAt: new Date() })
        .where(eq(dispatch.id, id))
    },

    /** docs/product-rules.md §7 destinations: companies still present upstream, by name. */
    async destinations(): Promise<{ id: string; name: string }[]> {
      return db
        .select({ id: company.id, name: company.name })
        .from(company)
        .where(isNull(company.removedAt))
        .orderBy(asc(sql`lower(${company.name})`), asc(company.id))
    },
  }
}
export type DispatchesRepository = ReturnType<typeof createDispatchesRepository>

const num = (value: unknown) => (value === null || value === undefined ? 0 : Number(value))

function toSummaryRow(row: Record<string, unknown> | undefined): SummaryRow {
  return {
    totalDispatches: num(row?.totalDispatches),
    activeDispatches: num(row?.activeDispatches),
    registrations: num(row?.registrations),
    cappedRegistrations: num(row?.cappedRegistrations),
    cappedCapacity: num(row?.cappedCapacity),
    unlimitedActive: num(row?.unlimitedActive),
    activeRegistrations: num(row?.activeRegistrations),
  }
}

/** Both drivers hand text[] back as arrays. */
function toSets(row: { courses: string[]; companies: string[] } | undefined): SearchSets {
  return { courses: row?.courses ?? [], companies: row?.companies ?? [] }
}
