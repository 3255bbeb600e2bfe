import { and, asc, eq, isNull, or, sql, type SQL } from 'drizzle-orm'
import type { DispatchListQuery } from '@portal/shared'
import type { DbOrTx } from '../../db/client'
import { company, course, dispatch, dispatchStat } from '../../db/schema'
import { jsonArraySql, jsonObjectSql } from '../../db/json-rows'
import { matchesTermMatch, nearerEnd, termMatch, valueSql, type MatchOptions, type TermMatch } from '../../db/search'
import { runStatement, statementCache } from '../../db/statement'
import type { DispatchRow, KeptRegistrationStats, SummaryRow } from './dispatches.mapper'
import { companyScope } from './dispatches.scope'
import {
  EMPTY_SEARCH,
  keptSummarySql,
  ownSearchSql,
  ownSearchSummarySql,
  searchesIds,
  staffSearchSummarySql,
  versionSql,
  type ListInput,
  type SearchSets,
} from './dispatches.summary'

export interface DispatchFilter {
  /** A client's company; undefined for staff (every company). */
  companyId?: string | undefined
  search?: string | undefined
  status: DispatchListQuery['status']
}

/** Provider-owned columns an admin edit can change (DECISIONS.md: provider first, then mirror). */
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

const rowColumns = {
  id: dispatch.id,
  courseId: dispatch.courseId,
  courseTitle: dispatch.courseTitle,
  destinationId: dispatch.destinationId,
  destinationName: dispatch.destinationName,
  enabled: dispatch.enabled,
  registrationCount: dispatch.registrationCount,
  registrationCap: dispatch.registrationCap,
  expirationDate: dispatch.expirationDate,
  tags: dispatch.tags,
  notes: dispatch.notes,
  providerCreated: dispatch.providerCreated,
  providerUpdated: dispatch.providerUpdated,
  registrationResetDate: dispatch.registrationResetDate,
}

/**
 * Case-insensitive sort keys (the names lowered once per write: migration 0023), each matching
 * an index (alone, and after the status filter); id always closes the list so equal keys keep
 * one order and pages neither repeat nor skip rows.
 */
const SORT_KEYS: Record<DispatchListQuery['sort'], SQL[]> = {
  client: [sql`${dispatch.destinationKey}`],
  course: [sql`${dispatch.courseKey}`],
  status: [sql`${dispatch.enabled}`, sql`${dispatch.destinationKey}`],
  registrations: [sql`${dispatch.registrationCount}`],
}

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

/**
 * The values of the list's statements, as placeholders: the statements are built once per shape
 * and kept (db/statement.ts), each request giving its values.
 */
const P = {
  id: sql.placeholder('id'),
  companyId: sql.placeholder('companyId'),
  pattern: sql.placeholder('pattern'),
  courses: sql.placeholder('courses'),
  companies: sql.placeholder('companies'),
  limit: sql.placeholder('limit'),
  offset: sql.placeholder('offset'),
  groupRows: sql.placeholder('groupRows'),
} as const

/** A filter as a statement's input (placeholders for its values), with its values and its shape's key. */
function inputOf(filter: DispatchFilter) {
  const term = filter.search?.trim()
  const match = term ? termMatch(term) : null
  const input: ListInput = {
    companyId: filter.companyId === undefined ? undefined : P.companyId,
    status: filter.status,
    search: match && { kind: match.kind, pattern: P.pattern },
  }
  const values = { companyId: filter.companyId, pattern: match?.pattern }
  const shape = [filter.companyId === undefined ? 'staff' : 'own', filter.status, match?.kind ?? '']
  return { input, values, shape }
}

/**
 * A search matches the course title or the company name (the provider's or the portal's), or
 * the dispatch id. Titles and names are looked up first in the course and company tables
 * (hundreds of rows: searchSets), so the dispatches are found through their course_id and
 * destination_id (indexes, or the sort index that carries them), ids through their trigram index.
 */
function searchOf(search: TermMatch): SQL {
  return or(
    sql`${dispatch.courseId} = any(${sql.param(P.courses)}::text[])`,
    sql`${dispatch.destinationId} = any(${sql.param(P.companies)}::text[])`,
    searchesIds(search) ? matchesTermMatch(sql`${dispatch.id}`, search) : undefined,
  )!
}

/** The filter's condition; `options.opaque`: a client's search term behind sub-selects (MatchOptions.opaque). */
function whereOf(input: ListInput, options: MatchOptions = {}): SQL {
  const conditions = [companyScope(input.companyId)]
  if (input.status !== 'all') conditions.push(sql`${dispatch.enabled} = ${sql.raw(String(input.status === 'enabled'))}`)
  if (input.search && input.companyId !== undefined)
    conditions.push(ownSearchSql(input.search, input.companyId, options))
  else if (input.search) conditions.push(searchOf(input.search))
  return and(...conditions)!
}

