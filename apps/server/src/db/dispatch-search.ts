import { or, sql, type AnyColumn, type SQL } from 'drizzle-orm'
import { company, course, dispatch, dispatchSummary, dispatchSummaryTotal, dispatchVersion } from './schema'
import { MIN_SUBSTRING_TERM, matchesTermMatch, type MatchOptions, type TermMatch } from './search'

/**
 * The dispatch search's look-ups and the list's cache version as SQL, shared by the dispatch
 * list (modules/dispatches) and the dashboard charts (modules/reports): a search matches the
 * titles of courses, the names of companies and (past two characters) dispatch ids.
 */

/** Dispatch ids are searched by substring only: one or two characters of an id mean nothing. */
export const matchesIds = (term: string) => term.length >= MIN_SUBSTRING_TERM

/** The same for a term given as a match (a term without a letter or digit matches no id either). */
export const searchesIds = (search: TermMatch) => search.kind === 'substring'

/** What a search term matched in the course and company tables. */
export interface SearchSets {
  courses: string[]
  companies: string[]
}
export const EMPTY_SEARCH: SearchSets = { courses: [], companies: [] }

/**
 * The version a cached page of this filter hangs on: a client's pages change only with its own
 * company's dispatches (dispatch_summary.version), staff pages with any dispatch (dispatch_version).
 */
export function versionSql(filter: { companyId?: unknown }): SQL {
  if (filter.companyId === undefined) {
    return sql`(select ${dispatchVersion.version} from ${dispatchVersion} where ${dispatchVersion.id} = 1)`
  }
  return sql`(select max(${dispatchSummary.version}) from ${dispatchSummary} where ${dispatchSummary.companyId} = ${filter.companyId})`
}

/** A status filter as a condition on an `enabled` column (a literal, so each status plans apart). */
export function enabledIs(status: 'all' | 'enabled' | 'disabled', column: SQL | AnyColumn): SQL {
  return status === 'all' ? sql`true` : sql`${column} = ${sql.raw(String(status === 'enabled'))}`
}

/**
 * The kept summary rows of a filter's scope and status: a client's company's two rows, or for
 * staff (every company) the two rows of their kept total (migration 0051), so a staff request
 * reads two rows however many companies there are. Read by the dispatch list's summary and the
 * dashboard's cap usage.
 */
export function keptScope(filter: { companyId?: unknown; status: 'all' | 'enabled' | 'disabled' }) {
  const s = filter.companyId === undefined ? dispatchSummaryTotal : dispatchSummary
  const company = filter.companyId === undefined ? sql`true` : sql`${dispatchSummary.companyId} = ${filter.companyId}`
  return { s, where: sql`${company} and ${enabledIs(filter.status, s.enabled)}` }
}

/**
 * The look-ups compare the term with every course and company (a few hundred rows, no index
 * to choose), so the term is hidden from the planner there whatever `options` say: it is then
 * lowered once per statement (db/search.ts loweredSql), not once per row.
 */
const LOOK_UP: MatchOptions = { lowered: true, opaque: true }

/** The ids of the courses whose title (the provider's or the portal's) matches, lowered (migration 0022). */
function coursesMatching(search: TermMatch, options: MatchOptions = {}): SQL {
  const lowered = { ...options, ...LOOK_UP }
  return sql`array(select ${course.id} from ${course}
    where ${matchesTermMatch(sql`${course.titleKey}`, search, lowered)}
       or ${matchesTermMatch(sql`${course.titleOverrideKey}`, search, lowered)})`
}

/** The ids of the companies (a client's: its own only) whose name or portal name matches. */
function companiesMatching(search: TermMatch, companyId?: unknown, options: MatchOptions = {}): SQL {
  const lowered = { ...options, ...LOOK_UP }
  const own = companyId === undefined ? sql`true` : sql`${company.id} = ${companyId}`
  return sql`array(select ${company.id} from ${company}
    where ${own} and (${matchesTermMatch(sql`${company.nameKey}`, search, lowered)}
                      or ${matchesTermMatch(sql`${company.displayNameKey}`, search, lowered)}))`
}

/**
 * The course and company ids whose title or name matches, for a staff search: looked up first,
 * then given to the summary and the page as arrays (the summary adds the kept sums of each).
 */
export function searchSetsSql(search: TermMatch, options: MatchOptions = {}): SQL {
  return sql`select ${coursesMatching(search, options)} as "courses", ${companiesMatching(search, undefined, options)} as "companies"`
}

/**
 * A client's search as one condition on its dispatches, the course and company look-ups inline
 * (once per statement; its company's names only): a client request is the session check, the
 * summary and the page, without the look-up statement a staff search makes first.
 */
export function ownSearchSql(search: TermMatch, companyId: unknown, options: MatchOptions = {}): SQL {
  return or(
    sql`${dispatch.courseId} = any(${coursesMatching(search, options)})`,
    sql`${dispatch.destinationId} = any(${companiesMatching(search, companyId, options)})`,
    searchesIds(search) ? matchesTermMatch(sql`${dispatch.id}`, search, options) : undefined,
  )!
}
