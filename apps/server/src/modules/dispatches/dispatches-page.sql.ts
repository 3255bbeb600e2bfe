import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm'
import { DISPATCH_PAGE_SIZES, type DispatchListQuery } from '@portal/shared'
import { course, dispatch } from '../../db/schema'
import { jsonArraySql } from '../../db/json-rows'
import { matchesTermMatch, nearerEnd, termMatch, valueSql, type MatchOptions, type TermMatch } from '../../db/search'
import { placeholders, statementCache } from '../../db/statement'
import { dispatchFields, type DispatchView } from './dispatches.fields'
import {
  EMPTY_SEARCH,
  enabledIs,
  ownSearchSql,
  searchesIds,
  versionSql,
  type SearchSets,
} from '../../db/dispatch-search'
import { ownSearchSummarySql, type ListInput } from './dispatches-summary.sql'
import { PLACED_BY, PLACED_PAGE_OFFSET, placedIdsSql } from './dispatches-placed.sql'

/**
 * The dispatch list's statements: a filter as placeholders and values, the way a page
 * is read (pageWay), the page's SQL and the JSON rows PostgreSQL writes for it, built once per
 * shape. dispatches.repository.ts runs them.
 */

/**
 * The dispatches of a company (`companyId`: its id, or a placeholder for it in a statement kept
 * for reuse), or of every company (undefined: staff), as a WHERE condition; never a dispatch
 * removed upstream.
 */
export function companyScope(companyId: unknown): SQL {
  const present = isNull(dispatch.removedAt)
  return companyId === undefined ? present : and(present, eq(dispatch.destinationId, companyId as string))!
}

export interface DispatchFilter {
  /** A client's company; undefined for staff (every company). */
  companyId?: string | undefined
  search?: string | undefined
  status: DispatchListQuery['status']
}

export const rowColumns = {
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
export const SORT_KEYS: Record<DispatchListQuery['sort'], SQL[]> = {
  client: [sql`${dispatch.destinationKey}`],
  course: [sql`${dispatch.courseKey}`],
  status: [sql`${dispatch.enabled}`, sql`${dispatch.destinationKey}`],
  registrations: [sql`${dispatch.registrationCount}`],
}

/**
 * The values of the list's statements, as placeholders: the statements are built once per shape
 * and kept (db/statement.ts), each request giving its values.
 */
export const P = placeholders('id', 'companyId', 'pattern', 'courses', 'companies', 'limit', 'offset', 'groupRows')

/** A filter as a statement's input (placeholders for its values), with its values and its shape's key. */
export function inputOf(filter: DispatchFilter) {
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
  if (input.status !== 'all') conditions.push(enabledIs(input.status, dispatch.enabled))
  if (input.search && input.companyId !== undefined)
    conditions.push(ownSearchSql(input.search, input.companyId, options))
  else if (input.search) conditions.push(searchOf(input.search))
  return and(...conditions)!
}

/**
 * A client's search summary. With `opaque`, its company and its term reach PostgreSQL behind
 * sub-selects (MatchOptions.opaque): its custom plans, made for the company and the term, looked
 * cheaper than the generic one, so every request planned it again (planning cost as much as running);
 * it reads one company's few dispatches whatever the plan.
 */
export function ownSummarySql(input: ListInput, opaque: boolean): SQL {
  const hidden = opaque ? { ...input, companyId: valueSql(P.companyId, 'text', true) } : input
  return ownSearchSummarySql(hidden, whereOf(hidden, { opaque }))
}

/**
 * Where a staff page of the unsearched list stops being "near the start": up to here it is
 * walked from the start whatever the total, so its summary and its page are read in one
 * statement (walking a thousand index entries costs less than a second statement). A page that
 * ends further in waits for the total, to be walked from the nearer end.
 */
export const SHALLOW_PAGE_END = 1_000

/** The bound of a staff walk that is not placed: a walk that starts before PLACED_PAGE_OFFSET ends by here. */
const WALK_BOUND = PLACED_PAGE_OFFSET + Math.max(...DISPATCH_PAGE_SIZES)

/** Sorts whose key is carried, after the course and after the company, by an index each (migration 0024). */
const GROUP_SORTS: ReadonlySet<DispatchListQuery['sort']> = new Set(['client', 'course'])

/**
 * How a page's ids are found:
 * - `walk`: the sort index, from the start or (`fromEnd`) from the end;
 * - `collected`: a staff search's matches, collected through the course, company and id
 *   indexes and sorted;
 * - `grouped`: from each matched course and company only its first rows in the list's order,
 *   as many as the page's end, each group walked in order on its index; then those sorted.
 * - `placed`: a staff page without a search, deep in the list: the key that holds its first row
 *   is found from the kept counts by key (migration 0052), and the sort index is walked from there.
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
  /** A staff list without a search: its pages can be placed by the kept counts. */
  staffList = false,
) {
  const walk = nearerEnd(counts.matches, limit, offset)
  const sparse = staffSearch && counts.matches !== null && counts.matches * 5 < counts.scope
  const groupRows = walk.offset + walk.limit
  const grouped = sparse && GROUP_SORTS.has(grouping.sort) && grouping.groups * groupRows < (counts.matches ?? 0)
  const placed = staffList && PLACED_BY[grouping.sort] !== undefined && walk.offset >= PLACED_PAGE_OFFSET
  const by: PageWay = placed ? 'placed' : grouped ? 'grouped' : sparse ? 'collected' : 'walk'
  return { by, groupRows, ...walk }
}