/**
 * A client's search summary. With `opaque`, its company and its term reach PostgreSQL behind
 * sub-selects (MatchOptions.opaque): its custom plans, made for the company and the term, looked
 * cheaper than the generic one, so every request planned it again (0.5 ms, as long as it ran);
 * it reads one company's few dispatches whatever the plan.
 */
function ownSummarySql(input: ListInput, opaque: boolean): SQL {
  const hidden = opaque ? { ...input, companyId: valueSql(P.companyId, 'text', true) } : input
  return ownSearchSummarySql(hidden, whereOf(hidden, { opaque }))
}

/** Sorts whose key is carried, after the course and after the company, by an index each (migration 0024). */
const GROUP_SORTS: ReadonlySet<DispatchListQuery['sort']> = new Set(['client', 'course'])

/**
 * How a page's ids are found (issue #13):
 * - `walk`: the sort index, from the start or (`fromEnd`) from the end;
 * - `collected`: a staff search's matches, collected through the course, company and id
 *   indexes and sorted;
 * - `grouped`: from each matched course and company only its first rows in the list's order,
 *   as many as the page's end, each group walked in order on its index; then those sorted.
 * `matches` (the filter's exact total; null when not known yet, the page is then walked from the
 * start) says whether the page is nearer the end (walked from there, `limit` and `offset`
 * counted from there). A staff search walks the sort index when its matches are dense enough
 * for the page to come early, a fifth of the scope or more; else it takes its groups' first rows
 * when that reads fewer rows than its matches (a shallow page of a search sorted by client or
 * course: `groups` matched courses and companies), and collects them otherwise.
 */
export function pageWay(
  counts: { matches: number | null; scope: number },
  staffSearch: boolean,
  limit: number,
  offset: number,
  grouping: { sort: DispatchListQuery['sort']; groups: number } = { sort: 'registrations', groups: 0 },
) {
  const walk = nearerEnd(counts.matches, limit, offset)
  const sparse = staffSearch && counts.matches !== null && counts.matches * 5 < counts.scope
  const groupRows = walk.offset + walk.limit
  const grouped = sparse && GROUP_SORTS.has(grouping.sort) && grouping.groups * groupRows < (counts.matches ?? 0)
  const by: 'walk' | 'collected' | 'grouped' = grouped ? 'grouped' : sparse ? 'collected' : 'walk'
  return { by, groupRows, ...walk }
}

/**
 * One page of the list as SQL, with the version it was read at (same statement, so the same
 * snapshot) and its sort keys (`sort_k0`...). Deferred join: the offset is walked over an index
 * alone (ids), and only the page's rows are read from the table, each by its key (a lateral
 * look-up: the planner has no join to choose, so the statement plans in about half the time).
 * Its values are placeholders: `limit` and `offset` (as pageWay counts them), and for a staff
 * search `courses` and `companies` (what the term matched).
 */