export type PageWay = 'walk' | 'collected' | 'grouped' | 'placed'

/**
 * One page of the list as SQL, with the version it was read at (same statement, so the same
 * snapshot) and its sort keys (`sort_k0`...). Deferred join: the offset is walked over an index
 * alone (ids), and only the page's rows are read from the table, each by its key (a lateral
 * look-up: the planner has no join to choose, so the statement plans in about half the time).
 * Its values are placeholders: `limit` and `offset` (as pageWay counts them), and for a staff
 * search `courses` and `companies` (what the term matched).
 */
export function pageSql(
  /** Values of a collected search behind sub-selects (DispatchesRepositoryOptions.reusePlans). */
  opaque: boolean,
  input: ListInput,
  sort: DispatchListQuery['sort'],
  order: DispatchListQuery['order'],
  /** `within`: a walk whose page is known to end by that many rows from where it starts. */
  way: { by: PageWay; fromEnd: boolean; within?: number },
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
  // With `opaque`, values behind sub-selects (DispatchesRepositoryOptions.reusePlans). A placed
  // page's offset is known only once the counts are read, so no plan is made for it; a limit
  // seen by the planner made each request's plan look cheaper than the generic one, and every
  // request was planned again. Hidden too, every page plans alike and the plan is kept.
  const hidden = (value: unknown, type: string) => valueSql(value, type, opaque)
  const page = { limit: hidden(P.limit, 'bigint'), offset: hidden(P.offset, 'bigint') }
  let ids: SQL
  if (way.by === 'placed') {
    ids = placedIdsSql(page, input.status, sort, walkDirection, whereOf(input), keys)
  } else if (way.by !== 'walk' && input.search) {
    // With `opaque` every value here reaches PostgreSQL inside a sub-select, as in the staff
    // search summary (MatchOptions.opaque): the statement plans alike for every term and page,
    // so after five runs it reuses one generic plan. The SQL fixes its shape (the parts, the
    // sort, the limit, which still bounds the sort when it runs): the plan has little to choose.
    const search = input.search
    const keyColumns = keys.map((key, i) => sql`, ${key} as ${sql.raw(`"match_k${i}"`)}`)
    const base = and(
      companyScope(input.companyId),
      input.status === 'all' ? undefined : enabledIs(input.status, dispatch.enabled),
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
      limit ${page.limit} offset ${page.offset}`
  } else if (way.within !== undefined) {
    // A page near the start of its walk: the walk is bounded by a number in the text, and the
    // page's limit and offset (behind sub-selects with `opaque`) are taken from it. Planned for
    // a known limit and offset, the statement looked cheaper than its generic plan, which
    // assumed a tenth of the list and sorted all of it, so every request planned it again
    // (about as long as it ran). Bounded, every page plans alike as the index walk, and
    // PostgreSQL keeps that generic plan after five runs.
    ids = sql`select "walked"."page_id" from (
        select ${dispatch.id} as "page_id" from ${dispatch} where ${whereOf(input)}
        order by ${by(walkDirection, ...keys, sql`${dispatch.id}`)}
        limit ${sql.raw(String(Math.trunc(way.within)))}
      ) as "walked"
      limit ${page.limit} offset ${page.offset}`
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

/** What of a dispatch a role reads (docs/product-rules.md §6): dispatchFields.view(role), as toDispatch gives it. */
export type RowFields = DispatchView

/**
 * The rows of a page (pageSql, as "p") as the JSON array of docs/product-rules.md §3 dispatches the answer
 * carries, written by PostgreSQL (db/json-rows.ts) from dispatchFields: the keys and values
 * toDispatch() gives the role, in the list's order; with the version the page was read at.
 */
export function rowsJsonSql(page: SQL, sortKeys: number, fields: RowFields, order: DispatchListQuery['order']): SQL {
  const p = (name: string) => sql.raw(`"p"."${name}"`)
  // pageSql names its columns as DispatchRow does, the names dispatchFields reads.
  const object = dispatchFields.jsonSql(fields, p)
  const direction = sql.raw(order === 'desc' ? 'desc' : 'asc')
  const by = [...Array.from({ length: sortKeys }, (_, i) => p(`sort_k${i}`)), p('id')].map(
    (k) => sql`${k} ${direction}`,
  )
  return sql`select ${jsonArraySql(object, sql.join(by, sql`, `))} as "rowsJson", max(${p('dataVersion')}) as "dataVersion"
    from (${page}) as "p"`
}

/** Built list statements by shape (db/statement.ts): a few hundred shapes at most. */
export const statements = statementCache(1_000)

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
  const staff = filter.companyId === undefined
  const way = pageWay(counts, input.search !== null && staff, limit, offset, { sort, groups }, staff && !input.search)
  // A staff walk without a search whose page ends within WALK_BOUND rows of where the walk
  // starts is bounded as a page near the start is (pageSql): every walk of a sort the kept
  // counts place, and the shallower ones of the registrations sort.
  const bounded = staff && !input.search && way.by === 'walk' && way.offset + way.limit <= WALK_BOUND
  const key = ['page', opaque, ...shape, sort, order, way.by, way.fromEnd, bounded, fields.key]
  const statement = statements.get(JSON.stringify(key), () =>
    rowsJsonSql(
      pageSql(opaque, input, sort, order, { ...way, within: bounded ? WALK_BOUND : undefined }),
      SORT_KEYS[sort].length,
      fields,
      order,
    ),
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