function pageSql(
  /** Values of a collected search behind sub-selects (DispatchesRepositoryOptions.reusePlans). */
  opaque: boolean,
  input: ListInput,
  sort: DispatchListQuery['sort'],
  order: DispatchListQuery['order'],
  way: { by: 'walk' | 'collected' | 'grouped'; fromEnd: boolean },
): SQL {
  const keys = SORT_KEYS[sort]
  const by = (direction: 'asc' | 'desc', ...columns: SQL[]) =>
    sql.join(
      columns.map((column) => sql`${column} ${sql.raw(direction)}`),
      sql`, `,
    )
  // A page in the second half of the filter's (exact) total is walked from the other end, in
  // the opposite order, and put back in order below: the last page of the staff list read
  // 50,000 index entries to skip them, and a deep page of a broad search sorted every match.
  const walkDirection = way.fromEnd ? (order === 'desc' ? 'asc' : 'desc') : order
  // A search walks the sort index only when it matches a fifth of the scope or more (its page
  // then comes early wherever the matches sit in the order); else its matches are collected,
  // index-only, by course, by company and by id, and sorted. (A company search sorted by
  // company name finds its matches in one stretch of the order: walking would read everything
  // before that stretch.) The union of the parts is read whole before the sort, so the planner
  // cannot walk the sort index through a rare term's every row instead.
  let ids: SQL
  if (way.by !== 'walk' && input.search) {
    // With `opaque` every value here reaches PostgreSQL inside a sub-select, as in the staff
    // search summary (MatchOptions.opaque): the statement plans alike for every term and page,
    // so after five runs it reuses one generic plan. The SQL fixes its shape (the parts, the
    // sort, the limit, which still bounds the sort when it runs): the plan has little to choose.
    const hidden = (value: unknown, type: string) => valueSql(value, type, opaque)
    const search = input.search
    const keyColumns = keys.map((key, i) => sql`, ${key} as ${sql.raw(`"match_k${i}"`)}`)
    const base = and(
      companyScope(input.companyId),
      input.status === 'all' ? undefined : sql`${dispatch.enabled} = ${sql.raw(String(input.status === 'enabled'))}`,
    )
    const part = (condition: SQL) =>
      sql`select ${dispatch.id} as "match_id"${sql.join(keyColumns)} from ${dispatch} where ${and(base, condition)}`
    // Disjoint parts (each leaves out what an earlier one took), so no de-duplication.
    const courses = hidden(P.courses, 'text[]')
    const companies = hidden(P.companies, 'text[]')
    const byCourse = sql`${dispatch.courseId} = any(${courses})`
    const byCompany = sql`${dispatch.destinationId} = any(${companies})`
    const byId = searchesIds(search)
      ? [part(sql`${matchesTermMatch(sql`${dispatch.id}`, search, { opaque })} and not (${byCourse} or ${byCompany})`)]
      : []
    let parts: SQL[]
    if (way.by === 'grouped') {
      // Each matched course's and company's first rows in the walk's order (an index each:
      // migration 0024), the page's end of them at most: the page is among those.
      const first = (group: SQL, condition: SQL) =>
        sql`select "first".* from unnest(${group}) as "group"("id") cross join lateral (
          ${part(condition)} order by ${by(walkDirection, ...keys, sql`${dispatch.id}`)}
          limit ${hidden(P.groupRows, 'bigint')}) as "first"`
      parts = [
        first(courses, sql`${dispatch.courseId} = "group"."id"`),
        first(companies, sql`${dispatch.destinationId} = "group"."id" and not ${byCourse}`),
        ...byId,
      ]
    } else {
      parts = [part(byCourse), part(sql`${byCompany} and not ${byCourse}`), ...byId]
    }
    const matchedKeys = keys.map((_, i) => sql.raw(`"matched"."match_k${i}"`))
    ids = sql`select "matched"."match_id" as "page_id" from (${sql.join(parts, sql` union all `)}) as "matched"
      order by ${by(walkDirection, ...matchedKeys, sql.raw('"matched"."match_id"'))}
      limit ${hidden(P.limit, 'bigint')} offset ${hidden(P.offset, 'bigint')}`
  } else {
    ids = sql`select ${dispatch.id} as "page_id" from ${dispatch} where ${whereOf(input)}
      order by ${by(walkDirection, ...keys, sql`${dispatch.id}`)}
      limit ${P.limit} offset ${P.offset}`
  }
  const columns = Object.entries(rowColumns).map(([name, column]) => sql`${column} as ${sql.identifier(name)}`)
  const sortKeys = keys.map((key, i) => sql`${key} as ${sql.raw(`"sort_k${i}"`)}`)
  return sql`select ${sql.join([...columns, ...sortKeys], sql`, `)},
      (select ${course.appSource} from ${course} where ${course.id} = ${dispatch.courseId}) as "appSource",
      ${versionSql(input)} as "dataVersion"
    from (${ids}) as "page"
    cross join lateral (select * from ${dispatch} where ${dispatch.id} = "page"."page_id" offset 0) as ${dispatch}
    order by ${by(order, ...keys, sql`${dispatch.id}`)}`
}

/** What of a dispatch a role may read (SPEC §6): the same keys toDispatch gives it. */
export interface RowFields {
  appSource: boolean
  notes: boolean
}

/**
 * The rows of a page (pageSql, as "p") as the JSON array of SPEC §3 dispatches the answer
 * carries, written by PostgreSQL (db/json-rows.ts): the keys and values toDispatch() gives the
 * role, in the list's order; with the version the page was read at.
 */
function rowsJsonSql(page: SQL, sortKeys: number, fields: RowFields, order: DispatchListQuery['order']): SQL {
  const p = (name: string) => sql.raw(`"p"."${name}"`)
  const object = jsonObjectSql([
    { key: 'id', value: p('id'), kind: 'text' },
    { key: 'courseId', value: p('courseId'), kind: 'text' },
    { key: 'courseTitle', value: p('courseTitle'), kind: 'text' },
    { key: 'destinationId', value: p('destinationId'), kind: 'text' },
    { key: 'destinationName', value: p('destinationName'), kind: 'text' },
    { key: 'enabled', value: p('enabled'), kind: 'boolean' },
    { key: 'registrationCount', value: p('registrationCount'), kind: 'number' },
    { key: 'registrationCap', value: p('registrationCap'), kind: 'number' },
    { key: 'created', value: p('providerCreated'), kind: 'timestamp' },
    { key: 'updated', value: p('providerUpdated'), kind: 'timestamp' },
    { key: 'expirationDate', value: p('expirationDate'), kind: 'timestamp' },
    ...(fields.appSource ? [{ key: 'appSource', value: p('appSource'), kind: 'text' } as const] : []),
    ...(fields.notes
      ? ([
          { key: 'tags', value: p('tags'), kind: 'json' },
          { key: 'notes', value: p('notes'), kind: 'text' },
        ] as const)
      : []),
    { key: 'registrationResetDate', value: p('registrationResetDate'), kind: 'timestamp' },
  ])
  const direction = sql.raw(order === 'desc' ? 'desc' : 'asc')
  const by = [...Array.from({ length: sortKeys }, (_, i) => p(`sort_k${i}`)), p('id')].map(
    (k) => sql`${k} ${direction}`,
  )
  return sql`select ${jsonArraySql(object, sql.join(by, sql`, `))} as "rowsJson", max(${p('dataVersion')}) as "dataVersion"
    from (${page}) as "p"`
}

/** Built list statements by shape (db/statement.ts): a few hundred shapes at most. */
const statements = statementCache(1_000)

/**
 * A page's statement and values: built once per shape (whose list, status, search kind, sort,
 * order, the way pageWay chose, the keys the role reads), its values given per request.
 */
export function pageStatement(
  opaque: boolean,
  fields: RowFields,
  filter: DispatchFilter,
  sets: SearchSets | null,
  sort: DispatchListQuery['sort'],
  order: DispatchListQuery['order'],
  limit: number,
  offset: number,
  counts: { matches: number | null; scope: number },
) {
  const { input, values, shape } = inputOf(filter)
  const found = sets ?? EMPTY_SEARCH
  const groups = found.courses.length + found.companies.length
  const way = pageWay(counts, input.search !== null && filter.companyId === undefined, limit, offset, { sort, groups })
  const key = ['page', opaque, ...shape, sort, order, way.by, way.fromEnd, fields.appSource, fields.notes]
  const statement = statements.get(JSON.stringify(key), () =>
    rowsJsonSql(pageSql(opaque, input, sort, order, way), SORT_KEYS[sort].length, fields, order),
  )
  return {
    statement,
    values: {
      ...values,
      courses: found.courses,
      companies: found.companies,
      limit: way.limit,
      offset: way.offset,
      groupRows: way.groupRows,
    },
  }
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
   * one generic plan after five runs (issue #13; MatchOptions.opaque). Only where statements are
   * prepared (PostgreSQL): PGlite plans every statement afresh, and there hidden values only
   * make the plan worse (staff list on PGlite: 211 against 175 req/s).
   */
  reusePlans?: boolean
}

export function createDispatchesRepository(db: DbOrTx, options: DispatchesRepositoryOptions = {}) {
  const opaque = options.reusePlans === true
  return {
    /**
     * Everything about a filter but its page, in one statement: the summary cards (kept
     * per-company and per-course sums, issue #13), the version, and what a search matched.
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
      return { rowsJson: (row?.rowsJson as string | undefined) ?? '[]', version: toVersion(row?.dataVersion) }
    },

    /**
     * A staff page near the start of the unsearched list with its summary cards and version, in
     * one statement (issue #13): such a page is walked from the start whatever the total, so it
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
      const key = ['summaryAndPage', ...shape, sort, order, fields.appSource, fields.notes]
      const statement = statements.get(JSON.stringify(key), () => {
        const page = pageSql(false, input, sort, order, { by: 'walk', fromEnd: false })
        return sql`
          select "summary".*, "rows"."rowsJson" from (${keptSummarySql(input)}) as "summary"
          cross join lateral (${rowsJsonSql(page, SORT_KEYS[sort].length, fields, order)}) as "rows"`
      })
      const [first] = await runStatement(db, statement, { ...values, limit, offset })
      return {
        summary: toSummaryRow(first),
        version: toVersion(first?.version),
        rowsJson: (first?.rowsJson as string | undefined) ?? '[]',
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

    /** SPEC §7 destinations: companies still present upstream, by name. */
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

const toVersion = (value: unknown) => (value === null || value === undefined ? null : Number(value))

/** Both drivers hand text[] back as arrays. */
function toSets(row: { courses: string[]; companies: string[] } | undefined): SearchSets {
  return { courses: row?.courses ?? [], companies: row?.companies ?? [] }
}
